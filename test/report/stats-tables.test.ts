/**
 * The report's statistical tables for a fixed results set equal R's numbers. The results set is the
 * accuracy table of García, Fernández, Luengo & Herrera (2010) (scmamp `data.gh.2010`, 24 datasets ×
 * PDFC, NNEP, IS-CHC+1NN, FH-GBML), entered as one stored fold per dataset × method, so each per-dataset
 * mean is the published value. Expected values: R 4.2.2, as frozen in
 * ../shared/reference/orchestration-and-statistics.md §2.2 and §2.4 (and in test/stats/*).
 */
import { describe, expect, it } from 'vitest';
import { buildReport, type ReportInput } from '../../src/report/build.js';
import { DEFAULT_COMPARE, type CompareSpec } from '../../src/spec/report-sections.js';
import { readCsv } from '../../src/report/csv.js';
import { tableToCsv, type Table } from '../../src/report/table.js';
import { cliques } from '../../src/report/compare.js';
import type { MethodSpec } from '../../src/spec/load.js';
import type { ResultRow } from '../../src/store/db.js';
import { GH2010, GH2010_METHODS } from '../stats/fixtures.js';

function method(label: string): MethodSpec {
  return {
    kind: 'bnc',
    label,
    structure: { id: 'nb', params: {}, given: {} },
    estimator: { id: 'dirichlet', params: {}, given: {} },
  };
}

function rowsOf(matrix: number[][], methods: readonly string[]): ResultRow[] {
  return matrix.flatMap((r, i) =>
    r.map(
      (acc, j) =>
        ({
          experiment: 'gh2010',
          job_key: `${i}-${j}`,
          dataset: `d${String(i + 1).padStart(2, '0')}`,
          method: methods[j],
          structure: 'nb',
          estimator: 'dirichlet',
          repeat: 0,
          fold: 0,
          accuracy: acc,
          zero_one_loss: 1 - acc,
          rmse: 1 - acc,
          log_loss: 1 - acc,
          n_train: 100,
          n_test: 10,
          n_arcs: 0,
          train_ms: 1,
          predict_ms: 1,
        }) as ResultRow,
    ),
  );
}

async function report(compare: Partial<CompareSpec>) {
  const input: ReportInput = {
    experiment: 'gh2010',
    specFile: 'mem.yaml',
    specHash: '0'.repeat(64),
    settings: {},
    methods: GH2010_METHODS.map(method),
    rows: rowsOf(GH2010, GH2010_METHODS),
    expectedJobs: 96,
    failed: [],
    compare: { ...DEFAULT_COMPARE, metrics: ['accuracy'], ...compare },
    reference: [],
  };
  return buildReport(input);
}

/** The table as its CSV file reads back: header → column index, records as strings. */
function csv(t: Table | undefined) {
  expect(t).toBeDefined();
  const doc = readCsv(tableToCsv(t!), `${t!.id}.csv`);
  const col = (name: string): number => doc.header.indexOf(name.toLowerCase());
  return { rows: doc.records.map((r) => r.fields), col };
}

describe('report tables on García et al. (2010) data equal R', () => {
  it('Hommel post-hoc table against the control PDFC (SubbKB Table 4 layout)', async () => {
    const doc = await report({ control: 'PDFC', friedman: { tieCorrection: false } });
    const { rows, col } = csv(doc.tables.find((t) => t.id === 'posthoc-accuracy'));
    expect(rows.map((r) => r[0])).toEqual(['PDFC', 'NNEP', 'IS-CHC+1NN', 'FH-GBML']);
    const byMethod = new Map(rows.map((r) => [r[0], r]));
    // R: r <- colMeans(rankMatrix(data.gh.2010)); z <- (r[-1]-r[1])/sqrt(4*5/(6*24)); p <- 2*pnorm(-abs(z));
    //    p.adjust(p, "hommel") → 5.734685e-02 5.734685e-02 1.7098236e-04 (reference §2.2, vector B).
    const expected: Record<string, [number, number, number, number]> = {
      NNEP: [2.479167, 1.900658, 5.734685e-2, 5.734685e-2],
      'IS-CHC+1NN': [2.479167, 1.900658, 5.734685e-2, 5.734685e-2],
      'FH-GBML': [3.270833, 4.024922, 5.699412e-5, 1.7098236e-4],
    };
    expect(Number(byMethod.get('PDFC')![col('mean rank')])).toBeCloseTo(1.770833, 6);
    for (const [m, [rank, z, p, hommel]] of Object.entries(expected)) {
      const r = byMethod.get(m)!;
      expect(Number(r[col('mean rank')])).toBeCloseTo(rank, 6);
      expect(Number(r[col('z')])).toBeCloseTo(z, 6);
      expect(Number(r[col('p')]) / p).toBeCloseTo(1, 6);
      expect(Number(r[col('p (Hommel)')]) / hommel).toBeCloseTo(1, 6);
    }
    // Only FH-GBML is significant at 0.05 after Hommel, so only it is bold.
    const t = doc.tables.find((x) => x.id === 'posthoc-accuracy')!;
    expect(t.rows.map((r) => r.cells[4].bold ?? false)).toEqual([false, false, false, true]);
    // Holm separates from Hommel on this vector: NNEP 0.1146937 (R p.adjust(p, "holm")).
    const holm = await report({ control: 'PDFC', adjust: 'holm' });
    const h = csv(holm.tables.find((x) => x.id === 'posthoc-accuracy'));
    expect(Number(h.rows[1][h.col('p (Holm)')])).toBeCloseTo(0.1146937, 6);
  });

  it('Friedman / Iman–Davenport summary, with and without tie correction', async () => {
    const plain = await report({ control: 'PDFC', friedman: { tieCorrection: false } });
    const f = csv(plain.tables.find((t) => t.id === 'friedman'));
    // Demšar / scmamp friedmanTest: χ² = 16.225, p = 0.00101967; imanDavenportTest: F = 6.690722 (3, 69), p = 0.000497.
    expect(Number(f.rows[0][f.col('χ²')])).toBeCloseTo(16.225, 9);
    expect(Number(f.rows[0][f.col('p')])).toBeCloseTo(0.00101967, 7);
    expect(Number(f.rows[0][f.col('F (Iman–Davenport)')])).toBeCloseTo(6.690722, 5);
    expect(f.rows[0][f.col('df') + 3]).toBe('3;69');
    expect(Number(f.rows[0][f.col('p (F)')])).toBeCloseTo(0.000497, 6);
    // R friedman.test(as.matrix(data.gh.2010)): 16.36134454, p = 0.000956051.
    const corrected = await report({ control: 'PDFC' });
    const g = csv(corrected.tables.find((t) => t.id === 'friedman'));
    expect(Number(g.rows[0][g.col('χ²')])).toBeCloseTo(16.36134454, 7);
    expect(Number(g.rows[0][g.col('p')])).toBeCloseTo(0.000956051, 8);
  });

  it('Wilcoxon table with Hommel-adjusted p and the W/D/L sign-test table (PDFC vs each)', async () => {
    const doc = await report({ control: 'PDFC' });
    const w = csv(doc.tables.find((t) => t.id === 'wilcoxon-accuracy'));
    // R 4.2.2 wilcox.test(PDFC, m, paired = TRUE): V = 220.5, 244.5, 281.5; p = 0.0126098, 0.00723156037,
    // 0.0001818013969 (normal approximation with continuity correction: zeros/ties present);
    // p.adjust(·, "hommel") = 0.0126098, 0.0126098, 0.000545404 (reference §2.2).
    expect(w.rows.map((r) => r[w.col('b')])).toEqual(['NNEP', 'IS-CHC+1NN', 'FH-GBML']);
    expect(w.rows.map((r) => Number(r[w.col('V (R⁺)')]))).toEqual([220.5, 244.5, 281.5]);
    expect(w.rows.map((r) => r[w.col('W–D–L')])).toEqual(['15–1–8', '18–0–6', '20–0–4']);
    const p = w.rows.map((r) => Number(r[w.col('p')]));
    expect(p[0] / 0.0126098).toBeCloseTo(1, 5);
    expect(p[1] / 0.00723156037).toBeCloseTo(1, 8);
    expect(p[2] / 0.0001818013969).toBeCloseTo(1, 8);
    const adj = w.rows.map((r) => Number(r[w.col('p (Hommel)')]));
    expect(adj[0]).toBeCloseTo(p[0], 15);
    expect(adj[1]).toBeCloseTo(p[0], 15);
    expect(adj[2]).toBeCloseTo(3 * p[2], 15);
    expect(adj[2] / 0.000545404).toBeCloseTo(1, 5);

    const s = csv(doc.tables.find((t) => t.id === 'wdl'));
    // R binom.test(15, 23), binom.test(18, 24), binom.test(20, 24): 0.21004, 0.0226558, 0.00154388 (reference §2.4);
    // exactly 2·Σ_{k≥w} C(n,k)/2^n = 0.21003961563, 0.02265584469, 0.00154387951 (symmetric p = 1/2).
    expect(s.rows.map((r) => r[0])).toEqual(['PDFC vs NNEP', 'PDFC vs IS-CHC+1NN', 'PDFC vs FH-GBML']);
    const sp = s.rows.map((r) => Number(r[s.col('Accuracy p')]));
    expect(sp[0]).toBeCloseTo(0.21003961563, 10);
    expect(sp[1]).toBeCloseTo(0.02265584469, 10);
    expect(sp[2]).toBeCloseTo(0.00154387951, 10);
    const t = doc.tables.find((x) => x.id === 'wdl')!;
    expect(t.rows.map((r) => r.cells[1].bold)).toEqual([false, true, true]);
  });

  it("'best' control is the lowest mean rank; the accuracy table bolds the best per dataset and ranks PDFC first", async () => {
    const doc = await report({});
    expect(doc.comparison.control).toBe('PDFC');
    const t = doc.tables.find((x) => x.id === 'accuracy')!;
    // Dataset 1: 0.752 0.773 0.785 0.795 → FH-GBML bold; dataset 15: 0.963 0.963 0.954 0.926 → a tie, both bold.
    expect(t.rows[0].cells.map((c) => c.bold ?? false)).toEqual([false, false, false, false, true]);
    expect(t.rows[14].cells.map((c) => c.bold ?? false)).toEqual([false, true, true, false, false]);
    const rankRow = t.rows[t.rows.length - 1];
    expect(rankRow.cells.slice(1).map((c) => Number(c.value))).toEqual(
      [1.770833333333333, 2.479166666666667, 2.479166666666667, 3.270833333333333].map((x) => expect.closeTo(x, 12)),
    );
  });

  it('digits rounds the per-dataset means before every test and says so', async () => {
    const doc = await report({ control: 'PDFC', digits: 1 });
    const s = csv(doc.tables.find((t) => t.id === 'wdl'));
    // Rounded to one decimal most pairs tie; recount by hand from GH2010 with Number(x.toFixed(1)).
    const r1 = (x: number): number => Number(x.toFixed(1));
    let w = 0;
    let d = 0;
    let l = 0;
    for (const row of GH2010) {
      const diff = r1(row[0]) - r1(row[1]);
      if (diff === 0) d++;
      else if (diff > 0) w++;
      else l++;
    }
    expect(s.rows[0][1]).toBe(`${w}–${d}–${l}`);
    expect(d).toBeGreaterThan(1);
    const settings = doc.sections
      .find((x) => x.title === 'Statistical comparisons')!
      .blocks.find((b) => b.kind === 'list');
    expect(settings && settings.kind === 'list' ? settings.items[0] : '').toContain(
      'rounded to 1 decimals before every test',
    );
  });
});

describe('critical-difference groups', () => {
  it('García & Herrera (2008) mean ranks with the Nemenyi CD 1.113609 (worked by hand)', () => {
    // Ranks C4.5 2.1, kNN 3.25, NB 2.2, Kernel 4.3333, CN2 3.1167 (sum 63, 97.5, 66, 130, 93.5 over 30);
    // sorted C4.5 < NB < CN2 < kNN < Kernel. From C4.5: 2.1 + 1.1136 = 3.2136 reaches NB and CN2, not kNN;
    // from NB: 3.3136 reaches CN2 and kNN; from CN2: only kNN (contained in the previous group);
    // from kNN: 4.3636 reaches Kernel.
    const ranks = [63 / 30, 97.5 / 30, 66 / 30, 130 / 30, 93.5 / 30];
    expect(cliques(ranks, 1.113609)).toEqual([
      [0, 2, 4],
      [2, 4, 1],
      [1, 3],
    ]);
    expect(cliques(ranks, 0.05)).toEqual([]);
    expect(cliques(ranks, 10)).toEqual([[0, 2, 4, 1, 3]]);
  });
});
