/**
 * Report figures as standalone SVG, rendered in Node without a browser: each figure is a Vega-Lite spec,
 * compiled to Vega and rendered by Vega's headless SVG renderer (`View.toSVG`). Data values (dataset and
 * method names) reach the SVG only through Vega's text marks, which escape them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { contentCacheKey, readContent, writeContent } from '../util/cache.js';
import { quantile } from '../stats/bootstrap.js';
import { canonicalJson } from '../util/hash.js';
import { cellKey } from '../util/keys.js';
import { packageRoot } from '../util/paths.js';
import { noteSvg, reusedSvg } from './figure-keys.js';
import { drawWithTemplate, type FigureSlots, type VegaModule } from './figure-views.js';
import { loadVega } from './vega-load.js';

export interface Figure {
  /** File stem for figures/<id>.svg. */
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  readonly svg: string;
}

const FONT = 'Helvetica, Arial, sans-serif';
// The HTML report's body text is 14 px; figure text is no smaller (figures are shown at their own size).
export const CONFIG = {
  font: FONT,
  background: 'white',
  view: { stroke: '#ddd' },
  axis: { labelFontSize: 14, titleFontSize: 14, grid: true, gridColor: '#eee' },
  legend: { labelFontSize: 14, titleFontSize: 14, labelLimit: 300 },
  header: { labelFontSize: 14, titleFontSize: 14 },
  title: { fontSize: 15, anchor: 'start' as const },
};

/**
 * Text widths from Helvetica's font metrics (the AFM tables pdfkit ships) instead of Vega's no-canvas estimate
 * of 0.8 × font size per character, which made every figure's bounds (and so the SVG) far wider and taller
 * than its text and left the plots small and off-centre when shown at a fixed width.
 */
// The AFM tables pdfkit ships, as pdfkit reads them (glyph per character code, advance per glyph, kerning per
// glyph pair), extracted once per pdfkit version and kept as a content entry (dist/cache holds the installed
// version's, made by `npm run build`), so measuring text loads neither pdfkit nor its font data.
interface AfmMetrics {
  readonly glyphOf: Record<string, string>;
  readonly widths: Record<string, number>;
  readonly kern: Record<string, number>;
}
const metrics: { regular?: AfmMetrics; bold?: AfmMetrics } = {};

/** The key of the Helvetica metrics entry: the installed pdfkit's version. */
function textMetricsKey(): string {
  return contentCacheKey('text-metrics', installedVersions(['pdfkit']), 'Helvetica,Helvetica-Bold');
}

/** Helvetica and Helvetica-Bold metrics from pdfkit's own font objects (pdfkit loaded here). */
function extractTextMetrics(): { regular: AfmMetrics; bold: AfmMetrics } {
  type Afm = {
    characterToGlyph(c: number): string;
    glyphWidths: Record<string, number>;
    kernPairs: Record<string, number>;
  };
  type Doc = { font(name: string): Doc; _font: { font: Afm } };
  const PDFDocument = createRequire(import.meta.url)('pdfkit') as new (o: { autoFirstPage: boolean }) => Doc;
  const doc = new PDFDocument({ autoFirstPage: false });
  const of = (name: string): AfmMetrics => {
    const afm = doc.font(name)._font.font;
    const glyphOf: Record<string, string> = {};
    for (let c = 0; c < 0x10000; c++) {
      const g = afm.characterToGlyph(c);
      if (g !== '.notdef') glyphOf[c] = g;
    }
    return { glyphOf, widths: { ...afm.glyphWidths }, kern: { ...afm.kernPairs } };
  };
  return { regular: of('Helvetica'), bold: of('Helvetica-Bold') };
}

function metricsOf(bold: boolean): AfmMetrics {
  if (!metrics.regular || !metrics.bold) {
    const key = textMetricsKey();
    const hit = readContent('text-metrics', key);
    let m: { regular: AfmMetrics; bold: AfmMetrics } | undefined;
    try {
      m = hit === undefined ? undefined : (JSON.parse(hit) as { regular: AfmMetrics; bold: AfmMetrics });
    } catch {
      m = undefined; // damaged: extracted afresh
    }
    if (!m?.regular?.widths || !m.bold?.widths) {
      m = extractTextMetrics();
      writeContent('text-metrics', key, JSON.stringify(m));
    }
    metrics.regular = m.regular;
    metrics.bold = m.bold;
  }
  return bold ? metrics.bold : metrics.regular;
}

/**
 * Width in px of text in Helvetica at `size` px: pdfkit's `doc.font(…).fontSize(size).widthOfString(text)`,
 * operation for operation (each glyph's advance plus its kerning with the next, summed in order, scaled by
 * size / 1000, then pdfkit's character-spacing and horizontal-scaling terms), so every figure is laid out to
 * the same bits (tested against pdfkit).
 */
export function textWidth(text: string, size: number, bold = false): number {
  const memo = bold ? advanceMemo.bold : advanceMemo.regular;
  let width = memo.get(text);
  if (width === undefined) {
    const m = metricsOf(bold);
    width = 0;
    for (let i = 0; i < text.length; i++) {
      const left = m.glyphOf[text.charCodeAt(i)] ?? '.notdef';
      const right = i + 1 < text.length ? (m.glyphOf[text.charCodeAt(i + 1)] ?? '.notdef') : undefined;
      width += (m.widths[left] || 0) + (right === undefined ? 0 : m.kern[`${left}\0${right}`] || 0);
    }
    if (memo.size >= ADVANCE_MEMO_SIZE) memo.clear();
    memo.set(text, width);
  }
  return ((width * (size / 1000) + 0 * (text.length - 1)) * 100) / 100;
}
// A text's summed advances and kerning (in font units, before the size is applied), per text and weight: a
// figure measures its labels several times over (bounds, overlap, layout), and a report the same names in
// figure after figure. The same sum of the same numbers, so the same width to the bit. Bounded for a
// long-lived process.
const ADVANCE_MEMO_SIZE = 20_000;
const advanceMemo = { regular: new Map<string, number>(), bold: new Map<string, number>() };
/** Vega's text measure replaced by {@link textWidth}; installed once, when vega is first loaded. */
function useHelveticaMetrics(vega: unknown): void {
  // vega re-exports vega-scenegraph's textMetrics at run time; its type declarations leave it out.
  const { textMetrics } = vega as { textMetrics: { width: (item: never, text: unknown) => number } };
  textMetrics.width = (
    item: { fontSize?: number; fontWeight?: string | number; limit?: number },
    text: unknown,
  ): number => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const s = text == null ? '' : String(text).trim();
    if (size <= 0 || s === '') return 0;
    return textWidth(s, size, item.fontWeight === 'bold' || Number(item.fontWeight) >= 600);
  };
}

/**
 * Render a Vega-Lite spec to an SVG string. Rendering is deterministic, so an SVG is cached under the sha256
 * of the spec (data included) and of the vega and vega-lite versions: a report whose figures did not
 * change renders nothing, and vega (about 0.05 s of CPU to load from dist/vega/vega.cjs, vega-load.ts) is loaded only when a
 * figure did change.
 */
export async function renderSvg(spec: TopLevelSpec, template?: FigureTemplate): Promise<string> {
  const kind = 'vega-svg';
  const key = contentCacheKey(kind, VEGA_VERSIONS, TEXT_METRICS, canonicalJson(spec));
  const hit = cachedSvg(kind, key);
  if (hit !== undefined) return hit;
  const svg = await renderSvgNow(spec, template);
  writeContent(kind, key, svg);
  return noteSvg(kind, key, svg);
}

/**
 * A whole SVG cached under (kind, key), or undefined on a miss (or a damaged entry, drawn afresh): from the
 * cache folder, else from the previous report in the same folder (figure-keys.ts).
 */
function cachedSvg(kind: string, key: string): string | undefined {
  const hit = readContent(kind, key);
  if (hit?.startsWith('<svg') && hit.trimEnd().endsWith('</svg>')) return noteSvg(kind, key, hit);
  const reused = reusedSvg(kind, key);
  if (reused === undefined) return undefined;
  writeContent(kind, key, reused);
  return noteSvg(kind, key, reused);
}

/**
 * The installed versions of some packages ("vega@6.4.0,vega-lite@6.4.1"), for cache keys: a new version is a
 * new key. Not every package exports its package.json, so it is read beside the resolved entry point.
 */
export function installedVersions(packages: readonly string[]): string {
  return packages.map(installedVersion).join(',');
}
// Read once per package and process: a report asks for the same versions once per figure.
const versionMemo = new Map<string, string>();
function installedVersion(p: string): string {
  let v = versionMemo.get(p);
  if (v === undefined) {
    const root = packageRoot(dirname(createRequire(import.meta.url).resolve(p)));
    v = `${p}@${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}`;
    versionMemo.set(p, v);
  }
  return v;
}
const VEGA_VERSIONS = installedVersions(['vega', 'vega-lite']);
// How text is measured decides every figure's layout, so it is part of the cache key.
const TEXT_METRICS = 'helvetica-afm';

/**
 * A figure of a kind drawn by the kind's one view (figure-views.ts): `spec` is `specOf(slots)`, and every
 * figure of the kind is made by the same `specOf`.
 */
interface FigureTemplate {
  readonly kind: string;
  readonly specOf: (slots: FigureSlots) => TopLevelSpec;
  readonly slots: FigureSlots;
}

/** Render without the cache (vega and vega-lite loaded on first use). */
async function renderSvgNow(spec: TopLevelSpec, template?: FigureTemplate): Promise<string> {
  const [vega, { compile }] = await loadVega();
  const { View, parse } = vega;
  useHelveticaMetrics(vega);
  if (template !== undefined) {
    const { kind, specOf, slots } = template;
    const svg = await drawWithTemplate(kind, specOf, slots, vega as unknown as VegaModule, compile, VEGA_VERSIONS);
    if (svg !== undefined) return hoverTitles(svg);
  }
  const vg = compile(spec).spec;
  const view = new View(parse(vg), { renderer: 'none' });
  try {
    return hoverTitles(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/**
 * Vega describes every data mark in an aria-label ("…; dataset: car") but browsers show only <title> on
 * hover: each labelled mark gets its label as a <title> child, so every point names its dataset.
 */
export function hoverTitles(svg: string): string {
  return svg.replace(
    /<(path|rect|line)(\s[^>]*?aria-label="([^"]*)"[^>]*?role="graphics-symbol"[^>]*?)\/>/g,
    (_m, tag: string, attrs: string, label: string) => `<${tag}${attrs}><title>${label}</title></${tag}>`,
  );
}

function niceDomain(values: readonly number[]): [number, number] {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (!(hi > lo)) {
    lo -= 0.5 * Math.max(Math.abs(lo), 1e-3);
    hi += 0.5 * Math.max(Math.abs(hi), 1e-3);
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

interface ScatterPoint {
  readonly dataset: string;
  /** Method a's value (vertical axis). */
  readonly a: number;
  /** Method b's value (horizontal axis). */
  readonly b: number;
}

/** Method a against method b, one point per dataset, with the diagonal a = b (HDP paper Figs 6a and 8). */
export async function scatterFigure(
  id: string,
  a: string,
  b: string,
  metricTitle: string,
  higherIsBetter: boolean,
  points: readonly ScatterPoint[],
): Promise<Figure> {
  const domain = niceDomain(points.flatMap((p) => [p.a, p.b]));
  const title = `${metricTitle}: ${a} vs ${b}`;
  const slots: FigureSlots = {
    texts: { title, x: `${b} (${metricTitle})`, y: `${a} (${metricTitle})` },
    ranges: { domain },
    numbers: {},
    data: {
      line: [{ v: domain[0] }, { v: domain[1] }],
      points: points.map((p) => ({ dataset: p.dataset, a: p.a, b: p.b })),
    },
  };
  const side = higherIsBetter ? 'above' : 'below';
  return {
    id,
    title,
    caption: `${metricTitle} of ${a} (vertical) against ${b} (horizontal), one point per dataset (${points.length}); points ${side} the diagonal are datasets on which ${a} is better.`,
    svg: await renderSvg(scatterSpec(slots), { kind: 'scatter', specOf: scatterSpec, slots }),
  };
}

/** The Vega-Lite spec of a scatter figure (scatterFigure): every scatter figure differs only in its slots. */
export function scatterSpec(slots: FigureSlots): TopLevelSpec {
  const { title, x, y } = slots.texts;
  const domain = [...slots.ranges.domain];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 340,
    height: 340,
    config: CONFIG,
    layer: [
      {
        data: { values: slots.data.line as object[] },
        mark: { type: 'line', color: '#999', strokeDash: [4, 3] },
        encoding: {
          x: { field: 'v', type: 'quantitative', scale: { domain, zero: false, nice: false } },
          y: { field: 'v', type: 'quantitative', scale: { domain, zero: false, nice: false } },
        },
      },
      {
        data: { values: slots.data.points as object[] },
        mark: { type: 'point', filled: true, size: 45, color: '#1f77b4', opacity: 0.85 },
        encoding: {
          x: { field: 'b', type: 'quantitative', title: x, scale: { domain, zero: false, nice: false } },
          y: { field: 'a', type: 'quantitative', title: y, scale: { domain, zero: false, nice: false } },
          tooltip: [{ field: 'dataset', type: 'nominal' }],
        },
      },
    ],
  };
}

export interface SweepPoint {
  /** Series: the methods that differ only in the swept parameter. */
  readonly series: string;
  readonly x: number | string;
  readonly wins: number;
  readonly losses: number;
}

/** Wins and losses against the method at the reference value, as the swept parameter varies (HDP Figs 4, 5, 6b). */
export async function winLossSweepFigure(
  id: string,
  parameter: string,
  reference: unknown,
  xTitle: string,
  metricTitle: string,
  points: readonly SweepPoint[],
): Promise<Figure> {
  const numeric = points.every((p) => typeof p.x === 'number');
  const xs = points.map((p) => p.x).filter((x): x is number => typeof x === 'number');
  const logScale = numeric && xs.length > 0 && Math.min(...xs) > 0 && Math.max(...xs) / Math.min(...xs) >= 100;
  const values = points.flatMap((p) => [
    { series: p.series, x: p.x, outcome: 'wins', count: p.wins },
    { series: p.series, x: p.x, outcome: 'losses', count: p.losses },
  ]);
  const title = `${metricTitle}: wins and losses against ${parameter} = ${String(reference)}`;
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 420,
    height: 260,
    config: CONFIG,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: numeric
        ? { field: 'x', type: 'quantitative', title: xTitle, scale: logScale ? { type: 'log' } : { zero: false } }
        : { field: 'x', type: 'ordinal', title: xTitle },
      y: { field: 'count', type: 'quantitative', title: 'datasets', axis: { tickMinStep: 1, format: 'd' } },
      color: { field: 'series', type: 'nominal', title: 'method' },
      strokeDash: {
        field: 'outcome',
        type: 'nominal',
        title: 'outcome',
        sort: ['wins', 'losses'],
        scale: {
          domain: ['wins', 'losses'],
          range: [
            [1, 0],
            [5, 3],
          ],
        },
        legend: {
          symbolType: 'stroke',
          symbolStrokeWidth: 2,
          symbolSize: 300,
          encode: { symbols: { update: { stroke: { value: '#333' } } } },
        } as Record<string, unknown>,
      },
    },
  };
  return {
    id,
    title,
    caption: `${metricTitle}: number of datasets on which each method wins (solid) and loses (dashed) against the same method with ${parameter} = ${String(reference)}, for each value of ${xTitle}.`,
    svg: await renderSvg(spec),
  };
}

export interface CurvePoint {
  readonly dataset: string;
  readonly method: string;
  /** Mean training-set size. */
  readonly nTrain: number;
  readonly value: number;
}

/** Metric against training-set size per dataset and method (HDP Fig 7). */
export async function learningCurveFigure(
  id: string,
  metricTitle: string,
  points: readonly CurvePoint[],
): Promise<Figure> {
  const datasets = [...new Set(points.map((p) => p.dataset))];
  const title = `${metricTitle} against training-set size`;
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    config: CONFIG,
    data: { values: points.map((p) => ({ ...p })) },
    facet: { field: 'dataset', type: 'nominal', title: null, sort: datasets },
    columns: Math.min(3, datasets.length),
    spec: {
      width: 240,
      height: 180,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'nTrain', type: 'quantitative', title: 'training rows', scale: { zero: false } },
        y: { field: 'value', type: 'quantitative', title: metricTitle, scale: { zero: false } },
        color: { field: 'method', type: 'nominal', title: 'method' },
      },
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
  };
  return {
    id,
    title,
    caption: `${metricTitle} (mean over the runs at each size) against the number of training rows, per dataset and method.`,
    svg: await renderSvg(spec),
  };
}

// The critical-difference diagram's width in pixels.
const CD_WIDTH = 760;

/**
 * Critical-difference diagram (Demšar 2006, Fig. 1): the methods on the mean-rank axis (rank 1 at the left),
 * the critical difference as a bar above the axis, and thick bars joining groups of methods whose mean ranks
 * differ by less than the CD. Geometry is computed here; Vega-Lite draws it with unscaled rule and text marks.
 */
export async function cdFigure(
  id: string,
  metricTitle: string,
  methods: readonly string[],
  meanRanks: readonly number[],
  cd: number,
  groups: readonly (readonly number[])[],
  procedureLabel: string,
): Promise<Figure> {
  const slots = cdSlots({ metricTitle, methods, meanRanks, cd, groups, procedureLabel });
  const title = slots.texts.title;
  return {
    id,
    title,
    caption: `${metricTitle}: mean ranks (1 = best) of the ${methods.length} methods; methods joined by a thick bar do not differ significantly (${procedureLabel}, CD = ${cd.toFixed(3)}).`,
    svg: await renderSvg(cdSpec(slots), { kind: 'cd', specOf: cdSpec, slots }),
  };
}

/** What a critical-difference diagram shows (cdFigure's arguments). */
interface CdDiagram {
  readonly metricTitle: string;
  readonly methods: readonly string[];
  readonly meanRanks: readonly number[];
  readonly cd: number;
  /** Groups of methods (indices) whose mean ranks do not differ significantly. */
  readonly groups: readonly (readonly number[])[];
  readonly procedureLabel: string;
}

/** A critical-difference diagram's slots (cdFigure): its geometry in pixels, computed here. */
export function cdSlots({ metricTitle, methods, meanRanks, cd, groups, procedureLabel }: CdDiagram): FigureSlots {
  const k = methods.length;
  const margin = 220;
  const axisY = 44;
  const span = CD_WIDTH - 2 * margin;
  const x = (r: number): number => margin + ((r - 1) / Math.max(1, k - 1)) * span;
  const rules: { x: number; y: number; x2: number; y2: number; w: number; c: string }[] = [];
  const texts: { x: number; y: number; text: string; side: 'left' | 'right' | 'center'; size: number }[] = [];
  rules.push({ x: x(1), y: axisY, x2: x(k), y2: axisY, w: 1, c: '#000' });
  for (let r = 1; r <= k; r++) {
    rules.push({ x: x(r), y: axisY - 5, x2: x(r), y2: axisY, w: 1, c: '#000' });
    // Drawn on an alphabetic baseline (the center layer below) 3 px above the tick's top, so no tick
    // crosses its number (with a middle baseline the digit's lower half sat on the tick).
    texts.push({ x: x(r), y: axisY - 8, text: String(r), side: 'center', size: 11 });
  }
  // CD bar, clamped to the axis.
  const cdEnd = Math.min(k, 1 + cd);
  rules.push({ x: x(1), y: 14, x2: x(cdEnd), y2: 14, w: 2, c: '#000' });
  rules.push({ x: x(1), y: 10, x2: x(1), y2: 18, w: 1, c: '#000' });
  rules.push({ x: x(cdEnd), y: 10, x2: x(cdEnd), y2: 18, w: 1, c: '#000' });
  texts.push({ x: x(cdEnd) + 6, y: 19, text: `CD = ${cd.toFixed(3)}`, side: 'left', size: 11 });

  const groupTop = axisY + 10;
  groups.forEach((g, i) => {
    const rs = g.map((j) => meanRanks[j]);
    const y = groupTop + i * 7;
    rules.push({ x: x(Math.min(...rs)) - 4, y, x2: x(Math.max(...rs)) + 4, y2: y, w: 4, c: '#444' });
  });
  const order = [...meanRanks.keys()].sort((a, b) => meanRanks[a] - meanRanks[b] || a - b);
  const half = Math.ceil(k / 2);
  const labelTop = groupTop + groups.length * 7 + 12;
  order.forEach((j, pos) => {
    const left = pos < half;
    const row = left ? pos : k - 1 - pos;
    const y = labelTop + row * 22;
    const xr = x(meanRanks[j]);
    const xEnd = left ? margin - 12 : CD_WIDTH - margin + 12;
    rules.push({ x: xr, y: axisY, x2: xr, y2: y, w: 1, c: '#555' });
    rules.push({ x: xr, y, x2: xEnd, y2: y, w: 1, c: '#555' });
    texts.push({
      x: left ? xEnd - 4 : xEnd + 4,
      y: y + 4,
      text: `${methods[j]} (${meanRanks[j].toFixed(2)})`,
      side: left ? 'right' : 'left',
      size: 11,
    });
  });
  const height = labelTop + half * 22 + 6;
  return {
    texts: { title: `${metricTitle}: critical-difference diagram (${procedureLabel})` },
    ranges: {},
    numbers: { height },
    data: {
      rules,
      left: texts.filter((t) => t.side === 'left'),
      right: texts.filter((t) => t.side === 'right'),
      center: texts.filter((t) => t.side === 'center'),
    },
  };
}

/**
 * The Vega-Lite spec of a critical-difference diagram (cdFigure): its title, its height, and its rules and
 * texts (left-aligned, right-aligned and centred) as data in pixels; every diagram differs only in these slots.
 */
export function cdSpec(slots: FigureSlots): TopLevelSpec {
  const textLayer = (side: 'left' | 'right' | 'center'): Record<string, unknown> => ({
    data: { values: slots.data[side] },
    mark: {
      type: 'text',
      align: side,
      ...(side === 'center' ? { baseline: 'alphabetic' } : {}),
      fontSize: 14,
      font: FONT,
    },
    encoding: {
      x: { field: 'x', type: 'quantitative', scale: null },
      y: { field: 'y', type: 'quantitative', scale: null },
      text: { field: 'text', type: 'nominal' },
    },
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: slots.texts.title,
    width: CD_WIDTH,
    height: slots.numbers.height,
    config: { ...CONFIG, view: { stroke: null } },
    layer: [
      {
        data: { values: slots.data.rules },
        mark: { type: 'rule' },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: null },
          y: { field: 'y', type: 'quantitative', scale: null },
          x2: { field: 'x2' },
          y2: { field: 'y2' },
          strokeWidth: { field: 'w', type: 'quantitative', scale: null, legend: null },
          color: { field: 'c', type: 'nominal', scale: null, legend: null },
        },
      },
      textLayer('left'),
      textLayer('right'),
      textLayer('center'),
    ],
  } as unknown as TopLevelSpec;
}

interface FoldValue {
  readonly dataset: string;
  readonly method: string;
  readonly value: number;
}

/** One box of the fold box plot: a dataset × method's fold values summarized. */
interface FoldBox {
  readonly dataset: string;
  readonly method: string;
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly max: number;
}

/**
 * Per dataset × method (in that order of first appearance), the minimum, quartiles, median and maximum of the
 * finite values, the quartiles and median as R's type 7 (Vega's own box plot computes the same).
 */
export function foldBoxes(values: readonly FoldValue[]): FoldBox[] {
  const groups = new Map<string, { dataset: string; method: string; v: number[] }>();
  for (const { dataset, method, value } of values) {
    if (!Number.isFinite(value)) continue;
    const k = cellKey(dataset, method);
    let g = groups.get(k);
    if (g === undefined) {
      g = { dataset, method, v: [] };
      groups.set(k, g);
    }
    g.v.push(value);
  }
  return [...groups.values()].map(({ dataset, method, v }) => {
    const s = Float64Array.from(v).sort();
    return {
      dataset,
      method,
      min: s[0],
      q1: quantile(s, 0.25),
      median: quantile(s, 0.5),
      q3: quantile(s, 0.75),
      max: s[s.length - 1],
    };
  });
}

/**
 * Whether some dataset × method has two fold values or more. Where none has, each box would be one value (a
 * single train/test split): the report's section and the explorer's cell page then draw no box plot.
 */
export function someBoxOfSeveralFolds(values: readonly FoldValue[]): boolean {
  const cells = new Set<string>();
  return values.some((v) => {
    const cell = cellKey(v.dataset, v.method);
    if (cells.has(cell)) return true;
    cells.add(cell);
    return false;
  });
}

/**
 * Per-fold values as box plots, one small panel per dataset with its own vertical scale, methods side by
 * side (mlr3's autoplot of a benchmark): the spread over folds that the mean ± sd tables summarize. The boxes
 * are summarized here and drawn as whisker rules, a bar and a median tick (what Vega-Lite's `boxplot` mark
 * draws): Vega then lays out one row per box instead of aggregating every fold value in each panel, a
 * fifth to a third less CPU for the figure (docs/performance.md), and a box's hover text names its numbers.
 */
export async function foldBoxplotFigure(
  id: string,
  metricTitle: string,
  methods: readonly string[],
  values: readonly FoldValue[],
): Promise<Figure> {
  const slots = boxplotSlots(metricTitle, methods, values);
  const title = slots.texts.title;
  return {
    id,
    title,
    caption: `${metricTitle} of every fold (and repeat): per dataset a box per method from the minimum to the maximum, with the quartiles and the median; each panel has its own scale.`,
    svg: await renderSvg(boxplotSpec(slots), { kind: 'fold-boxplot', specOf: boxplotSpec, slots }),
  };
}

/** A fold box plot's slots (foldBoxplotFigure): the boxes summarized here, and the layout. */
export function boxplotSlots(
  metricTitle: string,
  methods: readonly string[],
  values: readonly FoldValue[],
): FigureSlots {
  const boxes = foldBoxes(values);
  const datasets = [...new Set(boxes.map((b) => b.dataset))].sort();
  // The panels in the datasets' order and the methods in theirs, each box carrying its two positions: sorted
  // by a field, the order is data, so every box plot has one spec (figure-views.ts). A method not listed
  // comes after the listed ones, as Vega-Lite places a value its sort list does not name.
  const methodIndex = new Map(methods.map((m, i) => [m, i]));
  const datasetIndex = new Map(datasets.map((d, i) => [d, i]));
  return {
    texts: { title: `${metricTitle} per fold, by dataset` },
    ranges: {},
    numbers: { child_width: Math.max(120, 34 * methods.length), columns: Math.min(4, datasets.length) },
    data: {
      boxes: boxes.map((b) => ({
        ...b,
        methodOrder: methodIndex.get(b.method) ?? methods.length,
        datasetOrder: datasetIndex.get(b.dataset)!,
      })),
    },
  };
}

/**
 * The Vega-Lite spec of a fold box plot (foldBoxplotFigure): its title, a panel's width, the number of columns
 * and the boxes (each with its method's and its dataset's position); every box plot differs only in these.
 */
export function boxplotSpec(slots: FigureSlots): TopLevelSpec {
  const y = (field: keyof FoldBox): Record<string, unknown> => ({
    field,
    type: 'quantitative',
    title: null,
    scale: { zero: false },
  });
  const byMethod = { field: 'methodOrder', op: 'min' };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: slots.texts.title,
    config: CONFIG,
    data: { values: slots.data.boxes },
    facet: { field: 'dataset', type: 'nominal', title: null, sort: { field: 'datasetOrder', op: 'min' } },
    columns: slots.numbers.columns,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: slots.numbers.child_width,
      height: 150,
      encoding: {
        // No x axis: it would carry neither labels nor ticks (the legend names the methods), and a faceted
        // x axis sits in the column footers, so a last row with fewer panels showed its bare domain line
        // under the empty cells.
        x: { field: 'method', type: 'nominal', title: null, sort: byMethod, axis: null },
      },
      // The box names the dataset, the method and the five numbers on hover; the whiskers and the median
      // line carry no text of their own (aria: false), so each number is in the SVG once.
      layer: [
        { mark: { type: 'rule', color: 'black', aria: false }, encoding: { y: y('min'), y2: { field: 'q1' } } },
        { mark: { type: 'rule', color: 'black', aria: false }, encoding: { y: y('q3'), y2: { field: 'max' } } },
        {
          mark: { type: 'bar', size: 18 },
          encoding: {
            y: y('q1'),
            y2: { field: 'q3' },
            tooltip: [
              { field: 'dataset', type: 'nominal' },
              { field: 'method', type: 'nominal' },
              ...(['max', 'q3', 'median', 'q1', 'min'] as const).map((f) => ({ field: f, type: 'quantitative' })),
            ],
            color: {
              field: 'method',
              type: 'nominal',
              sort: byMethod,
              title: 'method',
              legend: { orient: 'top', columns: 2 },
            },
          },
        },
        {
          // White on the box; in the box's colour where the box has no height (q1 = q3), so it stays visible.
          mark: { type: 'tick', size: 18, aria: false },
          encoding: {
            y: y('median'),
            color: {
              condition: { test: 'datum.q1 === datum.q3', field: 'method', type: 'nominal', sort: byMethod },
              value: 'white',
            },
          },
        },
      ],
    },
  } as unknown as TopLevelSpec;
}
