import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  drawWithTemplate,
  forgetTemplates,
  placeholders,
  sharedExpressions,
  spliceIntoStrings,
  templateOf,
  type FigureSlots,
  type VegaModule,
} from '../../src/report/figure-views.js';
import { boxplotSlots, boxplotSpec, cdSlots, cdSpec, scatterSpec, textWidth } from '../../src/report/figures.js';
import { useTempCacheDir } from '../helpers/cache-dir.js';

// The vega versions in a template's cache key (the report passes the installed ones).
const VERSIONS = 'vega-test,vega-lite-test';

// Figure text measured as the report measures it (figures.ts installs the same on first use).
(
  vega as unknown as {
    textMetrics: { width: (item: { fontSize?: number; fontWeight?: unknown }, t: unknown) => number };
  }
).textMetrics.width = (item, text) => {
  const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
  const s = text == null ? '' : String(text).trim();
  if (size <= 0 || s === '') return 0;
  return textWidth(s, size, item.fontWeight === 'bold' || Number(item.fontWeight) >= 600);
};

/** The SVG of a figure's own spec, compiled, parsed and drawn by a view of its own (what the report did). */
async function fresh(slots: FigureSlots, specOf: (slots: FigureSlots) => TopLevelSpec = scatterSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(specOf(slots)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

function niceDomain(values: number[]): [number, number] {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

/** Scatter figures of every shape the report makes: 1 to 10 datasets, ranges from 1e-5 to 1e3 wide, odd names. */
function cases(): FigureSlots[] {
  let s = 11;
  const rnd = (): number => (s = (s * 48271) % 2147483647) / 2147483647;
  const datasets = ['breast-cancer', 'car', 'iris', 'zoo', 'a"b', '<x&y>', 'ünï', 'tic-tac-toe', 'lymph', 'q'];
  const methods = ['nb/dirichlet', 'aode', 'kdb/dirichlet(alpha=0.5)', 'fan "mdl"', "cl-ode's", 'tan ü'];
  const out: FigureSlots[] = [];
  for (let i = 0; i < 24; i++) {
    const scale = [1, 0.01, 100, 1e-5][i % 4];
    const offset = [0, 0.5, -3, 1e3, 0.7][i % 5];
    const n = 1 + (i % datasets.length);
    const points = datasets
      .slice(0, n)
      .map((dataset) => ({ dataset, a: offset + scale * rnd(), b: i % 7 === 0 ? offset : offset + scale * rnd() }));
    const domain = niceDomain(points.flatMap((p) => [p.a, p.b]));
    const metric = ['accuracy', 'RMSE', 'log loss'][i % 3];
    const [a, b] = [methods[i % methods.length], methods[(i + 1 + (i % 4)) % methods.length]];
    out.push({
      texts: { title: `${metric}: ${a} vs ${b}`, x: `${b} (${metric})`, y: `${a} (${metric})` },
      ranges: { domain },
      numbers: {},
      data: { line: [{ v: domain[0] }, { v: domain[1] }], points },
    });
  }
  return out;
}

describe('figures of one kind drawn from one template', () => {
  const folder = useTempCacheDir('bnclab-figure-views-');

  it('a template read back from the cache folder draws the same bytes (and a damaged one is made again)', async () => {
    const all = cases();
    const v = vega as unknown as VegaModule;
    forgetTemplates();
    const first = await drawWithTemplate('scatter-cached', scatterSpec, all[0], v, compile, VERSIONS);
    const entries = join(folder(), 'cache', 'vega-template');
    expect(existsSync(entries) ? readdirSync(entries).length : 0).toBe(1);
    // A later process: the template from the entry, never compiled (a compile that throws would refuse it).
    forgetTemplates();
    const refuse = (): never => {
      throw new Error('compiled although the template is in the cache');
    };
    for (const slots of [all[0], ...all.slice(5, 9)]) {
      const svg = await drawWithTemplate('scatter-cached', scatterSpec, slots, v, refuse, VERSIONS);
      expect(svg).toBe(await fresh(slots));
    }
    expect(await drawWithTemplate('scatter-cached', scatterSpec, all[0], v, refuse, VERSIONS)).toBe(first);
    // A damaged entry (cut short) is made again from the spec.
    writeFileSync(join(entries, readdirSync(entries)[0]), '{"runtime":{"oper');
    forgetTemplates();
    expect(await drawWithTemplate('scatter-cached', scatterSpec, all[1], v, compile, VERSIONS)).toBe(
      await fresh(all[1]),
    );
  });

  it('every scatter figure is byte for byte the SVG of its own spec', async () => {
    let drawn = 0;
    for (const slots of cases()) {
      const svg = await drawWithTemplate(
        'scatter-test',
        scatterSpec,
        slots,
        vega as unknown as VegaModule,
        compile,
        VERSIONS,
      );
      expect(svg, JSON.stringify(slots.texts)).toBeDefined();
      expect(svg, JSON.stringify(slots.texts)).toBe(await fresh(slots));
      drawn++;
    }
    expect(drawn).toBe(24);
  });

  it('every critical-difference diagram is byte for byte the SVG of its own spec (2 to 14 methods, 0 to 3 groups)', async () => {
    const v = vega as unknown as VegaModule;
    let drawn = 0;
    for (let k = 2; k <= 14; k++) {
      const methods = Array.from({ length: k }, (_, i) => ['nb/dirichlet', 'tan "x"', 'aode<1>', 'kdb ü'][i % 4] + i);
      // Mean ranks with ties, spread over 1..k.
      const ranks = methods.map((_, i) => 1 + (((i * 7) % k) * (k - 1)) / k + (i % 3 === 0 ? 0 : 0.25));
      const groups = [
        [],
        [[0, 1]],
        [
          [0, 1],
          [1, 2],
        ],
        [
          [0, 2],
          [1, 3],
          [2, 4],
        ],
      ][k % 4].filter((g) => g.every((j) => j < k));
      const slots = cdSlots({
        metricTitle: ['Accuracy', 'RMSE'][k % 2],
        methods,
        meanRanks: ranks,
        cd: 0.4 + k / 5,
        groups,
        procedureLabel: ['Nemenyi', 'Hommel'][k % 2],
      });
      const svg = await drawWithTemplate('cd-test', cdSpec, slots, v, compile, VERSIONS);
      expect(svg, `k = ${k}`).toBeDefined();
      expect(svg, `k = ${k}`).toBe(await fresh(slots, cdSpec));
      drawn++;
    }
    expect(drawn).toBe(13);
  });

  it('every fold box plot is byte for byte the SVG of its own spec (1 to 8 methods, 1 to 9 datasets)', async () => {
    const v = vega as unknown as VegaModule;
    const allMethods = ['tan/dirichlet', 'nb/dirichlet', 'aode "a"', 'kdb(k=2)', 'fan-mdl', 'cl-ode', 'z', 'a'];
    const allDatasets = ['zoo', 'car', 'iris', 'breast-cancer', 'tic-tac-toe', 'Adult', 'lymph', 'balance', 'votes'];
    let drawn = 0;
    for (const k of [1, 2, 3, 5, 8])
      for (const n of [1, 4, 5, 9]) {
        const methods = allMethods.slice(0, k);
        const values = allDatasets.slice(0, n).flatMap((dataset) =>
          methods.flatMap((method) =>
            // Five folds; a box of no height (every fold alike) for some.
            [0, 1, 2, 3, 4].map((f) => ({
              dataset,
              method,
              value:
                (dataset.length + method.length) % 4 === 0
                  ? 0.5
                  : ((dataset.length * 31 + method.length * 7 + f * 13) % 17) / 17,
            })),
          ),
        );
        const slots = boxplotSlots('Accuracy', methods, values);
        const svg = await drawWithTemplate('boxplot-test', boxplotSpec, slots, v, compile, VERSIONS);
        expect(svg, `${k} methods, ${n} datasets`).toBeDefined();
        expect(svg, `${k} methods, ${n} datasets`).toBe(await fresh(slots, boxplotSpec));
        drawn++;
      }
    expect(drawn).toBe(20);
  });

  it('figures whose spec Vega-Lite compiles otherwise are left to be drawn afresh', async () => {
    const base = cases()[3];
    const v = vega as unknown as VegaModule;
    for (const texts of [
      { ...base.texts, x: base.texts.y }, // the same title twice: said once in a point's description
      { ...base.texts, x: 'a\\b (RMSE)' }, // a backslash: lost from the description
      { ...base.texts, title: ' ' },
    ]) {
      expect(
        await drawWithTemplate('scatter-test', scatterSpec, { ...base, texts }, v, compile, VERSIONS),
      ).toBeUndefined();
    }
    for (const domain of [
      [1, 1],
      [0, Number.NaN],
      [2, 1],
    ] as [number, number][]) {
      const slots = { ...base, ranges: { domain } };
      expect(await drawWithTemplate('scatter-test', scatterSpec, slots, v, compile, VERSIONS)).toBeUndefined();
    }
  });

  it('a template only when every placeholder becomes a signal or a data set', () => {
    const slots = cases()[0];
    const compiled = compile(scatterSpec(placeholders(slots))).spec;
    const made = templateOf(compiled, slots);
    expect(made).toBeDefined();
    expect([...made!.signals.keys()].sort()).toEqual(['range:domain', 'text:title', 'text:x', 'text:y']);
    expect([...made!.data.keys()].sort()).toEqual(['line', 'points']);
    expect(JSON.stringify(made!.spec)).not.toMatch(/BnclabSlot|987654/);
    // The numbers that lay a figure out: the view's height, a facet panel's width, the layout's columns.
    const cd = cdSlots({
      metricTitle: 'Accuracy',
      methods: ['a', 'b', 'c'],
      meanRanks: [1, 2, 3],
      cd: 1,
      groups: [[0, 1]],
      procedureLabel: 'Nemenyi',
    });
    expect([...templateOf(compile(cdSpec(placeholders(cd))).spec, cd)!.signals.keys()].sort()).toEqual([
      'number:height',
      'text:title',
    ]);
    const box = boxplotSlots('Accuracy', ['a', 'b'], [{ dataset: 'd', method: 'a', value: 1 }]);
    const boxTemplate = templateOf(compile(boxplotSpec(placeholders(box))).spec, box)!;
    expect([...boxTemplate.signals.keys()].sort()).toEqual(['number:child_width', 'number:columns', 'text:title']);
    expect(JSON.stringify(boxTemplate.spec)).not.toMatch(/BnclabSlot|98765/);
    // A placeholder somewhere a signal cannot stand (here: a mark's name) refuses the template.
    const odd = structuredClone(compiled) as { marks: { name: string }[] };
    odd.marks[0].name = placeholders(slots).texts.x;
    expect(templateOf(odd, slots)).toBeUndefined();
    // A slot that the spec does not use refuses it too.
    expect(templateOf(compiled, { ...slots, texts: { ...slots.texts, extra: 'e' } })).toBeUndefined();
  });

  it("an expression compiled once serves every view, bound to each view's own functions", () => {
    const shared = sharedExpressions(vega as unknown as VegaModule);
    expect(shared).toBeDefined();
    const a = shared!.parameter({ functions: { k: 1 } }, { code: 'this.k + datum.x' }) as (d: object) => number;
    const b = shared!.parameter({ functions: { k: 2 } }, { code: 'this.k + datum.x' }) as (d: object) => number;
    expect([a({ x: 10 }), b({ x: 10 })]).toEqual([11, 12]);
    // Vega sets members on the function it returns (an accessor's fields): each view's is its own.
    expect(a).not.toBe(b);
    const encode = shared!.encode(
      { functions: {} },
      { marktype: 'rect', channels: { x: { code: '1' }, x2: { code: '4' } } },
    ) as (item: Record<string, number>) => number;
    const item: Record<string, number> = {};
    expect(encode(item)).toBe(1);
    expect(item).toEqual({ x: 1, x2: 4, width: 3 });
  });

  it('texts spliced into double-quoted strings of an expression only', () => {
    expect(spliceIntoStrings('"M: " + x + "; M" + \'M\'', 'M', 's')).toBe('"" + s + ": " + x + "; " + s + "" + \'M\'');
    expect(spliceIntoStrings('"a\\"M" + M', 'M', 's')).toBe('"a\\"" + s + "" + M');
  });
});
