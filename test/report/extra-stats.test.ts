/**
 * The report sections of the statistics turned on by compare.tests (all-pairs, resampled-t, bayesian,
 * effect-size) and the cautions: each table's numbers equal the pinned statistics (test/stats/*) on the same
 * inputs, so what the page prints is what R/scmamp, Weka and baycomp compute.
 */
import { fmean } from '../../src/stats/fsum.js';
import { describe, expect, it } from 'vitest';
import { buildReport, type ReportInput } from '../../src/report/build.js';
import { comparisonCautions, datasetsNeeded, posthocCautions, smallestExactP } from '../../src/report/cautions.js';
import {
  DEFAULT_ADDED_SETTINGS,
  DEFAULT_COMPARE,
  DEFAULT_COMPARE_TESTS,
  type CompareSpec,
} from '../../src/spec/report-sections.js';
import { readCsv } from '../../src/report/csv.js';
import { tableSummaryCsv, tableToCsv, type Table } from '../../src/report/table.js';
import { signedRankSeed } from '../../src/report/sections/bayesian.js';
import { compareResults } from '../../src/report/compare.js';
import { singleDatasetSections } from '../../src/report/sections/single-dataset.js';
import { bayesianSignedRank } from '../../src/stats/bayesian.js';
import { exactFriedman } from '../../src/stats/friedman-exact.js';
import { parseSpec, type MethodSpec } from '../../src/spec/load.js';
import '../../src/methods.js';
import type { ResultRow } from '../../src/store/db.js';
import { GH2010, GH2010_METHODS } from '../stats/fixtures.js';
import { FIVE_BY_TWO_A, FIVE_BY_TWO_B, W2_A, W2_B } from '../stats/resampled-fixtures.js';

function method(label: string): MethodSpec {
  return {
    kind: 'bnc',
    label,
    structure: { id: 'nb', params: {}, given: {} },
    estimator: { id: 'dirichlet', params: {}, given: {} },
  };
}

function row(
  dataset: string,
  m: string,
  repeat: number,
  fold: number,
  acc: number,
  nTrain = 90,
  nTest = 10,
): ResultRow {
  return {
    experiment: 'x',
    job_key: `${dataset}-${m}-${repeat}-${fold}`,
    dataset,
    method: m,
    structure: 'nb',
    estimator: 'dirichlet',
    repeat,
    fold,
    accuracy: acc,
    zero_one_loss: 1 - acc,
    rmse: 1 - acc,
    log_loss: 1 - acc,
    n_train: nTrain,
    n_test: nTest,
    n_arcs: 0,
    train_ms: 1,
    predict_ms: 1,
  } as ResultRow;
}

async function report(rows: ResultRow[], methods: readonly string[], compare: Partial<CompareSpec>, seed = '1') {
  const input: ReportInput = {
    experiment: 'x',
    specFile: 'mem.yaml',
    specHash: '0'.repeat(64),
    settings: { seed },
    methods: methods.map(method),
    rows,
    expectedJobs: rows.length,
    failed: [],
    compare: { ...DEFAULT_COMPARE, metrics: ['accuracy'], scatter: false, ...compare },
    reference: [],
  };
  return buildReport(input);
}

function csv(t: Table | undefined) {
  expect(t).toBeDefined();
  const doc = readCsv(tableToCsv(t!), `${t!.id}.csv`);
  return doc.records.map((r) => r.fields);
}

const gh2010Rows = GH2010.flatMap((r, i) =>
  r.map((acc, j) => row(`d${String(i + 1).padStart(2, '0')}`, GH2010_METHODS[j], 0, 0, acc)),
);

describe('all-pairs matrices in the report', () => {
  it('equal scmamp on García et al. (2010): friedmanPost + adjustShaffer / adjustBergmannHommel', async () => {
    const doc = await report(gh2010Rows, GH2010_METHODS, {
      tests: ['all-pairs'],
      allPairs: { procedures: ['shaffer', 'bergmann-hommel'] },
    });
    // R with scmamp's source: adjustShaffer(friedmanPost(data.gh.2010)), pairs (PDFC,NNEP), (PDFC,IS-CHC), (PDFC,FH-GBML),
    // (NNEP,IS-CHC), (NNEP,FH-GBML), (IS-CHC,FH-GBML); Bergmann–Hommel gives the same values here.
    const want = [
      0.17204055570409937, 0.17204055570409937, 0.00034196469740033208, 1, 0.1009440776242847, 0.1009440776242847,
    ];
    for (const id of ['all-pairs-shaffer-accuracy', 'all-pairs-bergmann-hommel-accuracy']) {
      const rows = csv(doc.tables.find((t) => t.id === id));
      const m = rows.map((r) => r.slice(1).map(Number));
      const got = [m[0][1], m[0][2], m[0][3], m[1][2], m[1][3], m[2][3]];
      got.forEach((g, i) => expect(g / want[i]).toBeCloseTo(1, 8));
      expect(m[1][0]).toBe(m[0][1]);
    }
    expect(doc.figures.some((f) => f.id === 'all-pairs-accuracy' && f.svg.includes('<svg'))).toBe(true);
  });
});

// W2_A, W2_B: Weka 3.6.14 PairedStatsCorrected gives p = 0.001684995278458656, A larger (test/stats/resampled.test.ts).

describe('per-dataset tests on the folds', () => {
  it('Weka markers: A is significantly better than the base B on d1 (v), not on d2', async () => {
    const rows = [
      ...W2_A.map((v, f) => row('d1', 'A', 0, f, v)),
      ...W2_B.map((v, f) => row('d1', 'B', 0, f, v)),
      ...W2_A.map((v, f) => row('d2', 'A', 0, f, v)),
      ...W2_A.map((v, f) => row('d2', 'B', 0, f, f % 2 ? v + 0.01 : v - 0.01)),
    ];
    const doc = await report(rows, ['B', 'A'], { tests: ['resampled-t'], control: 'B' });
    const main = csv(doc.tables.find((t) => t.id === 'resampled-t-accuracy'));
    // dataset, B, B sd, A, A sd, A mark: the marks in the CSV, in a column beside each mean and sd.
    expect(main[0]).toHaveLength(6);
    expect(main[0][3]).toBe(String(fmean(W2_A)) /* the correctly rounded mean */);
    const meanA = W2_A.reduce((a, b) => a + b, 0) / 10;
    const sdA = Math.sqrt(W2_A.reduce((a, b) => a + (b - meanA) ** 2, 0) / 9);
    expect(Number(main[0][4])).toBeCloseTo(sdA, 12);
    expect(main.map((r) => r[5])).toEqual(['v', '']);
    // The (v/ /*) counts are not a dataset: the CSV has the two datasets only, the counts go to -summary.csv.
    expect(main.map((r) => r[0])).toEqual(['d1', 'd2']);
    const summary = tableSummaryCsv(doc.tables.find((t) => t.id === 'resampled-t-accuracy')!)!;
    expect(summary.split('\n')[1]).toBe('(v/ /*),,,1/1/0,,');
    // Weka's ranking: A beat B once (d1), B never beat A.
    const ranking = csv(doc.tables.find((t) => t.id === 'ranking-accuracy'));
    expect(ranking).toEqual([
      ['1', '1', '1', '0', 'A'],
      ['2', '-1', '0', '1', 'B'],
    ]);
    // ASCII headers in the CSV.
    expect(tableToCsv(doc.tables.find((t) => t.id === 'resampled-t-detail-accuracy')!).split('\n')[0]).toMatch(
      /^[\x20-\x7e]+$/,
    );
    const md = doc.tables.find((t) => t.id === 'resampled-t-accuracy')!;
    expect(md.rows[0].cells[2].text.endsWith(' v')).toBe(true);
    expect(md.rows[1].cells[2].text.endsWith(' v')).toBe(false);
    expect(md.rows[2].cells[2].text).toBe('(1/1/0)');
    const detail = csv(doc.tables.find((t) => t.id === 'resampled-t-detail-accuracy'));
    expect(Number(detail[0][6]) / 0.001684995278458656).toBeCloseTo(1, 10);
    expect(Number(detail[0][3])).toBeCloseTo(1 / 9, 12);
    // Lower-is-better metric: A's 0-1 loss is significantly smaller, which Weka would mark '*' (smaller); the
    // report marks it 'v' (better). With A as the base, B is marked '*' (worse).
    const loss = await report(rows, ['B', 'A'], { tests: ['resampled-t'], control: 'B', metrics: ['zero_one_loss'] });
    expect(loss.tables.find((t) => t.id === 'resampled-t-zero_one_loss')!.rows[0].cells[2].text.endsWith(' v')).toBe(
      true,
    );
    const swapped = await report(rows, ['A', 'B'], {
      tests: ['resampled-t'],
      control: 'A',
      metrics: ['zero_one_loss'],
    });
    expect(swapped.tables.find((t) => t.id === 'resampled-t-zero_one_loss')!.rows[0].cells[2].text.endsWith(' *')).toBe(
      true,
    );
  });

  it("5 × 2-fold CV gets Dietterich's t and Alpaydin's F (values of test/stats/resampled.test.ts)", async () => {
    const A = FIVE_BY_TWO_A;
    const B = FIVE_BY_TWO_B;
    const rows = [0, 1, 2, 3, 4].flatMap((r) =>
      [0, 1].flatMap((f) => [row('d', 'A', r, f, A[r][f], 50, 50), row('d', 'B', r, f, B[r][f], 50, 50)]),
    );
    const doc = await report(rows, ['A', 'B'], { tests: ['resampled-t'], control: 'A', pairs: [['A', 'B']] });
    const five = csv(doc.tables.find((t) => t.id === 'five-by-two-accuracy'));
    expect(Number(five[0][3])).toBeCloseTo(0.6720460402294592, 10);
    expect(Number(five[0][4])).toBeCloseTo(0.5313521528247362, 10);
    expect(Number(five[0][5])).toBeCloseTo(2.3814250664485717, 10);
    expect(Number(five[0][6])).toBeCloseTo(0.17522030709078593, 10);
  });
});

describe('Bayesian and effect-size sections', () => {
  it('the signed-rank table equals the seeded statistic, is reproducible, and changes with the experiment seed', async () => {
    const opts = {
      tests: ['bayesian', 'effect-size'] as CompareSpec['tests'],
      control: 'PDFC',
      bayesian: { rope: 0.01, prior: 0.5, samples: 3000 },
    };
    const doc = await report(gh2010Rows, GH2010_METHODS, opts);
    const again = await report(gh2010Rows, GH2010_METHODS, opts);
    const t = csv(doc.tables.find((x) => x.id === 'bayesian-signed-rank-accuracy'));
    expect(csv(again.tables.find((x) => x.id === 'bayesian-signed-rank-accuracy'))).toEqual(t);
    const a = GH2010.map((r) => r[0]);
    const b = GH2010.map((r) => r[3]);
    const direct = bayesianSignedRank(a, b, 0.01, {
      samples: 3000,
      seed: signedRankSeed('1', 'accuracy', 'PDFC', 'FH-GBML'),
    });
    const fh = t.find((r) => r[1] === 'FH-GBML')!;
    expect(Number(fh[3])).toBe(direct.above);
    expect(Number(fh[4])).toBe(direct.rope);
    expect(Number(fh[5])).toBe(direct.below);
    const other = await report(gh2010Rows, GH2010_METHODS, opts, '2');
    expect(csv(other.tables.find((x) => x.id === 'bayesian-signed-rank-accuracy'))).not.toEqual(t);
    expect(doc.figures.filter((f) => f.id.startsWith('simplex-accuracy-'))).toHaveLength(3);
    const eff = csv(doc.tables.find((x) => x.id === 'effect-size-accuracy'));
    expect(eff).toHaveLength(3);
    expect(Number(eff.find((r) => r[1] === 'FH-GBML')![3])).toBeCloseTo(
      a.reduce((s, x, i) => s + x - b[i], 0) / a.length,
      12,
    );
  });
});

describe('unusable values', () => {
  it('a fold value a statistic rejects becomes a note under the table, not a failed report', () => {
    const finite = [...W2_A.map((v, f) => row('d1', 'A', 0, f, v)), ...W2_B.map((v, f) => row('d1', 'B', 0, f, v))];
    const comparison = compareResults(finite, ['B', 'A'], {
      ...DEFAULT_COMPARE,
      metrics: ['accuracy'],
      tests: ['resampled-t'],
      control: 'B',
    });
    // The sections read the folds themselves: one of B's folds is infinite there (e.g. a log loss).
    const rows = finite.map((r) => (r.method === 'B' && r.fold === 3 ? { ...r, accuracy: Infinity } : r));
    const tables: Table[] = [];
    const sections = singleDatasetSections({
      comparison,
      statRows: rows,
      seed: '1',
      tableId: (x) => x,
      figureId: (x) => x,
      addTable: (t) => {
        if (!t) return [];
        tables.push(t);
        return [{ kind: 'table', table: t }];
      },
      addFigure: (f) => ({ kind: 'figure', figure: f }),
    });
    expect(sections).toHaveLength(1);
    const t = tables.find((x) => x.id === 'resampled-t-accuracy')!;
    expect(t.notes).toEqual(['d1, A: b[3] must be a finite number, got Infinity']);
    expect(t.rows[0].cells[2].text).toMatch(new RegExp(`^${fmean(W2_A).toFixed(4)} ± \\d\\.\\d{4}$`)); // mean ± sd, no mark
  });
});

describe('cautions', () => {
  it('few datasets: which tests are valid instead; silent with enough datasets or cautions: false', async () => {
    const rows = gh2010Rows.filter((r) => ['d01', 'd02', 'd03'].includes(r.dataset));
    const doc = await report(rows, GH2010_METHODS, {});
    const c = comparisonCautions(doc.comparison);
    expect(c[0]).toMatch(/only N = 3 datasets/);
    expect(c[0]).toMatch(/resampled-t/);
    expect(c[0]).toMatch(/smallest two-sided p is 0\.250; 6 datasets are needed/);
    // The valid test across the 3 datasets: the exact Friedman p (src/stats/friedman-exact.ts, checked by brute force).
    const m = doc.comparison.metrics[0];
    const exact = exactFriedman(
      m.meanRanks.map((r) => Math.round(r * 3)),
      3,
    )!;
    expect(c[0]).toContain(
      `exact permutation p-value of the Friedman statistic (Friedman 1937; every ranking equally likely under H0, enumerated) is ${exact.p.toPrecision(3)}, against ${m.friedman!.p.toPrecision(3)}`,
    );
    expect(comparisonCautions((await report(rows, GH2010_METHODS, { cautions: false })).comparison)).toEqual([]);
    expect(comparisonCautions((await report(gh2010Rows, GH2010_METHODS, {})).comparison)).toEqual([]);
    expect(smallestExactP(3)).toBe(0.25);
    expect(datasetsNeeded(0.05)).toBe(6);
    expect(datasetsNeeded(0.01)).toBe(8);
  });

  it('explains a method significant against the control yet joined to it by the CD bar', async () => {
    // 10 datasets, 5 methods; ranks: A 1 (six datasets) or 2, X 3 (4 on two datasets): R_X − R_A = 1.8 < Nemenyi
    // CD = 1.929 but z = 2.546, Hommel-adjusted p < 0.05 against the control A.
    const methods = ['A', 'X', 'B', 'C', 'D'];
    const rows: ResultRow[] = [];
    for (let i = 0; i < 10; i++) {
      const a = i < 6 ? 1 : 2;
      const x = i < 2 ? 4 : 3;
      const rest = [1, 2, 3, 4, 5].filter((r) => r !== a && r !== x);
      const ranks = [a, x, ...rest.map((_, j) => rest[(j + i) % 3])];
      ranks.forEach((r, j) => rows.push(row(`d${i}`, methods[j], 0, 0, 1 - r / 10)));
    }
    const doc = await report(rows, methods, { control: 'A' });
    const m = doc.comparison.metrics[0];
    const xc = m.posthoc!.comparisons.find((c) => c.method === 1)!;
    expect(xc.pAdjusted).toBeLessThan(0.05);
    expect(m.meanRanks[1] - m.meanRanks[0]).toBeCloseTo(1.8, 12);
    expect(m.cd!.cd).toBeGreaterThan(1.8);
    const c = posthocCautions(m, doc.comparison);
    expect(comparisonCautions(doc.comparison).some((t) => /disagree/.test(t))).toBe(false);
    // Printed in the metric's section, under the CD diagram.
    const section = doc.sections.find((x) => x.title === 'Accuracy: comparisons with the control')!;
    expect(section.blocks.at(-1)).toEqual({ kind: 'list', items: c });
    expect(
      c.some((t) =>
        /X, B differ significantly from A in the post-hoc table but are within the critical difference of it/.test(t),
      ),
    ).toBe(true);
  });
});

describe('defaults', () => {
  it('the added tests are off unless named; cautions are on', () => {
    expect(DEFAULT_COMPARE.tests).toEqual(DEFAULT_COMPARE_TESTS);
    expect(DEFAULT_COMPARE.tests).toEqual(['friedman', 'posthoc', 'wilcoxon', 'sign', 'cd']);
    expect(DEFAULT_ADDED_SETTINGS.cautions).toBe(true);
  });
});

describe('compare: settings of the added tests', () => {
  const head = (structures: string) => `name: t
datasets: [iris]
structures: [${structures}]
estimators:
  - dirichlet: { alpha: 1 }
`;
  it('parse, with defaults for what is not given', () => {
    const s = parseSpec(
      head('nb, tan') +
        `compare:
  tests: [all-pairs, bayesian, effect-size, resampled-t]
  all_pairs: { procedures: [shaffer] }
  bayesian: { rope: 0.02 }
  effect_size: { level: 0.9 }
  cautions: false
`,
      'mem.yaml',
    );
    expect(s.compare.tests).toEqual(['all-pairs', 'bayesian', 'effect-size', 'resampled-t']);
    expect(s.compare.allPairs).toEqual({ procedures: ['shaffer'] });
    expect(s.compare.bayesian).toEqual({ rope: 0.02, prior: 0.5, samples: 50000 });
    expect(s.compare.effectSize).toEqual({ bootstrap: 10000, level: 0.9 });
    expect(s.compare.cautions).toBe(false);
  });
  it('refuses Bergmann–Hommel for more than 9 methods, naming the field', () => {
    const ten = head('nb, tan, aode, kdb, fan-mdl, acll-tan, cl-ode, hill-climb, tan-hc, tan-hcsp');
    expect(() => parseSpec(ten + 'compare:\n  tests: [all-pairs]\n', 'mem.yaml')).toThrow(
      /compare\.all_pairs\.procedures: bergmann-hommel is exact only for at most 9 methods and this spec has 10/,
    );
    expect(() =>
      parseSpec(ten + 'compare:\n  tests: [all-pairs]\n  all_pairs: { procedures: [shaffer] }\n', 'mem.yaml'),
    ).not.toThrow();
  });
  it('rejects unknown procedures with the schema message', () => {
    expect(() => parseSpec(head('nb') + 'compare:\n  all_pairs: { procedures: [tukey] }\n', 'mem.yaml')).toThrow(
      /compare\.all_pairs\.procedures\[0\]: must be one of/,
    );
  });
});
