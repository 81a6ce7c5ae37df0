/**
 * The learned structures in the report: per dataset × method, the structure learned most often over the
 * folds (the modal arc set; ties go to the one seen first in (repeat, fold) order), drawn as an SVG with
 * each arc labelled by the share of folds that learned it. Drawn here, not by Vega: a node-link diagram
 * with arrows needs a layout Vega-Lite does not have.
 *
 * Layout: the class on top, the attributes on a circle below it (in column order), straight arcs with
 * arrowheads ending at the node boxes. Names are escaped; text widths use Helvetica metrics.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResultRow } from '../store/db.js';
import { contentCacheKey, writeContent } from '../util/cache.js';
import { canonicalJson } from '../util/hash.js';
import type { Block, Section } from './document.js';
import type { Figure } from './figures.js';
import { cachedSvg, textWidth } from './figures.js';
import { noteSvg } from './figure-keys.js';
import { foldGroups } from './summary.js';

export type ArcsByJob = ReadonlyMap<string, readonly (readonly [string, string])[]>;

export interface ModalStructure {
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
    const sets = g.map((r) => (arcs.get(r.job_key) ?? []).map(([p, c]) => `${p}\u0000${c}`).sort());
    if (sets.every((s) => s.length === 0)) continue;
    const count = new Map<string, number>();
    const arcCount = new Map<string, number>();
    for (const s of sets) {
      const key = s.join('\u0001');
      count.set(key, (count.get(key) ?? 0) + 1);
      for (const a of s) arcCount.set(a, (arcCount.get(a) ?? 0) + 1);
    }
    let modal = sets[0]!;
    let best = 0;
    for (const s of sets) {
      const n = count.get(s.join('\u0001'))!;
      if (n > best) {
        best = n;
        modal = s;
      }
    }
    out.push({
      dataset: g[0]!.dataset,
      method: g[0]!.method,
      folds: g.length,
      modalFolds: best,
      arcs: modal.map((a) => {
        const [parent, child] = a.split('\u0000') as [string, string];
        return { parent, child, share: arcCount.get(a)! / g.length };
      }),
      otherArcs: [...arcCount.keys()].filter((a) => !modal.includes(a)).length,
    });
  }
  return out.sort((a, b) => a.dataset.localeCompare(b.dataset) || a.method.localeCompare(b.method));
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
 * @param className the class node's name (drawn on top); the other nodes are the arcs' endpoints in the
 *   order given by `order` (attribute column order) where known.
 */
/**
 * The drawing of one structure, cached like the Vega figures: measuring text loads pdfkit's font metrics
 * (tens of ms), which a report whose structures did not change should not pay. The key holds the inputs and
 * this module's own compiled text, so a change to the drawing code is a new key.
 */
export function structureSvg(s: ModalStructure, className: string | undefined, order: readonly string[]): string {
  const kind = 'structure-svg';
  const key = contentCacheKey(kind, drawingCode(), canonicalJson({ s, className: className ?? null, order }));
  const hit = cachedSvg(kind, key);
  if (hit !== undefined) return hit;
  const svg = drawStructureSvg(s, className, order);
  writeContent(kind, key, svg);
  return noteSvg(kind, key, svg);
}

let drawingCodeMemo: string | undefined;
function drawingCode(): string {
  drawingCodeMemo ??= readFileSync(fileURLToPath(import.meta.url), 'utf8');
  return drawingCodeMemo;
}

function drawStructureSvg(s: ModalStructure, className: string | undefined, order: readonly string[]): string {
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
      return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || a.localeCompare(b);
    });
  const boxW = (n: string): number => textWidth(n, FONT) + 14;
  const boxH = FONT + 10;
  const maxW = Math.max(60, ...attrs.map(boxW));
  const n = attrs.length;
  // Radius: room for the boxes around the circle, at least 140 px.
  const R = Math.max(140, (n * (boxH + 24)) / (2 * Math.PI), (n * maxW * 0.9) / (2 * Math.PI));
  const width = 2 * R + maxW + 40;
  const top = 40 + (cls ? boxH + 70 : 0);
  const cx = width / 2;
  const cy = top + R + boxH / 2;
  const height = cy + R + boxH / 2 + 24;
  const pos = new Map<string, [number, number]>();
  if (cls) pos.set(cls, [cx, 30 + boxH / 2]);
  attrs.forEach((a, i) => {
    // Half a step off the top, so that no attribute sits right under the class.
    const t = -Math.PI / 2 + (Math.PI * (2 * i + 1)) / Math.max(1, n);
    pos.set(a, [cx + R * Math.cos(t), cy + R * Math.sin(t)]);
  });
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width.toFixed(0)}" height="${height.toFixed(0)}" viewBox="0 0 ${width.toFixed(0)} ${height.toFixed(0)}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="20" font-size="15" font-weight="bold">${esc(`${s.dataset}: ${s.method}`)}</text>`,
  ];
  for (const a of s.arcs) {
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
      // 40% of the way from the parent, not the middle: arcs that cross at their middles (a 'X' of two arcs
      // between four nodes on the circle) would put both labels on one spot.
      const mx = sx + 0.4 * (ex - sx);
      const my = sy + 0.4 * (ey - sy);
      const w = textWidth(share, LABEL) + 6;
      parts.push(
        `<rect x="${(mx - w / 2).toFixed(1)}" y="${(my - 8).toFixed(1)}" width="${w.toFixed(1)}" height="15" fill="white" opacity="0.85"/>`,
      );
      parts.push(
        `<text x="${mx.toFixed(1)}" y="${(my + 4).toFixed(1)}" font-size="${LABEL}" text-anchor="middle" fill="#333">${share}</text>`,
      );
    }
  }
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
export const MAX_STRUCTURE_DRAWINGS = 40;

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
