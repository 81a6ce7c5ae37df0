/**
 * Per-dataset tests on the folds, for "is TAN better than NB on my data?": the corrected resampled t-test
 * (Nadeau & Bengio 2003) of every method against the base column with Weka Experimenter's markers, and,
 * when a dataset was resampled by 5 × 2-fold CV, Dietterich's 5×2cv t-test and Alpaydin's F-test per pair.
 */
import type { ResultRow } from '../../store/db.js';
import { correctedResampledTTest, fiveByTwoCvTests } from '../../stats/resampled.js';
import type { Block, Section } from '../document.js';
import type { MetricComparison } from '../compare.js';
import type { StatsSectionContext } from '../context.js';
import { attempt, cols } from './kit.js';
import { cell, fixed, formatP, type TableRow } from '../table.js';
import { cellKey } from '../../util/keys.js';

interface FoldPairs {
  /** Scores of a and b on the folds both have, ordered by (repeat, fold). */
  readonly a: number[];
  readonly b: number[];
  readonly repeats: number[];
  readonly folds: number[];
  /** Mean n_test / n_train and n_test / (n_test + n_train) over a's paired folds. */
  readonly testTrainRatio: number;
  readonly testFraction: number;
}

/** The paired fold scores of methods a and b on one dataset (folds matched by repeat and fold). */
/** Rows by dataset and method, built once per result set (the sections ask for every dataset × pair). */
const rowIndex = new WeakMap<readonly ResultRow[], Map<string, ResultRow[]>>();

function rowsOf(rows: readonly ResultRow[], dataset: string, method: string): readonly ResultRow[] {
  let index = rowIndex.get(rows);
  if (!index) {
    index = new Map();
    for (const r of rows) {
      const k = cellKey(r.dataset, r.method);
      let list = index.get(k);
      if (!list) index.set(k, (list = []));
      list.push(r);
    }
    rowIndex.set(rows, index);
  }
  return index.get(cellKey(dataset, method)) ?? [];
}

export function foldPairs(
  rows: readonly ResultRow[],
  key: MetricComparison['metric']['key'],
  dataset: string,
  a: string,
  b: string,
): FoldPairs {
  const byFold = (method: string): Map<string, ResultRow> =>
    new Map(rowsOf(rows, dataset, method).map((r) => [`${r.repeat}:${r.fold}`, r]));
  const ra = byFold(a);
  const rb = byFold(b);
  const keys = [...ra.keys()].filter((k) => rb.has(k));
  keys.sort((x, y) => {
    const [r1, f1] = x.split(':').map(Number) as [number, number];
    const [r2, f2] = y.split(':').map(Number) as [number, number];
    return r1 - r2 || f1 - f2;
  });
  let nTest = 0;
  let nTrain = 0;
  for (const k of keys) {
    nTest += Number(ra.get(k)!.n_test);
    nTrain += Number(ra.get(k)!.n_train);
  }
  return {
    a: keys.map((k) => Number(ra.get(k)![key])),
    b: keys.map((k) => Number(rb.get(k)![key])),
    repeats: keys.map((k) => ra.get(k)!.repeat),
    folds: keys.map((k) => ra.get(k)!.fold),
    testTrainRatio: nTrain > 0 ? nTest / nTrain : NaN,
    testFraction: nTest + nTrain > 0 ? nTest / (nTest + nTrain) : NaN,
  };
}

/** The 5 × 2 layout of paired folds, or null when the folds are not 5 repeats of 2-fold CV. */
function fiveByTwo(p: FoldPairs): { a: number[][]; b: number[][] } | null {
  if (p.a.length !== 10) return null;
  const reps = [...new Set(p.repeats)];
  if (reps.length !== 5) return null;
  const a: number[][] = [];
  const b: number[][] = [];
  for (const r of reps) {
    const idx = p.repeats.flatMap((x, i) => (x === r ? [i] : []));
    if (idx.length !== 2) return null;
    a.push(idx.map((i) => p.a[i]));
    b.push(idx.map((i) => p.b[i]));
  }
  return { a, b };
}

/** The base column of the Weka-style table: the control, or the first method. */
function baseMethod(ctx: StatsSectionContext, m: MetricComparison): string | undefined {
  return ctx.comparison.control ?? m.methods[0];
}

export function singleDatasetSections(ctx: StatsSectionContext): Section[] {
  const s = ctx.comparison.settings;
  const blocks: Block[] = [];
  for (const m of ctx.comparison.metrics) {
    const base = baseMethod(ctx, m);
    if (!base) continue;
    const others = m.table.methods.filter((x) => x !== base);
    const baseIdx = m.table.methods.indexOf(base);
    const counts = others.map(() => ({ v: 0, tie: 0, star: 0 }));
    const rows: TableRow[] = [];
    const detail: TableRow[] = [];
    const notes: string[] = [];
    const d = m.metric.digits;
    m.table.datasets.forEach((ds, i) => {
      const baseCell = m.table.cells[i][baseIdx];
      // Mean ± sd over the folds, as Weka's Experimenter prints them (its "show std. deviations"); in the CSV
      // the sd and the v/* mark are columns of their own beside the mean.
      const msd = (x: { mean: number; sd: number }): string => `${fixed(x.mean, d)} ± ${fixed(x.sd, d)}`;
      const cells = [
        cell(ds),
        baseCell
          ? cell(msd(baseCell), { value: baseCell.mean, extra: { sd: baseCell.sd } })
          : cell('–', { value: null }),
      ];
      others.forEach((o, j) => {
        const c = m.table.cells[i][m.table.methods.indexOf(o)];
        if (!c) {
          cells.push(cell('–', { value: null }));
          return;
        }
        const fp = foldPairs(ctx.statRows, m.metric.key, ds, o, base);
        if (fp.a.length < 2) {
          notes.push(`${ds}, ${o}: fewer than 2 paired folds, no per-dataset test.`);
          cells.push(cell(msd(c), { value: c.mean, extra: { sd: c.sd, mark: '' } }));
          return;
        }
        const t = attempt(notes, `${ds}, ${o}`, () => correctedResampledTTest(fp.a, fp.b, fp.testTrainRatio, s.alpha));
        if (!t) {
          cells.push(cell(msd(c), { value: c.mean, extra: { sd: c.sd, mark: '' } }));
          return;
        }
        const better = t.significance !== 0 && (t.significance === 1) === m.metric.higherIsBetter;
        const marker = t.significance === 0 ? '' : better ? ' v' : ' *';
        if (marker === ' v') counts[j].v++;
        else if (marker === ' *') counts[j].star++;
        else counts[j].tie++;
        cells.push(cell(`${msd(c)}${marker}`, { value: c.mean, extra: { sd: c.sd, mark: marker.trim() } }));
        detail.push({
          cells: [
            cell(ds),
            cell(o),
            cell(String(t.n), { value: t.n }),
            cell(fixed(t.testTrainRatio, 4), { value: t.testTrainRatio }),
            cell(fixed(t.meanDifference, d + 1), { value: t.meanDifference }),
            cell(fixed(t.t, 3), { value: t.t }),
            cell(formatP(t.p), { value: t.p, bold: t.p < s.alpha }),
            cell(marker.trim() || '–', { value: marker.trim() }),
          ],
        });
      });
      rows.push({ cells });
    });
    if (detail.length === 0 && notes.length === 0) continue;
    // A summary row: in every rendering, but in the CSV apart from the datasets (<table>-summary.csv).
    rows.push({
      ruleAbove: true,
      summary: true,
      cells: [
        cell('(v/ /*)', { italic: true }),
        cell('', { value: null }),
        ...counts.map((c) => cell(`(${c.v}/${c.tie}/${c.star})`, { value: `${c.v}/${c.tie}/${c.star}` })),
      ],
    });
    blocks.push(
      ...ctx.addTable({
        id: ctx.tableId(`resampled-t-${m.metric.key}`),
        caption: `${m.metric.title} (${m.metric.higherIsBetter ? 'higher' : 'lower'} is better): per-dataset mean ± sd over the folds, each method against ${base} (first column) by the corrected resampled t-test (Nadeau & Bengio 2003, as Weka's Experimenter) on the paired folds at α = ${s.alpha}: v = significantly better than ${base}, * = significantly worse (Weka marks larger/smaller; here the marks follow the metric's direction). Last row: (better/no difference/worse) counts.`,
        columns: [
          { header: 'dataset', align: 'l' },
          { header: base, align: 'r', csvExtra: ['sd'] },
          ...others.map((o) => ({ header: o, align: 'r' as const, csvExtra: ['sd', 'mark'] })),
        ],
        rows,
        notes,
      }),
    );
    blocks.push(
      ...ctx.addTable({
        id: ctx.tableId(`resampled-t-detail-${m.metric.key}`),
        caption: `${m.metric.title}: the corrected resampled t-tests of the table above: J paired folds, n_test/n_train, mean of method − ${base} over the folds, t with J − 1 df (variance × (1/J + n_test/n_train)), two-sided p; bold: p < ${s.alpha}.`,
        columns: [
          ...cols('dataset:l', 'method:l', 'J', 'n_test/n_train'),
          // ASCII: a CSV header is read by tools that choke on a Unicode minus.
          { header: `mean difference (method - ${base})`, align: 'r' },
          ...cols('t', 'p', 'mark:c'),
        ],
        rows: detail,
      }),
    );

    // Weka Experimenter's ranking: every method against every other on every dataset by the same corrected
    // resampled t-test; wins (>) and losses (<) count significant differences, ranked by wins − losses.
    const methodsAll = m.table.methods;
    const wins = methodsAll.map(() => 0);
    const losses = methodsAll.map(() => 0);
    let tested = 0;
    for (const ds of m.table.datasets) {
      for (let i = 0; i < methodsAll.length; i++) {
        for (let j = i + 1; j < methodsAll.length; j++) {
          const fp = foldPairs(ctx.statRows, m.metric.key, ds, methodsAll[i], methodsAll[j]);
          if (fp.a.length < 2) continue;
          let t;
          try {
            t = correctedResampledTTest(fp.a, fp.b, fp.testTrainRatio, s.alpha);
          } catch {
            continue; // reported per dataset in the table above
          }
          tested++;
          if (t.significance === 0) continue;
          const iBetter = (t.significance === 1) === m.metric.higherIsBetter;
          if (iBetter) {
            wins[i]++;
            losses[j]++;
          } else {
            wins[j]++;
            losses[i]++;
          }
        }
      }
    }
    if (tested > 0 && methodsAll.length > 1) {
      const order = methodsAll
        .map((_, i) => i)
        .sort((a, b) => wins[b] - losses[b] - (wins[a] - losses[a]) || wins[b] - wins[a] || a - b);
      blocks.push(
        ...ctx.addTable({
          id: ctx.tableId(`ranking-${m.metric.key}`),
          caption: `${m.metric.title}: ranking as Weka's Experimenter makes it: each method against every other on every dataset by the corrected resampled t-test at α = ${s.alpha}; > = significant wins, < = significant losses (in the metric's direction), ranked by wins − losses.`,
          columns: cols('rank', 'wins - losses', 'wins (>)', 'losses (<)', 'method:l'),
          rows: order.map((i, r) => ({
            cells: [
              cell(String(r + 1), { value: r + 1 }),
              cell(String(wins[i] - losses[i]), { value: wins[i] - losses[i] }),
              cell(String(wins[i]), { value: wins[i] }),
              cell(String(losses[i]), { value: losses[i] }),
              cell(methodsAll[i]),
            ],
          })),
        }),
      );
    }

    // Dietterich's 5×2cv t-test and Alpaydin's F-test on the datasets resampled by 5 × 2-fold CV.
    const fiveRows: TableRow[] = [];
    const fiveNotes: string[] = [];
    for (const ds of m.table.datasets) {
      for (const p of m.pairs) {
        const layout = fiveByTwo(foldPairs(ctx.statRows, m.metric.key, ds, p.a, p.b));
        if (!layout) continue;
        const r = attempt(fiveNotes, `${ds}, ${p.a} vs ${p.b}`, () => fiveByTwoCvTests(layout.a, layout.b));
        if (!r) continue;
        fiveRows.push({
          cells: [
            cell(ds),
            cell(p.a),
            cell(p.b),
            cell(fixed(r.t, 3), { value: r.t }),
            cell(formatP(r.tP), { value: r.tP, bold: r.tP <= s.alpha }),
            cell(fixed(r.f, 3), { value: r.f }),
            cell(formatP(r.fP), { value: r.fP, bold: r.fP <= s.alpha }),
          ],
        });
      }
    }
    if (fiveRows.length) {
      blocks.push(
        ...ctx.addTable({
          id: ctx.tableId(`five-by-two-${m.metric.key}`),
          caption: `${m.metric.title}: 5×2cv tests of a against b on each dataset resampled by 5 repeats of 2-fold CV: Dietterich's (1998) paired t (df 5, from the first fold of the first repeat) and Alpaydin's (1999) combined F (df 10, 5); bold: p ≤ ${s.alpha}.`,
          columns: cols('dataset:l', 'a:l', 'b:l', 't (5×2cv)', 'p (t)', 'F (5×2cv)', 'p (F)'),
          rows: fiveRows,
          notes: fiveNotes,
        }),
      );
    }
  }
  return blocks.length ? [{ title: 'Per-dataset tests on the folds', level: 3, blocks }] : [];
}
