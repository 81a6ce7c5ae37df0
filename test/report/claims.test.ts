/**
 * Claims files (a paper's stated claims, e.g. experiments/reference/subbkb-2022-claims.csv): every kind on
 * a synthetic results table whose outcomes are known by construction, with a reproduced and a
 * not-reproduced case per kind, the not-evaluable cases, the rendered report section, and malformed rows.
 *
 * The synthetic table (accuracy, 6 folds per dataset, fold offsets ±0.0005, ±0.0015, ±0.0025 around the
 * per-dataset mean, the same offsets for every method so that means are exact up to rounding):
 *
 *   dataset  rows   A            B     C            D
 *   d1..d6   500 (d1-d4), 2000 (d5, d6)
 *            0.80+0.01i   0.80  0.80−0.01i   0.80 + [−0.005, 0.015, −0.025, 0.035, −0.045, 0.055]_i
 *
 * so A is first on every dataset, C last, and B and D share ranks 2–3 (mean ranks A 1, B 2.5, D 2.5, C 4).
 * Mean accuracy: A 0.835, B 0.80, C 0.765, D 0.805.
 *
 * Reference numbers, from R 4.2.2 (Rscript):
 *   post-hoc vs A, k = 4, N = 6, SE = √(20/36): p <- 2*pnorm(-c(1.5, 1.5, 3)/sqrt(20/36))
 *     = 0.0441713449084426 (B, D), 5.69941162333185e-05 (C);
 *     p.adjust(p, "hommel") = 0.0441713449084426 (B, D), 0.000170982348699955 (C)
 *   wilcox.test(1:6/100)$p.value = 0.03125 (A − B over datasets: all six positive, exact)
 *   wilcox.test(c(-0.005, 0.015, -0.025, 0.035, -0.045, 0.055), exact = TRUE)$p.value = 0.84375 (D − B)
 *   wilcox.test(c(0.01, -0.02, 0.03, -0.04, 0.05))$p.value = 0.8125 (P − Q over the folds of e1)
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateReference } from '../../src/report/reference.js';
import { DEFAULT_COMPARE, type ReferenceSpec } from '../../src/spec/report-sections.js';
import { compareResults } from '../../src/report/compare.js';
import { buildReport } from '../../src/report/build.js';
import { referenceSpec, reportInput } from '../helpers/report.js';
import { renderHtml, renderMarkdown } from '../../src/report/render.js';
import type { ClaimResult } from '../../src/report/claims.js';
import type { ResultRow } from '../../src/store/db.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { parseXml } from './xml.js';

const HEADER = 'id,kind,metric,method_a,relation,method_b,dataset,value,source,note\n';
const OFFSETS = [-0.0025, -0.0015, -0.0005, 0.0005, 0.0015, 0.0025];
const D_MINUS_B = [-0.005, 0.015, -0.025, 0.035, -0.045, 0.055];

function row(dataset: string, method: string, fold: number, accuracy: number, size: number): ResultRow {
  return {
    experiment: 'x',
    job_key: `${dataset}|${method}|${fold}`,
    dataset,
    method,
    structure: 's',
    estimator: 'e',
    repeat: 0,
    fold,
    accuracy,
    zero_one_loss: 1 - accuracy,
    rmse: 0.3,
    log_loss: 0.5,
    n_train: size - size / 10,
    n_test: size / 10,
    n_arcs: 0,
    train_ms: 0,
    predict_ms: 0,
  } as ResultRow;
}

/** The main table: A, B, C, D on d1..d6 (see the header comment). */
function mainRows(): ResultRow[] {
  const out: ResultRow[] = [];
  for (let i = 1; i <= 6; i++) {
    const size = i <= 4 ? 500 : 2000;
    const mean: Record<string, number> = { A: 0.8 + 0.01 * i, B: 0.8, C: 0.8 - 0.01 * i, D: 0.8 + D_MINUS_B[i - 1] };
    for (const m of ['A', 'B', 'C', 'D']) OFFSETS.forEach((o, f) => out.push(row(`d${i}`, m, f, mean[m] + o, size)));
  }
  return out;
}

/**
 * Structure diagnostics: meanShd for A (5) and B (5 + i) on every dataset; classParents for A (1) and B (2)
 * on the large datasets d5, d6 only. C and D store none.
 */
function mainInfo(): Map<string, Record<string, unknown>> {
  const info = new Map<string, Record<string, unknown>>();
  for (let i = 1; i <= 6; i++) {
    for (let f = 0; f < 6; f++) {
      info.set(`d${i}|A|${f}`, { meanShd: 5, ...(i >= 5 ? { classParents: 1 } : {}) });
      info.set(`d${i}|B|${f}`, { meanShd: 5 + i, ...(i >= 5 ? { classParents: 2 } : {}), note: 'text is ignored' });
    }
  }
  return info;
}

/** Fold-level table: P − Q over the folds of e1 is [0.01, −0.02, 0.03, −0.04, 0.05]; of e2 0.01…0.06. */
function foldRows(): ResultRow[] {
  const e1 = [0.01, -0.02, 0.03, -0.04, 0.05];
  const e2 = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06];
  return [
    ...e1.flatMap((d, f) => [row('e1', 'P', f, 0.9 + d, 100), row('e1', 'Q', f, 0.9, 100)]),
    ...e2.flatMap((d, f) => [row('e2', 'P', f, 0.9 + d, 100), row('e2', 'Q', f, 0.9, 100)]),
  ];
}

function ref(text: string, extra: Partial<ReferenceSpec> = {}): ReferenceSpec {
  const file = join(tempDir(), 'claims.csv');
  writeFileSync(file, text);
  return referenceSpec(file, extra);
}

function evaluate(
  text: string,
  rows: ResultRow[],
  methods: string[],
  info = new Map<string, Record<string, unknown>>(),
  extra: Partial<ReferenceSpec> = {},
): Map<string, ClaimResult> {
  const r = evaluateReference(ref(HEADER + text, extra), rows, methods, DEFAULT_COMPARE, info);
  if (r.kind !== 'claims') throw new Error(`expected a claims file, got ${r.kind}`);
  return new Map(r.claims.map((c) => [c.id, c]));
}

function verdicts(m: Map<string, ClaimResult>): Record<string, string> {
  return Object.fromEntries([...m].map(([id, c]) => [id, c.verdict]));
}

const MAIN = ['A', 'B', 'C', 'D'];

describe('claims: every kind on a synthetic results table', () => {
  it('best-mean: highest / lowest mean over the datasets every candidate has', () => {
    const r = evaluate(
      `bm1,best-mean,accuracy,A,max,,,,,
bm2,best-mean,accuracy,B,max,,,,,
bm3,best-mean,accuracy,C,min,,,,,
bm4,best-mean,accuracy,D,max,B;C,,,,listed candidates only
bm5,best-mean,info.meanShd,B,max,,,,,
bm6,best-mean,info.meanShd,A,max,,,,,
bm7,best-mean,accuracy,A,max,B;B-RAI,,,,
`,
      mainRows(),
      MAIN,
      mainInfo(),
    );
    expect(verdicts(r)).toEqual({
      bm1: 'reproduced',
      bm2: 'not reproduced',
      bm3: 'reproduced',
      // D's lead over B is 0.005 on average, and its 95% bootstrap interval over the 6 data sets covers zero.
      bm4: 'direction reproduced, not significant',
      bm5: 'reproduced',
      bm6: 'not reproduced',
      bm7: 'not evaluable',
    });
    // A 0.835, next D 0.805 over 6 datasets; B loses to A by 0.035.
    expect(r.get('bm1')).toMatchObject({ a: expect.closeTo(0.835, 12), b: expect.closeTo(0.805, 12), n: 6 });
    expect(r.get('bm1')!.ours).toContain('next: D 0.8050 (N = 6 data sets, 4 methods)');
    expect(r.get('bm2')!.reason).toBe(
      'A is higher by 0.0350; paired bootstrap over 6 data sets (2000 resamples, seeded)',
    );
    expect(r.get('bm1')!.ours).toMatch(/; margin \+0\.03000, 95% interval \[\+0\.\d{5}, \+0\.\d{5}\]$/);
    expect(r.get('bm4')!.ours).toMatch(/; margin \+0\.00500, 95% interval \[−0\.\d{5}, \+0\.\d{5}\]$/);
    // Among D, B, C only (A is not listed): D 0.805 is the highest.
    expect(r.get('bm4')!.ours).toContain('3 methods');
    // meanShd exists for A and B only: B 5 + 3.5 = 8.5, A 5.
    expect(r.get('bm5')).toMatchObject({ a: 8.5, b: 5, n: 6 });
    expect(r.get('bm7')!.reason).toContain("method 'B-RAI' is not in this experiment");
  });

  it('mean: means over datasets; ~ with a tolerance, or without one a signed-rank test at α', () => {
    const r = evaluate(
      `m1,mean,accuracy,A,>,B,,,,
m2,mean,accuracy,B,>,A,,,,
m3,mean,accuracy,D,~,B,,0.01,,
m4,mean,accuracy,D,~,B,,0.001,,
m5,mean,accuracy,D,~,B,,,,
m6,mean,accuracy,A,~,B,,,,
m7,mean,info.meanShd,A,<,B,,,,
m8,mean,info.meanShd,A,>,C,,,,
m9,mean,accuracy,A,>=,A,,,,
`,
      mainRows(),
      MAIN,
      mainInfo(),
    );
    expect(verdicts(r)).toEqual({
      m1: 'reproduced',
      m2: 'not reproduced',
      m3: 'reproduced',
      m4: 'not reproduced',
      m5: 'reproduced',
      m6: 'not reproduced',
      m7: 'reproduced',
      m8: 'not evaluable',
      m9: 'not evaluable',
    });
    expect(r.get('m1')).toMatchObject({ a: expect.closeTo(0.835, 12), b: expect.closeTo(0.8, 12), n: 6 });
    // D − B mean = 0.03 / 6 = 0.005.
    expect(r.get('m4')!.reason).toBe(
      '|difference| = 0.0050 > 0.001; paired bootstrap over 6 data sets (2000 resamples, seeded)',
    );
    expect(r.get('m5')!.p).toBeCloseTo(0.84375, 12); // R: wilcox.test(D − B, exact = TRUE)
    expect(r.get('m6')!.p).toBeCloseTo(0.03125, 12); // R: wilcox.test(1:6/100)
    expect(r.get('m8')!.reason).toBe('C stores no info.meanShd (no job of it has this structure_info key)');
  });

  it('posthoc: Hommel-adjusted mean-rank p against the control, with the direction for < and <=', () => {
    const r = evaluate(
      `ph1,posthoc,accuracy,A,<,B,,0.05,,
ph2,posthoc,accuracy,A,<,B,,0.01,,
ph3,posthoc,accuracy,A,>=,D,,0.01,,
ph4,posthoc,accuracy,A,>=,D,,0.05,,
ph5,posthoc,accuracy,A,<,C,,,,
ph6,posthoc,accuracy,C,<,A,,0.05,,
ph7,posthoc,accuracy,A,~,D,,0.01,,
ph8,posthoc,accuracy,A,<,B-RAI,,0.10,,
`,
      mainRows(),
      MAIN,
    );
    expect(verdicts(r)).toEqual({
      ph1: 'reproduced',
      ph2: 'not reproduced',
      ph3: 'reproduced',
      ph4: 'not reproduced',
      ph5: 'reproduced',
      ph6: 'not reproduced',
      ph7: 'reproduced',
      ph8: 'not evaluable',
    });
    // R: p.adjust(2*pnorm(-c(1.5, 1.5, 3)/sqrt(20/36)), "hommel")
    expect(r.get('ph1')!.p).toBeCloseTo(0.0441713449084426, 12);
    expect(r.get('ph1')).toMatchObject({ a: 1, b: 2.5, n: 6 });
    expect(r.get('ph5')!.p).toBeCloseTo(0.000170982348699955, 14); // threshold: compare α = 0.05
    // Control C: A's difference is significant, but in A's favour.
    expect(r.get('ph6')!.reason).toBe('significant, but A ranks better');
    expect(r.get('ph2')!.reason).toBe('not significant (adjusted p ≥ 0.01)');
    // The same number as the report's post-hoc table with control A.
    const c = compareResults(mainRows(), MAIN, { ...DEFAULT_COMPARE, control: 'A', metrics: ['accuracy'] });
    const table = c.metrics[0].posthoc!.comparisons.find((x) => x.method === 1)!;
    expect(r.get('ph1')!.p).toBe(table.pAdjusted);
  });

  it('dataset: per-dataset means (published names mapped), or a signed-rank test over folds for ~ without a tolerance', () => {
    const main = evaluate(
      `d1,dataset,accuracy,A,>,B,d4,,,
d2,dataset,accuracy,B,>,A,No. 4,,,
d3,dataset,accuracy,D,~,B,d1,0.01,,
d4,dataset,accuracy,A,>,B,No. 9,,,
d5,dataset,info.classParents,A,<,B,d5,,,
d6,dataset,info.classParents,A,<,B,d1,,,
`,
      mainRows(),
      MAIN,
      mainInfo(),
      { datasets: { 'No. 4': 'd4' } },
    );
    expect(verdicts(main)).toEqual({
      d1: 'reproduced',
      d2: 'not reproduced',
      d3: 'reproduced',
      d4: 'not evaluable',
      d5: 'reproduced',
      d6: 'not evaluable',
    });
    expect(main.get('d2')).toMatchObject({ a: expect.closeTo(0.8, 12), b: expect.closeTo(0.84, 12), n: 6 });
    expect(main.get('d4')!.reason).toBe("dataset 'No. 9' is not in this experiment (map it under reference datasets:)");
    expect(main.get('d6')!.reason).toBe('A has no info.classParents on d1');
    const folds = evaluate(
      `f1,dataset,accuracy,P,~,Q,e1,,,
f2,dataset,accuracy,P,~,Q,e2,,,
`,
      foldRows(),
      ['P', 'Q'],
    );
    expect(verdicts(folds)).toEqual({ f1: 'reproduced', f2: 'not reproduced' });
    expect(folds.get('f1')!.p).toBeCloseTo(0.8125, 12); // R: wilcox.test(c(0.01, -0.02, 0.03, -0.04, 0.05))
    expect(folds.get('f2')!.p).toBeCloseTo(0.03125, 12);
  });

  it('every-small: the relation on every dataset with fewer than 1000 rows (n_train + n_test)', () => {
    const r = evaluate(
      `s1,every-small,accuracy,A,>=,B,,,,
s2,every-small,accuracy,D,>,B,,,,
s3,every-small,info.classParents,A,<,B,,,,
`,
      mainRows(),
      MAIN,
      mainInfo(),
    );
    expect(verdicts(r)).toEqual({ s1: 'reproduced', s2: 'not reproduced', s3: 'not evaluable' });
    // d1..d4 have 500 rows, d5 and d6 2000. D − B on d1..d4: −0.005, +0.015, −0.025, +0.035.
    expect(r.get('s1')).toMatchObject({ a: 4, b: 4 });
    expect(r.get('s2')).toMatchObject({ a: 2, b: 4 });
    expect(r.get('s2')!.ours).toBe(
      'holds on 2 of 4 data sets with < 1000 rows; not on d1 (0.7950 vs 0.8000), d3 (0.7750 vs 0.8000)',
    );
    expect(r.get('s3')!.reason).toBe('no data set with fewer than 1000 rows has info.classParents of both A and B');
    const folds = evaluate('s4,every-small,accuracy,P,~,Q,,,,\n', foldRows(), ['P', 'Q']);
    expect(folds.get('s4')).toMatchObject({ verdict: 'not reproduced', a: 1, b: 2 });
    expect(folds.get('s4')!.ours).toContain('not on e2');
  });

  it('dataset-best: the highest (max) or lowest (min) value on one dataset', () => {
    const r = evaluate(
      `b1,dataset-best,accuracy,A,max,,d2,,,
b2,dataset-best,accuracy,D,max,,d2,,,
b3,dataset-best,accuracy,D,max,B;C,d2,,,
b4,dataset-best,accuracy,C,min,,d3,,,
b5,dataset-best,accuracy,A,max,,No. 22,,,
`,
      mainRows(),
      MAIN,
    );
    expect(verdicts(r)).toEqual({
      b1: 'reproduced',
      b2: 'not reproduced',
      b3: 'reproduced',
      b4: 'reproduced',
      b5: 'not evaluable',
    });
    // d2: A 0.82, D 0.815, B 0.80, C 0.78.
    expect(r.get('b2')).toMatchObject({ a: expect.closeTo(0.815, 12), b: expect.closeTo(0.82, 12) });
    expect(r.get('b2')!.reason).toBe('A is higher by 0.0050; paired bootstrap over 6 folds (2000 resamples, seeded)');
  });

  it('wilcoxon: two-sided exact signed-rank p over datasets below the threshold, in the stated direction', () => {
    const r = evaluate(
      `w1,wilcoxon,accuracy,A,>,B,,0.05,,
w2,wilcoxon,accuracy,A,>,B,,0.01,,
w3,wilcoxon,accuracy,A,<,B,,0.05,,
w4,wilcoxon,accuracy,D,~,B,,0.05,,
w5,wilcoxon,accuracy,A,<=,B,,0.05,,
w6,wilcoxon,accuracy,A,>=,B,,0.05,,
w7,wilcoxon,info.meanShd,A,<,B,,,,
w8,wilcoxon,info.apses,A,<,B,,0.05,,
`,
      mainRows(),
      MAIN,
      mainInfo(),
    );
    expect(verdicts(r)).toEqual({
      w1: 'reproduced',
      w2: 'not reproduced',
      w3: 'not reproduced',
      w4: 'reproduced',
      w5: 'not reproduced',
      w6: 'reproduced',
      w7: 'reproduced',
      w8: 'not evaluable',
    });
    expect(r.get('w1')!.p).toBeCloseTo(0.03125, 12);
    expect(r.get('w1')!.ours).toContain('exact, R⁺ = 21, R⁻ = 0');
    expect(r.get('w3')!.reason).toBe('significant at 0.05 but A higher; two-sided signed-rank test over 6 data sets');
    expect(r.get('w4')!.p).toBeCloseTo(0.84375, 12);
    // meanShd A − B = −1 … −6: all negative, p = 0.03125 < α = 0.05.
    expect(r.get('w7')).toMatchObject({ a: 5, b: 8.5, p: expect.closeTo(0.03125, 12) });
  });

  it('cell: a published number within the reference tolerance (scale and % as in cell files)', () => {
    const r = evaluate(
      `c1,cell,accuracy,A,,,d3,0.835,,
c2,cell,accuracy,A,,,d3,0.85,,
c3,cell,accuracy,A,,,d3,83%,,
c4,cell,info.meanShd,B,,,d2,7,,
c5,cell,accuracy,A,,,shuttle-small,0.9693,,
`,
      mainRows(),
      MAIN,
      mainInfo(),
    );
    expect(verdicts(r)).toEqual({
      c1: 'reproduced',
      c2: 'not reproduced',
      c3: 'reproduced',
      c4: 'reproduced',
      c5: 'not evaluable',
    });
    expect(r.get('c2')!.ours).toBe('0.8300 (−0.0200; 6 folds)');
    expect(r.get('c3')!.value).toBeCloseTo(0.83, 15);
  });

  it('cell: a metric undefined on one fold (NaN) leaves the method without a value there, as in the tables', () => {
    // AUC equal to accuracy, except A's fold 2 on d3, where it is undefined (a test fold without a class).
    const rows = mainRows().map((r) => ({
      ...r,
      auc: r.dataset === 'd3' && r.method === 'A' && r.fold === 2 ? Number.NaN : r.accuracy,
    }));
    const r = evaluate(
      `n1,cell,auc,A,,,d3,0.83,,
n2,cell,auc,B,,,d3,0.83,,
`,
      rows,
      MAIN,
    );
    expect(r.get('n1')!.verdict).toBe('not evaluable');
    expect(r.get('n1')!.reason).toContain('A has no');
    expect(r.get('n2')!.verdict).not.toBe('not evaluable');
  });

  it('rejects malformed claims with the file line', () => {
    const cases: [string, RegExp][] = [
      ['x,ranking,accuracy,A,>,B,,,,\n', /claims\.csv:2: kind: unknown claim kind 'ranking'/],
      [
        'x,mean,accuracy,A,max,B,,,,\n',
        /claims\.csv:2: relation: 'max' does not apply to kind mean \(use one of > < >= <= ~\)/,
      ],
      [
        'x,best-mean,accuracy,A,>,,,,,\n',
        /claims\.csv:2: relation: '>' does not apply to kind best-mean \(use one of max min\)/,
      ],
      ['x,mean,accuracy,A,>,,,,,\n', /claims\.csv:2: method_b: kind mean compares method_a with one method_b/],
      ['x,mean,accuracy,A,>,B,,0.1,,\n', /claims\.csv:2: value: kind mean with relation > takes no value/],
      ['x,posthoc,accuracy,A,<,B,,1.5,,\n', /claims\.csv:2: value: a significance threshold must be in \(0, 1\]/],
      ['x,dataset,accuracy,A,>,B,,,,\n', /claims\.csv:2: dataset: is required for kind dataset/],
      ['x,cell,accuracy,A,,,d1,,,\n', /claims\.csv:2: value: expected a number/],
      ['x,mean,auc_pr,A,>,B,,,,\n', /claims\.csv:2: metric: unknown metric 'auc_pr'/],
      [',mean,accuracy,,>,B,,,,\n', /claims\.csv:2: method_a: is required/],
    ];
    for (const [text, msg] of cases) expect(() => evaluate(text, mainRows(), MAIN)).toThrow(msg);
  });
});

describe('claims in the report', () => {
  it('renders a claims section with a verdict per claim and counts', async () => {
    const r = ref(
      HEADER +
        `T1,best-mean,accuracy,A,max,,,,Table 3,A is best
T2,mean,accuracy,B,>,A,,,§5,
T3,posthoc,accuracy,A,<,B-RAI,,0.10,Table 4,not implemented
`,
    );
    const rows = mainRows();
    const doc = await buildReport(reportInput(rows, MAIN, { reference: [r] }));
    const t = doc.tables.find((x) => x.id === 'reference-claims')!;
    expect(t.columns.map((c) => c.header)).toEqual(['id', 'source', 'claim', 'ours', 'verdict', 'why', 'note']);
    expect(t.rows.map((x) => [x.cells[0].text, x.cells[4].text])).toEqual([
      ['T1', 'reproduced'],
      ['T2', 'not reproduced'],
      ['T3', 'not evaluable'],
    ]);
    expect(t.rows[0].cells[2].text).toBe('A has the highest mean Accuracy over data sets');
    const md = renderMarkdown(doc);
    expect(md).toContain(
      '1 of 3 published claims reproduced, 1 not reproduced, 0 without our data, 1 not evaluable here.',
    );
    expect(md).toContain('1 reproduced, 1 not reproduced, 1 not evaluable here (claims.csv).');
    expect(parseXml(renderHtml(doc)).name).toBe('html');
  });

  it("several seeds: each claim says in how many seeds it was reproduced, with each seed's margin", async () => {
    // Seed 1 is the main table (A − B = +0.035 on average); seed 2 lowers A by 0.05 on every fold (A − B =
    // −0.015: not reproduced); seed 3 raises it by 0.01 (+0.045). T1 (A best) holds in seeds 1 and 3; T2
    // (B > A) only in seed 2.
    const shifted = (dA: number): ResultRow[] =>
      mainRows().map((r) =>
        r.method === 'A' ? { ...r, accuracy: r.accuracy + dA, zero_one_loss: 1 - r.accuracy - dA } : r,
      );
    const r = ref(
      HEADER +
        `T1,best-mean,accuracy,A,max,,,,Table 3,
T2,mean,accuracy,B,>,A,,,§5,
`,
    );
    const seed1 = mainRows();
    const seedRows = [
      { seed: '1', rows: seed1 },
      { seed: '2', rows: shifted(-0.05) },
      { seed: '3', rows: shifted(0.01) },
    ];
    const doc = await buildReport(reportInput(seed1, MAIN, { reference: [r], seedRows }));
    const t = doc.tables.find((x) => x.id === 'reference-claims')!;
    expect(t.columns.map((c) => c.header)).toEqual([
      'id',
      'source',
      'claim',
      'ours',
      'verdict',
      'across seeds',
      'why',
      'note',
    ]);
    // T1: a is A's mean, b the best of the others (D, 0.805): +0.030, −0.020, +0.040.
    expect(t.rows[0].cells[5].text).toBe(
      'reproduced in 2 of 3 seeds (margins: seed 1 +0.0300, seed 2 −0.0200, seed 3 +0.0400)',
    );
    // T2: B − A: −0.035, +0.015, −0.045.
    expect(t.rows[1].cells[5].text).toBe(
      'reproduced in 1 of 3 seeds (margins: seed 1 −0.0350, seed 2 +0.0150, seed 3 −0.0450)',
    );
    // The tables and the verdict column are the first seed's.
    expect(t.rows.map((x) => x.cells[4].text)).toEqual(['reproduced', 'not reproduced']);
    expect(renderMarkdown(doc)).toContain(
      'Across the 3 seeds (1, 2, 3): 0 claims reproduced in every seed, 2 in some, 0 in none.',
    );
    // One seed: no such column.
    const single = await buildReport(reportInput(seed1, MAIN, { reference: [r] }));
    expect(single.tables.find((x) => x.id === 'reference-claims')!.columns.map((c) => c.header)).not.toContain(
      'across seeds',
    );
  });

  it('evaluates the shipped SubbKB claims file on results with its method labels', () => {
    const file = join(ROOT, 'experiments', 'reference', 'subbkb-2022-claims.csv');
    expect(existsSync(file)).toBe(true);
    // SubbKB10 best everywhere; EBN within 0.005 of it on magic; NB, TAN, KB10, KB100 below.
    const acc: Record<string, number[]> = {
      NB: [0.7, 0.8, 0.75],
      TAN: [0.72, 0.82, 0.77],
      EBN: [0.74, 0.84, 0.845],
      KB10: [0.75, 0.85, 0.84],
      KB100: [0.76, 0.86, 0.83],
      SubbKB10: [0.78, 0.88, 0.85],
    };
    const ds = ['breast-cancer', 'car', 'magic'];
    const sizes = [280, 1720, 19020];
    const rows = Object.entries(acc).flatMap(([m, v]) =>
      ds.flatMap((d, i) => [0, 1].map((f) => row(d, m, f, v[i], sizes[i]))),
    );
    const r = evaluateReference(
      {
        file,
        path: 'subbkb-2022-claims.csv',
        title: null,
        methods: {},
        datasets: { 'No. 26': 'magic' },
        substitutes: {},
        scale: 1,
        tolerance: 0.01,
      },
      rows,
      Object.keys(acc),
      { ...DEFAULT_COMPARE, alpha: 0.1, control: 'SubbKB10' },
    );
    if (r.kind !== 'claims') throw new Error('expected the claims file to be read as claims');
    const by = new Map(r.claims.map((c) => [c.id, c]));
    expect(by.get('T3-1')!.verdict).toBe('reproduced'); // best mean accuracy
    expect(by.get('T3-6')!.verdict).toBe('reproduced'); // SubbKB10 > KB100 on average
    expect(by.get('T3-11')).toMatchObject({ verdict: 'reproduced', b: 1 }); // one small data set (breast-cancer)
    expect(by.get('T3-12')).toMatchObject({
      verdict: 'reproduced',
      a: expect.closeTo(0.85, 12),
      b: expect.closeTo(0.845, 12),
    });
    expect(by.get('T3-13')!.verdict).toBe('not evaluable'); // No. 20 is unknown
    expect(by.get('T4-8')!.reason).toContain("method 'B-RAI' is not in this experiment");
    expect(by.get('T8-1')!.reason).toBe('SubbKB10 stores no info.apses (no job of it has this structure_info key)');
    expect(
      r.claims.every((c) =>
        [
          'reproduced',
          'direction reproduced, not significant',
          'tie within noise',
          'not reproduced',
          'not evaluable',
        ].includes(c.verdict),
      ),
    ).toBe(true);
  });
});
