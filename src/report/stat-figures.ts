/**
 * Figures of the added statistics: the all-pairs p-value matrices as heat maps (one panel per adjustment
 * procedure) and the posterior of the Bayesian signed-rank test in the probability simplex (Benavoli et al.
 * 2017, Fig. 6; baycomp `plot_simplex`). Both are Vega-Lite specs rendered to SVG by {@link renderSvg}.
 */
import type { TopLevelSpec } from 'vega-lite';
import { CONFIG, renderSvg, type Figure } from './figures.js';
import { formatP } from './table.js';

interface MatrixPanel {
  readonly title: string;
  /** k × k p-values, NaN on the diagonal. */
  readonly p: readonly (readonly number[])[];
}

/** Heat maps of all-pairs adjusted p-values, one panel per procedure; cells at or below alpha outlined. */
export async function pValueMatrixFigure(
  id: string,
  metricTitle: string,
  methods: readonly string[],
  panels: readonly MatrixPanel[],
  alpha: number,
): Promise<Figure> {
  const values = panels.flatMap((panel) =>
    methods.flatMap((row, i) =>
      methods.map((col, j) => {
        const p = panel.p[i][j];
        return {
          panel: panel.title,
          row,
          col,
          p: Number.isNaN(p) ? null : Math.max(p, 1e-12),
          text: i === j ? '' : formatP(p),
          significant: i !== j && p <= alpha,
        };
      }),
    ),
  );
  const side = Math.max(160, 34 * methods.length);
  const title = `${metricTitle}: all-pairs post-hoc p-values`;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    config: CONFIG,
    data: { values },
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      sort: panels.map((p) => p.title),
      header: { labelFontSize: 12 },
    },
    columns: 2,
    spec: {
      width: side,
      height: side,
      encoding: {
        x: {
          field: 'col',
          type: 'nominal',
          sort: [...methods],
          title: null,
          axis: { labelAngle: -40, grid: false, labelLimit: 220 },
        },
        y: { field: 'row', type: 'nominal', sort: [...methods], title: null, axis: { grid: false, labelLimit: 220 } },
      },
      layer: [
        {
          mark: { type: 'rect', strokeWidth: 2 },
          encoding: {
            color: {
              field: 'p',
              type: 'quantitative',
              title: 'adjusted p',
              scale: { type: 'log', domain: [1e-6, 1], scheme: 'blues', reverse: true, clamp: true },
            },
            stroke: { condition: { test: 'datum.significant', value: '#b00' }, value: null },
          },
        },
        {
          mark: { type: 'text', fontSize: 10 },
          encoding: {
            text: { field: 'text', type: 'nominal' },
            color: { condition: { test: 'datum.p !== null && datum.p < 0.01', value: 'white' }, value: 'black' },
          },
        },
      ],
    },
    resolve: { scale: { color: 'shared' } },
  } as unknown as TopLevelSpec;
  return {
    id,
    title,
    caption: `${metricTitle}: adjusted p-values of every pair of methods (Friedman mean-rank z statistics), one panel per adjustment procedure (${panels.map((p) => p.title).join(', ')}); darker is smaller; cells outlined in red have p ≤ ${alpha}.`,
    svg: await renderSvg(spec),
  };
}

/**
 * Posterior samples of (P(a better), P(rope), P(b better)) in the simplex: a-better at the bottom left,
 * b-better at the bottom right, the rope at the top; lines from the centre to the edge midpoints separate the
 * regions in which each of the three is the most probable.
 */
export async function simplexFigure(
  id: string,
  metricTitle: string,
  a: string,
  b: string,
  samples: readonly (readonly [number, number, number])[],
  probs: { readonly a: number; readonly rope: number; readonly b: number },
  rope: number,
): Promise<Figure> {
  const h = Math.sqrt(3) / 2;
  // Barycentric → plane: a-better (0, 0), b-better (1, 0), rope (½, √3/2).
  const project = (_pa: number, pr: number, pb: number): { x: number; y: number } => ({ x: pb + 0.5 * pr, y: h * pr });
  const points = samples.map(([pa, pr, pb]) => project(pa, pr, pb));
  const c = project(1 / 3, 1 / 3, 1 / 3);
  const edges = [
    { x: 0, y: 0, x2: 1, y2: 0 },
    { x: 1, y: 0, x2: 0.5, y2: h },
    { x: 0.5, y: h, x2: 0, y2: 0 },
    ...[project(0.5, 0, 0.5), project(0.5, 0.5, 0), project(0, 0.5, 0.5)].map((m) => ({
      x: c.x,
      y: c.y,
      x2: m.x,
      y2: m.y,
    })),
  ];
  const labels = [
    { x: 0, y: -0.07, text: `P(${a} better) = ${probs.a.toFixed(3)}` },
    { x: 1, y: -0.07, text: `P(${b} better) = ${probs.b.toFixed(3)}` },
    { x: 0.5, y: h + 0.05, text: `P(rope) = ${probs.rope.toFixed(3)}` },
  ];
  const scale = { domain: [-0.55, 1.55], nice: false, zero: false };
  const yScale = { domain: [-0.15, 1.0], nice: false, zero: false };
  const title = `${metricTitle}: ${a} vs ${b}, Bayesian signed-rank posterior`;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 520,
    height: 300,
    config: { ...CONFIG, view: { stroke: null } },
    layer: [
      {
        // A 2-D histogram of the samples (baycomp draws a hexbin): the SVG holds one rectangle per occupied
        // cell, not one mark per sample, so the figure stays small however many samples are drawn.
        data: { values: points },
        mark: { type: 'rect' },
        encoding: {
          x: { field: 'x', type: 'quantitative', bin: { step: 0.025, extent: [0, 1] }, scale, axis: null },
          x2: { field: 'x2' },
          y: { field: 'y', type: 'quantitative', bin: { step: 0.025, extent: [0, 1] }, scale: yScale, axis: null },
          y2: { field: 'y2' },
          color: {
            aggregate: 'count',
            type: 'quantitative',
            title: 'samples',
            scale: { scheme: 'blues', type: 'sqrt' },
          },
        },
      },
      {
        data: { values: edges },
        mark: { type: 'rule', color: '#e67e22' },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale, axis: null },
          y: { field: 'y', type: 'quantitative', scale: yScale, axis: null },
          x2: { field: 'x2' },
          y2: { field: 'y2' },
        },
      },
      {
        data: { values: labels },
        mark: { type: 'text', fontSize: 12 },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale, axis: null },
          y: { field: 'y', type: 'quantitative', scale: yScale, axis: null },
          text: { field: 'text', type: 'nominal' },
        },
      },
    ],
  } as unknown as TopLevelSpec;
  return {
    id,
    title,
    caption: `${metricTitle}: density of ${samples.length} posterior samples of the Bayesian signed-rank test (rope ±${rope}) of ${a} against ${b} in the probability simplex (Benavoli et al. 2017); each corner is the certainty of one outcome, the orange lines bound the regions where it is the most probable.`,
    svg: await renderSvg(spec),
  };
}
