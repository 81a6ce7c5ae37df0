/**
 * The per-fold box plot is a facet grid of at most four columns; with six datasets the last row has two
 * panels. Every panel draws its own y axis and nothing is drawn where there is no panel (an x axis, even
 * one without labels or ticks, sits in the column footers and showed a bare line under the empty cells).
 */
import { describe, expect, it } from 'vitest';
import { foldBoxplotFigure } from '../../src/report/figures.js';
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
});
