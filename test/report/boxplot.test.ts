/**
 * The per-fold box plot is a facet grid of at most four columns; with six datasets the last row has two
 * panels. Every panel draws its own y axis and nothing is drawn where there is no panel (an x axis, even
 * one without labels or ticks, sits in the column footers and showed a bare line under the empty cells).
 */
import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { CONFIG, foldBoxes, foldBoxplotFigure } from '../../src/report/figures.js';
import { loadVega } from '../../src/report/vega-load.js';
import { assertValidSvg, walk, type XmlElement } from './xml.js';

function classes(root: XmlElement): string[] {
  const out: string[] = [];
  walk(root, (e) => {
    if (typeof e.attrs['class'] === 'string') out.push(e.attrs['class']);
  });
  return out;
}

describe('fold box plot', () => {
  it('six datasets on four columns: six panels with one y axis each, nothing in the two empty cells', async () => {
    const datasets = ['a', 'b', 'c', 'd', 'e', 'f'];
    const values = datasets.flatMap((dataset, i) =>
      ['nb', 'tan'].flatMap((method, j) =>
        [0, 1, 2].map((f) => ({ dataset, method, value: 0.5 + 0.01 * (i + j + f) })),
      ),
    );
    const fig = await foldBoxplotFigure('folds-accuracy', 'Accuracy', ['nb', 'tan'], values);
    const c = classes(assertValidSvg(fig.svg));
    const count = (name: string) => c.filter((x) => x.split(' ').includes(name)).length;
    expect(count('role-axis-domain')).toBe(6);
    expect(count('role-axis-label')).toBeGreaterThan(0);
    expect(c.some((x) => x.includes('column-footer') || x.includes('column_footer'))).toBe(false);
    // Two boxes (a rect layer each way) per panel: 6 panels × 2 methods.
    expect(count('child_layer_2_marks')).toBe(6);
  });

  it("the methods in the order given (not alphabetical) and the panels in the datasets' alphabetical order", async () => {
    const methods = ['tan', 'nb', 'aode'];
    const values = ['zoo', 'car', 'iris'].flatMap((dataset, i) =>
      methods.flatMap((method, j) => [0, 1].map((f) => ({ dataset, method, value: 0.5 + 0.01 * (i + j + f) }))),
    );
    const svg = (await foldBoxplotFigure('folds-accuracy', 'Accuracy', methods, values)).svg;
    // The panels' headers, the legend's labels, and in a panel the boxes from left to right.
    const texts = [...svg.matchAll(/<text[^>]*>([a-z]+)<\/text>/g)].map((m) => m[1]);
    expect(texts.filter((t) => ['zoo', 'car', 'iris'].includes(t))).toEqual(['car', 'iris', 'zoo']);
    expect(texts.filter((t) => methods.includes(t))).toEqual(methods);
    const bars = [...svg.matchAll(/aria-label="method: (\w+);[^"]*dataset: car;[^"]*"[^>]*? d="M([\d.]+),/g)];
    expect(bars.sort((a, b) => Number(a[2]) - Number(b[2])).map((m) => m[1])).toEqual(methods);
  });

  it("the boxes are R's type 7 quartiles: quantile(c(.1, .4, .35, .8, .9, .2), c(.25, .5, .75)) is 0.2375, 0.375, 0.7", () => {
    const values = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2].map((value) => ({ dataset: 'd', method: 'm', value }));
    // A value that is not a number is left out, as Vega's aggregate leaves it out.
    const boxes = foldBoxes([...values, { dataset: 'd', method: 'm', value: Number.NaN }]);
    expect(boxes).toHaveLength(1);
    const { dataset, method, min, q1, median, q3, max } = boxes[0];
    expect([dataset, method, min, max]).toEqual(['d', 'm', 0.1, 0.9]);
    // R prints them to 7 digits; in doubles 0.4 + 0.75 × (0.8 − 0.4) is 0.7000000000000001.
    expect(q1).toBeCloseTo(0.2375, 15);
    expect(median).toBeCloseTo(0.375, 15);
    expect(q3).toBeCloseTo(0.7, 15);
  });

  it("draws what Vega-Lite's own boxplot mark draws from the fold values: the same whiskers, boxes and medians, to the bit", async () => {
    // Three datasets, three methods, ten folds; ties, and boxes of no height (every fold alike) among them.
    const methods = ['nb', 'tan', 'aode'];
    let x = 0.3;
    const values = ['a', 'b', 'c'].flatMap((dataset, i) =>
      methods.flatMap((method, j) =>
        Array.from({ length: 10 }, () => {
          x = (x * 7.13 + 0.17) % 1;
          const value = i === 2 && j === 1 ? 0.9 : Math.round((0.5 + 0.3 * x) * 40) / 40;
          return { dataset, method, value };
        }),
      ),
    );
    const ours = await foldBoxplotFigure('folds-accuracy', 'Accuracy', methods, values);
    const [vega, { compile }] = await loadVega();
    const theirs: TopLevelSpec = {
      title: 'Accuracy per fold, by dataset',
      config: CONFIG,
      data: { values: values.map((v) => ({ ...v })) },
      facet: { field: 'dataset', type: 'nominal', title: null, sort: ['a', 'b', 'c'] },
      columns: 3,
      resolve: { scale: { y: 'independent' } },
      spec: {
        width: 120,
        height: 150,
        mark: { type: 'boxplot', extent: 'min-max', size: 18 },
        encoding: {
          x: { field: 'method', type: 'nominal', title: null, sort: methods, axis: null },
          y: { field: 'value', type: 'quantitative', title: null, scale: { zero: false } },
          color: {
            field: 'method',
            type: 'nominal',
            sort: methods,
            title: 'method',
            legend: { orient: 'top', columns: 2 },
          },
        },
      },
    } as TopLevelSpec;
    const view = new vega.View(vega.parse(compile(theirs).spec), { renderer: 'none' });
    const reference = await view.toSVG();
    view.finalize();
    // Per layer (whiskers below and above, boxes, medians): every mark's position, size and colour.
    const geometry = (svg: string): string[][] => {
      const root = assertValidSvg(svg);
      const out: string[][] = [[], [], [], []];
      walk(root, (e) => {
        const layer = /child_layer_(\d)_marks/.exec(String(e.attrs['class'] ?? ''))?.[1];
        if (layer === undefined) return;
        walk(e, (m) => {
          if (m.name === 'path' || m.name === 'line')
            out[Number(layer)].push(
              ['d', 'transform', 'y2', 'fill', 'stroke'].map((a) => String(m.attrs[a])).join(' '),
            );
        });
      });
      return out;
    };
    const want = geometry(reference);
    expect(want.map((l) => l.length)).toEqual([9, 9, 9, 9]);
    expect(geometry(ours.svg)).toEqual(want);
  });
});
