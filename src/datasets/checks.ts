/**
 * Data checks before a run (`plan --check-data`, and a short summary in every `plan`/`run` for a dataset that
 * is not a shipped registry dataset): what Weka's and mlr3's task summaries show and a careful user fixes
 * before spending CPU on it. Every finding is a warning with its fix; nothing here changes the data.
 *
 * - all-missing column: every row's value is missing (whatever type it was read as);
 * - constant column: one distinct value among the rows that have one;
 * - near-constant column: caret's nearZeroVar rule (Kuhn 2008): the most frequent value is more than
 *   `freqCut` (95/5 = 19) times as frequent as the second, and the distinct values are at most `uniqueCut`
 *   (10 %) of the rows that have a value;
 * - missing values per column (count and share);
 * - a class with fewer rows than folds: under (stratified) k-fold CV some test folds have none of it, and
 *   per-fold metrics of that class are undefined there;
 * - an integer-coded numeric column that looks categorical: every value a whole number and at most
 *   `maxCodes` (10) distinct values, so it was most likely a category code and discretizing it merges codes.
 */
import type { RawColumn, RawTable } from './table.js';

type DataCheckKind = 'all-missing' | 'constant' | 'near-constant' | 'missing' | 'rare-class' | 'integer-coded';

interface DataCheck {
  readonly kind: DataCheckKind;
  /** The column (or class label for 'rare-class'). */
  readonly column: string;
  /** One line: what was found, with numbers. */
  readonly what: string;
  /** One line: how to fix it in the spec. */
  readonly fix: string;
}

interface DataCheckOptions {
  /** Folds per repeat of the spec's resampling (1 for holdout or a folds file). */
  readonly folds: number;
  readonly freqCut?: number;
  readonly uniqueCut?: number;
  readonly maxCodes?: number;
  /** How the dataset is named in a spec (for the `ignore:` / `categorical:` fixes). */
  readonly dataset: string;
  /** Column types declared in the spec or registry: a declared column is not reported as integer-coded. */
  readonly declared?: Readonly<Record<string, string>>;
}

const NEAR_ZERO_FREQ_CUT = 95 / 5;
const NEAR_ZERO_UNIQUE_CUT = 0.1;
const INTEGER_CODE_MAX_VALUES = 10;

/** Per value (code or distinct-value id) how many rows hold it, and how many rows are missing. */
function valueCounts(c: RawColumn): { counts: Int32Array; missing: number } {
  const ids = c.type === 'numeric' ? c.ids : c.codes;
  const k = c.type === 'numeric' ? c.distinct.length : c.labels.length;
  const counts = new Int32Array(k);
  let missing = 0;
  for (let i = 0; i < ids.length; i++) {
    const v = ids[i];
    if (v < 0) missing++;
    else counts[v]++;
  }
  return { counts, missing };
}

function pct(x: number, n: number): string {
  const p = (100 * x) / n;
  return p >= 10 || p === 0 ? `${Math.round(p)}%` : `${Number(p.toPrecision(2))}%`;
}

/** The findings for one table, in column order, the class last. */
export function checkTable(t: RawTable, opts: DataCheckOptions): DataCheck[] {
  const freqCut = opts.freqCut ?? NEAR_ZERO_FREQ_CUT;
  const uniqueCut = opts.uniqueCut ?? NEAR_ZERO_UNIQUE_CUT;
  const maxCodes = opts.maxCodes ?? INTEGER_CODE_MAX_VALUES;
  const out: DataCheck[] = [];
  const n = t.n;
  const ignore = (col: string): string => `leave it out: {file: ..., ignore: [${col}]} in the entry of ${opts.dataset}`;
  for (const c of t.columns) {
    const { counts, missing } = valueCounts(c);
    const present = n - missing;
    if (present === 0) {
      out.push({
        kind: 'all-missing',
        column: c.name,
        what: `column '${c.name}' has no value in any of the ${n} rows (read as ${c.type})`,
        fix: ignore(c.name),
      });
      continue;
    }
    let seen = 0;
    let first = 0;
    let second = 0;
    for (const x of counts) {
      if (x === 0) continue;
      seen++;
      if (x > first) {
        second = first;
        first = x;
      } else if (x > second) second = x;
    }
    if (seen === 1) {
      out.push({
        kind: 'constant',
        column: c.name,
        what: `column '${c.name}' is constant (one value in all ${present} rows that have one)`,
        fix: `it cannot change a prediction but a structure learner may still give it parents; ${ignore(c.name)}`,
      });
    } else if (first / second > freqCut && seen / present <= uniqueCut) {
      out.push({
        kind: 'near-constant',
        column: c.name,
        what: `column '${c.name}' is nearly constant: its commonest value is in ${first} of ${present} rows, ${Number((first / second).toFixed(1))} times the next (caret's nearZeroVar rule: > ${Number(freqCut.toFixed(2))})`,
        fix: `check it is meant to be there; ${ignore(c.name)}`,
      });
    }
    if (missing > 0) {
      out.push({
        kind: 'missing',
        column: c.name,
        what: `column '${c.name}' is missing in ${missing} of ${n} rows (${pct(missing, n)})`,
        fix: `preprocessing.missing says how they are treated (as-value, available-case, drop-rows, remove-rows, em)`,
      });
    }
    if (
      c.type === 'numeric' &&
      opts.declared?.[c.name] === undefined &&
      c.distinct.length <= maxCodes &&
      c.distinct.length > 1
    ) {
      if (c.distinct.every((v) => Number.isInteger(v))) {
        out.push({
          kind: 'integer-coded',
          column: c.name,
          what: `column '${c.name}' was read as numeric but holds only ${c.distinct.length} whole numbers (${[...c.distinct].join(', ')}): a category code?`,
          fix: `if its numbers are codes, declare it: {file: ..., categorical: [${c.name}]}; if it is a count or a scale, declare numeric: [${c.name}] to keep it so`,
        });
      }
    }
  }
  if (opts.folds > 1) {
    const classCounts = new Int32Array(t.classLabels.length);
    for (let i = 0; i < t.classColumn.length; i++) classCounts[t.classColumn[i]]++;
    t.classLabels.forEach((label, k) => {
      const rows = classCounts[k];
      if (rows < opts.folds) {
        out.push({
          kind: 'rare-class',
          column: label,
          what: `class '${label}' has ${rows} row${rows === 1 ? '' : 's'}, fewer than the ${opts.folds} folds: ${opts.folds - rows} test folds have none of it`,
          fix: `use fewer folds (resampling: {folds: ${Math.max(2, rows)}}), or merge or drop that class in the file`,
        });
      }
    });
  }
  return out;
}

/** The checks of a dataset as a plan holds it: its loaded table and its folds per repeat. */
export function checkDataset(
  table: RawTable,
  handle: { readonly name: string; readonly columnTypes?: Readonly<Record<string, string>> },
  folds: number,
): DataCheck[] {
  return checkTable(table, {
    dataset: handle.name,
    folds,
    ...(handle.columnTypes ? { declared: handle.columnTypes } : {}),
  });
}

/** One line per dataset for `plan`/`run`: the count of each kind, and where the details are. */
export function checkSummary(dataset: string, checks: readonly DataCheck[]): string | undefined {
  const serious = checks.filter((c) => c.kind !== 'missing');
  const missing = checks.filter((c) => c.kind === 'missing').length;
  if (checks.length === 0) return undefined;
  const byKind = new Map<DataCheckKind, string[]>();
  for (const c of serious) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c.column]);
  const parts = [...byKind].map(
    ([k, cols]) => `${k}: ${cols.slice(0, 4).join(', ')}${cols.length > 4 ? ` (+${cols.length - 4})` : ''}`,
  );
  if (missing > 0) parts.push(`${missing} column${missing === 1 ? '' : 's'} with missing values`);
  return `${dataset}: data check: ${parts.join('; ')} (plan --check-data: details and fixes)`;
}

/** The lines of `plan --check-data` for one dataset. */
export function checkLines(dataset: string, checks: readonly DataCheck[]): string[] {
  if (checks.length === 0) return [`${dataset}: data check: nothing to report`];
  const lines = [`${dataset}: data check: ${checks.length} finding${checks.length === 1 ? '' : 's'}`];
  for (const c of checks) lines.push(`  warning: ${c.what}`, `    fix: ${c.fix}`);
  return lines;
}
