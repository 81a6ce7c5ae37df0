/**
 * The learned structures in the report: per dataset × method, the structure learned most often over the
 * folds (the modal arc set; ties go to the one seen first in (repeat, fold) order), drawn as an SVG with
 * each arc labelled by the share of folds that learned it. Drawn here, not by Vega: a node-link diagram
 * with arrows needs a layout Vega-Lite does not have.
 *
 * Layout: the class on top, the attributes in layers below it (each one layer below its deepest parent
 * among the attributes, so arcs between attributes point down), straight arcs with arrowheads ending at the
 * node boxes, arc labels placed where they cover no node and no other label. Names are escaped; text widths
 * use Helvetica metrics.
 */
import type { ResultRow } from '../store/db.js';
import type { Block, Section } from './document.js';
import type { Figure } from './figures.js';
import { textWidth } from './figures.js';
import { foldGroups } from './summary.js';
import { pairKey, splitPairKey } from '../util/keys.js';
import { codeOrder } from '../util/text.js';

export type ArcsByJob = ReadonlyMap<string, readonly (readonly [string, string])[]>;

interface ModalStructure {
  readonly dataset: string;
  readonly method: string;
  readonly folds: number;
  /** Folds whose structure is exactly the modal one. */
  readonly modalFolds: number;
  /** The modal structure's arcs with the share of all folds that learned each. */
  readonly arcs: readonly { readonly parent: string; readonly child: string; readonly share: number }[];
  /** Arcs learned in some fold but not in the modal structure. */
  readonly otherArcs: number;
}

/** Per dataset × method with arcs stored in at least one fold. */
export function modalStructures(rows: readonly ResultRow[], arcs: ArcsByJob): ModalStructure[] {
  const out: ModalStructure[] = [];
  for (const g of foldGroups(rows)) {
    const sets = g.map((r) => (arcs.get(r.job_key) ?? []).map(([p, c]) => pairKey(p, c)).sort());
    if (sets.every((s) => s.length === 0)) continue;
    const count = new Map<string, number>();
    const arcCount = new Map<string, number>();
    for (const s of sets) {
      const key = s.join('\u0001');
      count.set(key, (count.get(key) ?? 0) + 1);
      for (const a of s) arcCount.set(a, (arcCount.get(a) ?? 0) + 1);
    }
    let modal = sets[0];
    let best = 0;
    for (const s of sets) {
      const n = count.get(s.join('\u0001'))!;
      if (n > best) {
        best = n;
        modal = s;
      }
    }
    out.push({
      dataset: g[0].dataset,
      method: g[0].method,
      folds: g.length,
      modalFolds: best,
      arcs: modal.map((a) => {
        const [parent, child] = splitPairKey(a);
        return { parent, child, share: arcCount.get(a)! / g.length };
      }),
      otherArcs: [...arcCount.keys()].filter((a) => !modal.includes(a)).length,
    });
  }
  return out.sort((a, b) => codeOrder(a.dataset, b.dataset) || codeOrder(a.method, b.method));
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const FONT = 14;
const LABEL = 12;

/** Where the segment from the centre of a w × h box towards (dx, dy) leaves the box. */
function boxExit(w: number, h: number, dx: number, dy: number): number {
  const tx = dx === 0 ? Infinity : w / 2 / Math.abs(dx);
  const ty = dy === 0 ? Infinity : h / 2 / Math.abs(dy);
  return Math.min(tx, ty);
}

/**
 * The drawing of one structure. Drawn every time, not cached: with Helvetica's metrics read from the build's
 * entry (figures.ts) a drawing costs about half a millisecond, less than looking it up and storing it (a
 * cold report of 40 structures spent about 28 ms on their cache keys and files against 22 ms drawing them;
 * docs/performance.md).
 * @param className the class node's name (drawn on top); the other nodes are the arcs' endpoints in the
 *   order given by `order` (attribute column order) where known.
 */
export function structureSvg(s: ModalStructure, className: string | undefined, order: readonly string[]): string {
  const names = new Set<string>();
  for (const a of s.arcs) {
    names.add(a.parent);
    names.add(a.child);
  }
  const cls = className && names.has(className) ? className : undefined;
  const attrs = [...names]
    .filter((n) => n !== cls)
    .sort((a, b) => {
      const ia = order.indexOf(a);
      const ib = order.indexOf(b);
      return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || codeOrder(a, b);
    });
  const boxW = (n: string): number => textWidth(n, FONT) + 14;
  const boxH = FONT + 10;
  // Layers: the attributes' arcs among themselves (the class's left out) as a layered drawing (Sugiyama,
  // Tagawa & Toda 1981): each attribute one layer below its deepest parent, so every arc between attributes
  // points down and a TAN's tree is drawn as a tree, not as chords across a circle that cross each other
  // and pile onto one node. Within a layer, nodes are ordered by the mean position of their parents
  // (barycentre), then by column order.
  const parentsOf = new Map<string, string[]>(attrs.map((a) => [a, []]));
  for (const a of s.arcs) if (a.parent !== cls && a.child !== cls) parentsOf.get(a.child)?.push(a.parent);
  const depth = new Map<string, number>();
  const depthOf = (a: string, seen: Set<string>): number => {
    const known = depth.get(a);
    if (known !== undefined) return known;
    if (seen.has(a)) return 0; // a cycle (not a DAG): cut it here
    seen.add(a);
    const d = Math.max(-1, ...parentsOf.get(a)!.map((p) => depthOf(p, seen))) + 1;
    depth.set(a, d);
    return d;
  };
  for (const a of attrs) depthOf(a, new Set());
  const layers: string[][] = [];
  for (const a of attrs) (layers[depth.get(a)!] ??= []).push(a);
  const gap = 26;
  const layerWidth = (l: readonly string[]): number => l.reduce((w, a) => w + boxW(a), 0) + gap * (l.length - 1);
  // A wide first layer (naive Bayes: every attribute a root) wraps into rows of at most ~760 px.
  const rows: string[][] = [];
  for (const l of layers) {
    let row: string[] = [];
    for (const a of l) {
      if (row.length > 0 && layerWidth([...row, a]) > 760) {
        rows.push(row);
        row = [];
      }
      row.push(a);
    }
    if (row.length) rows.push(row);
  }
  const xOf = new Map<string, number>();
  // The class sits at the top left, the layers to its right: its arcs then fan out diagonally instead of
  // running down the tree's own (mostly vertical) arcs.
  // With a single row (naive Bayes) the class stays centred above it, its arcs fanning down.
  const indent = cls && rows.length > 1 ? boxW(cls) + 30 : 0;
  const placeRow = (row: string[], width: number): void => {
    let x = indent + (width - indent - layerWidth(row)) / 2;
    for (const a of row) {
      xOf.set(a, x + boxW(a) / 2);
      x += boxW(a) + gap;
    }
  };
  const width = Math.max(
    320,
    ...rows.map((r) => indent + layerWidth(r) + 40),
    cls ? boxW(cls) + 40 : 0,
    // The title is drawn bold (below), and bold is wider: measured as regular, a long title was cut.
    textWidth(`${s.dataset}: ${s.method}`, 15, true) + 24,
  );
  rows.forEach((r, i) => {
    if (i > 0) {
      const bary = (a: string): number => {
        const ps = parentsOf.get(a)!.filter((p) => xOf.has(p));
        return ps.length ? ps.reduce((t, p) => t + xOf.get(p)!, 0) / ps.length : Infinity;
      };
      const col = (a: string): number => attrs.indexOf(a);
      r.sort((a, b) => bary(a) - bary(b) || col(a) - col(b));
    }
    placeRow(r, width);
  });
  const top = 40 + (cls ? boxH + 50 : 0);
  const rowStep = boxH + 64;
  const height = top + rows.length * rowStep - 64 + 20;
  const pos = new Map<string, [number, number]>();
  if (cls) pos.set(cls, [indent > 0 ? 12 + boxW(cls) / 2 : width / 2, 30 + boxH / 2]);
  rows.forEach((r, i) => {
    for (const a of r) pos.set(a, [xOf.get(a)!, top + i * rowStep + boxH / 2]);
  });
  // Arc labels go where they cover no other label and no node: the first free spot along the arc.
  const taken: { x: number; y: number; w: number; h: number }[] = [...pos].map(([name, [x, y]]) => ({
    x: x - boxW(name) / 2,
    y: y - boxH / 2,
    w: boxW(name),
    h: boxH,
  }));
  const overlaps = (b: { x: number; y: number; w: number; h: number }): boolean =>
    taken.some((t) => b.x < t.x + t.w && t.x < b.x + b.w && b.y < t.y + t.h && t.y < b.y + b.h);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width.toFixed(0)}" height="${height.toFixed(0)}" viewBox="0 0 ${width.toFixed(0)} ${height.toFixed(0)}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="20" font-size="15" font-weight="bold">${esc(`${s.dataset}: ${s.method}`)}</text>`,
  ];
  // Labels are drawn after every arc, so no arc runs over a label.
  const labels: string[] = [];
  // The class's arcs first (under the others), then the attributes' arcs.
  const drawOrder = [...s.arcs].sort((a, b) => Number(b.parent === cls) - Number(a.parent === cls));
  for (const a of drawOrder) {
    const [x1, y1] = pos.get(a.parent)!;
    const [x2, y2] = pos.get(a.child)!;
    const dx = x2 - x1;
    const dy = y2 - y1;
    const t1 = boxExit(boxW(a.parent), boxH, dx, dy);
    const t2 = boxExit(boxW(a.child), boxH, dx, dy);
    const sx = x1 + dx * t1;
    const sy = y1 + dy * t1;
    const ex = x2 - dx * t2;
    const ey = y2 - dy * t2;
    const share = `${Math.round(a.share * 100)}%`;
    const fromClass = a.parent === cls;
    // The arrowhead as a polygon (not an SVG marker, which PDF converters and strict validators lack).
    const len = Math.hypot(ex - sx, ey - sy) || 1;
    const ux = (ex - sx) / len;
    const uy = (ey - sy) / len;
    const head = `M${ex.toFixed(1)},${ey.toFixed(1)}L${(ex - 9 * ux + 4 * uy).toFixed(1)},${(ey - 9 * uy - 4 * ux).toFixed(1)}L${(ex - 9 * ux - 4 * uy).toFixed(1)},${(ey - 9 * uy + 4 * ux).toFixed(1)}Z`;
    const colour = fromClass ? '#bbb' : '#444';
    parts.push(
      `<g><title>${esc(`${a.parent} → ${a.child}: in ${share} of the folds`)}</title><line x1="${sx.toFixed(1)}" y1="${sy.toFixed(1)}" x2="${(ex - 8 * ux).toFixed(1)}" y2="${(ey - 8 * uy).toFixed(1)}" stroke="${colour}" stroke-width="${(0.8 + 1.6 * a.share).toFixed(2)}"/><path d="${head}" fill="${colour}"/></g>`,
    );
    // The class's arcs are in every naive-Bayes-like structure: their labels would cover the drawing.
    if (!fromClass || a.share < 1) {
      // The first spot along the arc (from its middle outwards) where the label covers no node and no
      // other label; the middle when there is none.
      const w = textWidth(share, LABEL) + 6;
      let mx = sx + 0.5 * (ex - sx);
      let my = sy + 0.5 * (ey - sy);
      for (const f of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
        const px = sx + f * (ex - sx);
        const py = sy + f * (ey - sy);
        if (!overlaps({ x: px - w / 2, y: py - 8, w, h: 15 })) {
          mx = px;
          my = py;
          break;
        }
      }
      taken.push({ x: mx - w / 2, y: my - 8, w, h: 15 });
      labels.push(
        `<rect x="${(mx - w / 2).toFixed(1)}" y="${(my - 8).toFixed(1)}" width="${w.toFixed(1)}" height="15" fill="white" opacity="0.85"/>`,
      );
      labels.push(
        `<text x="${mx.toFixed(1)}" y="${(my + 4).toFixed(1)}" font-size="${LABEL}" text-anchor="middle" fill="#333">${share}</text>`,
      );
    }
  }
  parts.push(...labels);
  for (const [name, [x, y]] of pos) {
    const w = boxW(name);
    const isClass = name === cls;
    parts.push(
      `<rect x="${(x - w / 2).toFixed(1)}" y="${(y - boxH / 2).toFixed(1)}" width="${w.toFixed(1)}" height="${boxH}" rx="6" fill="${isClass ? '#fde9c9' : '#e8f0fa'}" stroke="${isClass ? '#b07d2b' : '#5b7fb0'}"/>`,
      `<text x="${x.toFixed(1)}" y="${(y + FONT / 2 - 2).toFixed(1)}" font-size="${FONT}" text-anchor="middle"${isClass ? ' font-weight="bold"' : ''}>${esc(name)}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** The node with an arc to every other node of the structure (the class of naive-Bayes-based structures), if any. */
export function hubNode(s: ModalStructure): string | undefined {
  const nodes = new Set(s.arcs.flatMap((a) => [a.parent, a.child]));
  const out = new Map<string, number>();
  for (const a of s.arcs) out.set(a.parent, (out.get(a.parent) ?? 0) + 1);
  return [...out.entries()].find(([, k]) => k === nodes.size - 1)?.[0];
}

export function structureFigure(id: string, s: ModalStructure, order: readonly string[]): Figure {
  const className = hubNode(s);
  const title = `${s.dataset}: ${s.method}, learned structure`;
  return {
    id,
    title,
    caption: `${s.dataset}, ${s.method}: the structure learned in ${s.modalFolds} of ${s.folds} folds (the most frequent); each arc labelled with the share of folds that learned it${cls(className)}${s.otherArcs ? `; ${s.otherArcs} other arc${s.otherArcs > 1 ? 's' : ''} appeared in some folds only` : ''}.`,
    svg: structureSvg(s, className, order),
  };
}

function cls(className: string | undefined): string {
  return className
    ? `; ${className}, drawn on top, has an arc to every other node (the class), its arcs in grey and unlabelled when in every fold`
    : '';
}

/** Drawings are made for at most this many dataset × method pairs; beyond, the section says so. */
const MAX_STRUCTURE_DRAWINGS = 40;

/** The "Learned structures" section: one drawing per dataset × method with stored arcs; null when none. */
export function learnedStructuresSection(
  rows: readonly ResultRow[],
  arcs: ArcsByJob,
  figureId: (stem: string) => string,
): Section | null {
  const modal = modalStructures(rows, arcs);
  if (modal.length === 0) return null;
  const blocks: Block[] = [
    {
      kind: 'p',
      text:
        modal.length > MAX_STRUCTURE_DRAWINGS
          ? `${modal.length} dataset × method pairs have stored structures; the first ${MAX_STRUCTURE_DRAWINGS} (by dataset, then method) are drawn. Every fold's arcs are in the structures table (bnclab sql).`
          : `The most frequent structure over the folds of each dataset × method (${modal.length}); arc labels: the share of folds that learned the arc.`,
    },
  ];
  for (const s of modal.slice(0, MAX_STRUCTURE_DRAWINGS)) {
    blocks.push({ kind: 'figure', figure: structureFigure(figureId(`structure-${s.dataset}-${s.method}`), s, []) });
  }
  return { title: 'Learned structures', level: 2, blocks };
}
