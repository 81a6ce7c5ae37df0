import { describe, expect, it } from 'vitest';
import type { ReportDoc } from '../../src/report/build.js';
import { hoverTitles, scatterFigure, textWidth } from '../../src/report/figures.js';
import { renderHtml } from '../../src/report/render.js';
import { hubNode, modalStructures, structureSvg } from '../../src/report/structures.js';
import type { ResultRow } from '../../src/store/db.js';

function row(job: string, dataset: string, method: string, fold: number): ResultRow {
  return { job_key: job, dataset, method, repeat: 0, fold } as unknown as ResultRow;
}

describe('learned structures', () => {
  // Four folds of TAN on one dataset: folds 0, 1, 3 learn a→b, fold 2 learns b→a instead.
  const rows = [0, 1, 2, 3].map((f) => row(`k${f}`, 'd', 'tan', f));
  const base: [string, string][] = [
    ['y', 'a'],
    ['y', 'b'],
    ['y', 'c'],
  ];
  const arcs = new Map<string, [string, string][]>([
    ['k0', [...base, ['a', 'b'], ['b', 'c']]],
    ['k1', [...base, ['a', 'b'], ['b', 'c']]],
    ['k2', [...base, ['b', 'a'], ['b', 'c']]],
    ['k3', [...base, ['a', 'b'], ['a', 'c']]],
  ]);
  it('the modal arc set over folds, each arc with its share of folds', () => {
    const [m] = modalStructures(rows, arcs);
    expect(m.folds).toBe(4);
    expect(m.modalFolds).toBe(2);
    const share = Object.fromEntries(m.arcs.map((a) => [`${a.parent}->${a.child}`, a.share]));
    expect(share).toEqual({ 'y->a': 1, 'y->b': 1, 'y->c': 1, 'a->b': 0.75, 'b->c': 0.75 });
    expect(m.otherArcs).toBe(2); // b→a and a→c
    expect(hubNode(m)).toBe('y');
  });
  it('orders the structures by code units, the same on every machine (not by the locale: ä, Zoo, adult)', () => {
    // localeCompare gives adult, ä, Zoo in English and adult, Zoo, ä in Swedish; code units give Zoo, adult, ä.
    const cells = ['ä', 'adult', 'Zoo'].flatMap((d, i) => [row(`c${i}`, d, 'tan', 0), row(`e${i}`, d, 'Nb', 0)]);
    const some = new Map(cells.map((r) => [r.job_key, [['y', 'a']] as [string, string][]]));
    const order = modalStructures(cells, some).map((m) => `${m.dataset}/${m.method}`);
    expect(order).toEqual(['Zoo/Nb', 'Zoo/tan', 'adult/Nb', 'adult/tan', 'ä/Nb', 'ä/tan']);
  });
  it('draws every arc with its share, the class arcs unlabelled when in every fold, names escaped', () => {
    const [m] = modalStructures(
      rows,
      new Map(
        [...arcs].map(([k, v]) => [
          k,
          v.map(([p, c]) => [p === 'a' ? 'a<&>' : p, c === 'a' ? 'a<&>' : c] as [string, string]),
        ]),
      ),
    );
    const svg = structureSvg(m, 'y', []);
    expect(svg.match(/<line /g)).toHaveLength(5);
    expect(svg.match(/>75%</g)).toHaveLength(2);
    expect(svg).not.toContain('>100%<');
    expect(svg).toContain('a&lt;&amp;&gt;');
    expect(svg).not.toContain('a<&>');
  });
  it('is wide enough for its title, drawn bold (measured as regular, a long title ran past the right edge)', () => {
    const method = 'cl-ode/dirichlet(alpha=0.5, prior=uniform)';
    const title = `balance-scale: ${method}`;
    // A title long enough to decide the drawing's width, on which bold is wider by more than the margin.
    expect(textWidth(title, 15) + 24).toBeGreaterThan(320);
    expect(textWidth(title, 15, true)).toBeGreaterThan(textWidth(title, 15) + 16);
    const [m] = modalStructures(
      rows.map((r) => ({ ...r, dataset: 'balance-scale', method })),
      arcs,
    );
    const svg = structureSvg(m, 'y', []);
    expect(svg).toContain(`<text x="8" y="20" font-size="15" font-weight="bold">${title}</text>`);
    const width = Number(/<svg [^>]*width="(\d+)"/.exec(svg)![1]);
    // The text starts at x = 8 and ends inside the drawing.
    expect(width).toBeGreaterThanOrEqual(8 + textWidth(title, 15, true));
  });
});

describe('HTML page', () => {
  it('every scatter point names its dataset on hover (<title>)', async () => {
    const f = await scatterFigure('s', 'A', 'B', 'Accuracy', true, [
      { dataset: 'iris', a: 0.9, b: 0.8 },
      { dataset: 'car & co', a: 0.7, b: 0.75 },
    ]);
    const titles = [...f.svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(titles.filter((t) => t.includes('dataset: iris'))).toHaveLength(1);
    expect(titles.filter((t) => t.includes('dataset: car &amp; co'))).toHaveLength(1);
    // Figure text is no smaller than the page's 14 px body text.
    const sizes = [...f.svg.matchAll(/font-size="([\d.]+)/g)].map((m) => Number(m[1]));
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(14);
    expect(hoverTitles('<svg><path aria-label="x: 1" role="graphics-symbol" d="M0,0"/></svg>')).toBe(
      '<svg><path aria-label="x: 1" role="graphics-symbol" d="M0,0"><title>x: 1</title></path></svg>',
    );
  });
  it('has a table of contents linking every section, and consecutive figures in one grid', () => {
    const fig = (id: string, width: number) => ({
      kind: 'figure' as const,
      figure: { id, title: id, caption: id, svg: `<svg width="${width}" height="10"></svg>` },
    });
    const doc = {
      title: 'x: results',
      intro: [],
      sections: [
        { title: 'Accuracy', level: 2, blocks: [{ kind: 'p', text: 'a' }] },
        { title: 'Scatter plots', level: 3, blocks: [fig('f1', 400), fig('f2', 400), fig('cd', 900)] },
        { title: 'Accuracy', level: 2, blocks: [] },
      ],
    } as unknown as ReportDoc;
    const html = renderHtml(doc);
    const toc = html.slice(html.indexOf('<nav class="toc">'), html.indexOf('</nav>'));
    expect([...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1])).toEqual([
      's-accuracy',
      's-scatter-plots',
      's-accuracy-2',
    ]);
    for (const id of ['s-accuracy', 's-scatter-plots', 's-accuracy-2']) expect(html).toContain(`id="${id}"`);
    expect(html.match(/<div class="figure-grid">/g)).toHaveLength(1);
    expect(html).toContain('<figure id="figure-cd" class="wide">');
    expect(html).toMatch(/body \{[^}]*font-size: 14px/);
  });
});

describe('narrow screens', () => {
  it('every table sits in a box that scrolls sideways, and the figure grid never asks for more than the screen', () => {
    const doc = {
      title: 'x: results',
      intro: [],
      sections: [
        {
          title: 'T',
          level: 2,
          blocks: [
            {
              kind: 'table' as const,
              table: {
                id: 't',
                caption: 'c',
                columns: [{ header: 'a', align: 'l' as const }],
                rows: [{ cells: [{ text: '1' }] }],
              },
            },
          ],
        },
      ],
    };
    const html = renderHtml(doc as unknown as Parameters<typeof renderHtml>[0]);
    expect(html).toMatch(/<div class="table-wrap">\n<table id="table-t">/);
    expect(html).toMatch(/\.table-wrap \{[^}]*overflow-x: auto/);
    expect(html).toContain('minmax(min(460px, 100%), 1fr)');
  });
});
