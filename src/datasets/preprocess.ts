/**
 * From a RawTable to the DiscreteData every learner reads, fitted on training rows only.
 *
 * Rules (all decided here, once, so train and test transforms agree):
 * - Numeric columns are discretised with cuts fitted on the training rows' non-missing values
 *   (discretize.ts). Test values outside the training range fall in the outer intervals, which are open.
 *   A numeric column with method 'none' is a UserError.
 * - Categorical labels are the whole table's label set (declared ARFF values or values seen anywhere in
 *   the file), not just those seen in the training rows: a value absent from training simply has zero
 *   training counts and the estimator's prior covers it. Cardinalities therefore do not vary by fold.
 * - missing 'as-value': a column gets an extra last category "?" when the table has a missing value in
 *   that column anywhere (in any row, training or not). This depends only on the table, so every fold
 *   and both transforms see the same cardinalities; missing entries are coded as that category.
 * - missing 'drop-rows': trainRows() lists the training rows with no missing attribute value; cuts are
 *   fitted on those. Codes stay MISSING in transformed data (test rows keep them, the model marginalises).
 *   Pass trainRows() (not the original training rows) to transform for the training data.
 * - missing 'available-case': codes stay MISSING in train and test; learners count each family over the
 *   rows where it is observed.
 * - missing 'em': as 'available-case' here (codes stay MISSING; structure learners count available case);
 *   the runner then fits CPT estimators (mle, dirichlet, eap) by EM (src/bn/em.ts).
 * - missing 'remove-rows': rows with a missing attribute value are removed from the whole data set before
 *   the split (the planner splits completeRows(table) only), so training and test rows are complete; here it acts
 *   as 'drop-rows' (a no-op on complete training rows).
 * - Attributes that end up with a single value are kept (they do not change any posterior).
 */
import {
  codeColumn,
  forEachRowChunk,
  MISSING,
  rowCount,
  rowList,
  viewedData,
  type CodeColumn,
  type DiscreteData,
  type RowSet,
} from '../bn/data.js';
import { UserError } from '../util/errors.js';
import {
  applyCuts,
  cutLabels,
  DEFAULT_EQUAL_FREQUENCY_BINS,
  fitDiscretizerCoded,
  type DiscretizeMethod,
} from './discretize.js';
import type { RawColumn, RawTable } from './table.js';
import type { EmSettings } from '../bn/em.js';

type MissingPolicy = 'as-value' | 'drop-rows' | 'available-case' | 'remove-rows' | 'em';

export interface PreprocessOptions {
  readonly discretize: { readonly method: DiscretizeMethod; readonly bins?: number };
  readonly missing: MissingPolicy;
  /** missing 'em' only: the EM settings (src/bn/em.ts), completed with their defaults by the spec loader. */
  readonly em?: EmSettings;
}

/** JSON-able record of what was fitted. */
export interface PreprocessSummary {
  readonly dataset: string;
  readonly discretize: { readonly method: DiscretizeMethod; readonly bins?: number };
  readonly missing: MissingPolicy;
  /** Training rows used for fitting (after 'drop-rows' / 'remove-rows' filtering) and how many were removed. */
  readonly trainRows: number;
  readonly droppedTrainRows: number;
  /** Cut points per numeric attribute. */
  readonly cuts: Record<string, number[]>;
  /** Attributes that received the extra "?" category ('as-value' only). */
  readonly missingCategory: string[];
}

export interface Preprocessor {
  readonly options: PreprocessOptions;
  /** Training rows to learn from: the given ones, minus rows with a missing value under 'drop-rows' / 'remove-rows'. */
  trainRows(): Int32Array;
  /** The same rows as trainRows(), as given (no list of row numbers is made for a LabelledRows set). */
  trainSet(): RowSet;
  /** Discrete view of rows of table (the table the preprocessor was fitted on, or one with the same schema). */
  transform(table: RawTable, rows: ArrayLike<number>): DiscreteData;
  /**
   * The same data as transform(table, rows) for ascending `rows`, as a row view (src/bn/data.ts, viewedData):
   * every column is the table's own, read through a map of its codes where they change (the bin of each
   * distinct value of a numeric column, the missing-value category), and nothing is copied per row until a
   * learner reads `columns`.
   */
  view(table: RawTable, rows: RowSet): DiscreteData;
  describe(): PreprocessSummary;
  /** Each column's cut points (null for a categorical column), as fitPreprocessor's `known` takes them. */
  cuts(): (number[] | null)[];
}

/** The discretization methods (the spec's schema lists these). */
export const DISCRETIZE_METHODS: readonly DiscretizeMethod[] = ['mdl', 'median', 'equal-frequency', 'none'];
/** The missing-value policies (the spec's schema lists these). */
export const MISSING_POLICIES: readonly MissingPolicy[] = [
  'as-value',
  'drop-rows',
  'available-case',
  'remove-rows',
  'em',
];
const METHODS = DISCRETIZE_METHODS;
const POLICIES = MISSING_POLICIES;

/**
 * The rules of `preprocessing.discretize`, in one place: what is wrong with it (the field under
 * preprocessing.discretize and the message), or undefined. The spec loader reports it at its line.
 */
export function discretizeProblem(d: {
  readonly method: unknown;
  readonly bins?: unknown;
}): { readonly field: 'method' | 'bins'; readonly what: string } | undefined {
  if (!METHODS.some((m) => m === d.method)) {
    return { field: 'method', what: `unknown method '${String(d.method)}' (known: ${METHODS.join(', ')})` };
  }
  const b = d.bins;
  if (b === undefined) return undefined;
  if (typeof b !== 'number' || !Number.isInteger(b) || b < 2) {
    return { field: 'bins', what: `must be an integer >= 2, got ${String(b)}` };
  }
  if (d.method !== 'equal-frequency') return { field: 'bins', what: 'only applies to equal-frequency' };
  return undefined;
}

/** A numeric column under `discretize: none`: the one message, wherever it is found (plan, or a fit). */
export function undiscretizedColumnMessage(dataset: string, column: string): string {
  return (
    `dataset ${dataset}: column '${column}' is numeric; set preprocessing.discretize to mdl, median or equal-frequency, ` +
    `or, if its numbers are category codes, declare it in the dataset entry: {file: ..., categorical: [${column}]}`
  );
}

interface TableFacts {
  /** Per column: does any row have a missing value? */
  readonly hasMissing: boolean[];
}

// Tables are loaded once per worker and preprocessed once per fold; scan each column only once.
const facts = new WeakMap<RawTable, TableFacts>();

function tableFacts(table: RawTable): TableFacts {
  let f = facts.get(table);
  if (!f) {
    f = { hasMissing: table.columns.map((c) => (c.type === 'numeric' ? c.ids : c.codes).includes(-1)) };
    facts.set(table, f);
  }
  return f;
}

interface Plan {
  readonly column: RawColumn;
  /** Cut points for numeric columns. */
  readonly cuts: number[] | null;
  readonly labels: string[];
  /** Code used for missing values: the "?" category, or MISSING. */
  readonly missingCode: number;
  /** A numeric column's bin of each distinct value, computed once (test rows are coded a chunk at a time). */
  bins?: Int32Array;
}

function validate(opts: PreprocessOptions): void {
  const problem = discretizeProblem(opts.discretize ?? { method: undefined });
  if (problem) throw new UserError(`preprocessing.discretize.${problem.field}: ${problem.what}`);
  if (!POLICIES.includes(opts.missing)) {
    throw new UserError(
      `preprocessing.missing: unknown policy '${String(opts.missing)}' (known: ${POLICIES.join(', ')})`,
    );
  }
}

/** The rows (of `rows`, default every row of the table) without any missing attribute value, ascending if `rows` is. */
export function completeRows(
  table: RawTable,
  rows: RowSet = Int32Array.from({ length: table.n }, (_, i) => i),
): Int32Array {
  const out = new Int32Array(rowCount(rows));
  let k = 0;
  forEachRowChunk(rows, (chunk) => {
    outer: for (let i = 0; i < chunk.length; i++) {
      const r = chunk[i];
      for (const c of table.columns) {
        if ((c.type === 'numeric' ? c.ids : c.codes)[r] === -1) continue outer;
      }
      out[k++] = r;
    }
  });
  return out.slice(0, k);
}

/**
 * `known`: the cut points of every column (null for a categorical one) that fitting the same table on the
 * same rows with the same options gave before (datasets/fold-cuts.ts keeps them by content); used instead
 * of fitting the discretizer again. Anything else is fitted.
 */
export function fitPreprocessor(
  table: RawTable,
  trainRows: RowSet,
  opts: PreprocessOptions,
  known?: readonly (readonly number[] | null)[],
): Preprocessor {
  validate(opts);
  const method = opts.discretize.method;
  const bins = method === 'equal-frequency' ? (opts.discretize.bins ?? DEFAULT_EQUAL_FREQUENCY_BINS) : undefined;
  let fitRows = trainRows;
  if (opts.missing === 'drop-rows' || opts.missing === 'remove-rows') {
    fitRows = completeRows(table, trainRows);
    if (rowCount(fitRows) === 0 && rowCount(trainRows) > 0) {
      throw new UserError(
        `dataset ${table.name}: missing: ${opts.missing} leaves no training rows (every training row has a missing value)`,
      );
    }
  }
  const tf = tableFacts(table);
  const plans: Plan[] = table.columns.map((col, a) => {
    let cuts: number[] | null = null;
    let labels: string[];
    if (col.type === 'numeric') {
      if (method === 'none') {
        throw new UserError(undiscretizedColumnMessage(table.name, col.name));
      }
      const given = known?.length === table.columns.length ? known[a] : undefined;
      cuts = given
        ? given.slice()
        : fitDiscretizerCoded(col.ids, col.distinct, table.classColumn, table.classLabels.length, fitRows, method, {
            bins,
          }).cuts;
      labels = cutLabels(cuts);
    } else {
      labels = col.labels.slice();
    }
    let missingCode = MISSING;
    if (opts.missing === 'as-value' && tf.hasMissing[a]) {
      missingCode = labels.length;
      labels.push(missingLabel(labels));
    }
    return { column: col, cuts, labels, missingCode };
  });

  const names = table.columns.map((c) => c.name);
  const cards = Int32Array.from(plans.map((p) => p.labels.length));
  const labels = plans.map((p) => p.labels);

  let fitList: Int32Array | undefined;
  return {
    options: opts,
    trainRows: () => (fitList ??= rowList(fitRows)),
    trainSet: () => fitRows,
    transform(t: RawTable, rows: ArrayLike<number>): DiscreteData {
      checkSchema(table, t);
      const n = rows.length;
      const columns = plans.map((p, a) => codeRows(p, t.columns[a], rows, n));
      const classColumn = new Int32Array(n);
      for (let i = 0; i < n; i++) classColumn[i] = t.classColumn[rows[i]];
      return { n, names, labels, cards, columns, ...classOf(t), classColumn };
    },
    view(t: RawTable, rows: RowSet): DiscreteData {
      checkSchema(table, t);
      let ownBytes = rows instanceof Int32Array ? rows.byteLength : 0;
      const columns = t.columns.map((col) => (col.type === 'numeric' ? col.ids : col.codes));
      const maps = plans.map((p, a) => {
        const map = codeMap(p, t.columns[a]);
        ownBytes += map?.byteLength ?? 0;
        return map;
      });
      const meta = { names, labels, cards, ...classOf(t) };
      return viewedData(meta, { columns, maps, classColumn: t.classColumn, cards, rows, ownBytes });
    },
    cuts: () => plans.map((p) => (p.cuts ? p.cuts.slice() : null)),
    describe(): PreprocessSummary {
      const cuts: Record<string, number[]> = {};
      const missingCategory: string[] = [];
      for (const p of plans) {
        if (p.cuts) cuts[p.column.name] = p.cuts.slice();
        if (p.missingCode !== MISSING) missingCategory.push(p.column.name);
      }
      return {
        dataset: table.name,
        discretize: bins === undefined ? { method } : { method, bins },
        missing: opts.missing,
        trainRows: rowCount(fitRows),
        droppedTrainRows: rowCount(trainRows) - rowCount(fitRows),
        cuts,
        missingCategory,
      };
    },
  };
}

/** The class fields of a DiscreteData made from t. */
function classOf(t: RawTable): { className: string; classLabels: readonly string[]; classCard: number } {
  return { className: t.className, classLabels: t.classLabels, classCard: t.classLabels.length };
}

/**
 * A row view's map of column col's values to the plan's codes (see RowView): value v (MISSING is -1) has
 * code map[v + 1]; undefined for a categorical column with no missing code to replace, read as it is.
 */
function codeMap(p: Plan, col: RawColumn): CodeColumn | undefined {
  if (col.type === 'categorical' && p.missingCode === MISSING) return undefined;
  const values = col.type === 'numeric' ? col.distinct.length : col.labels.length;
  const map = codeColumn(p.labels.length, values + 1);
  map[0] = p.missingCode;
  if (col.type === 'numeric') {
    const cuts = p.cuts!;
    for (let v = 0; v < values; v++) map[v + 1] = applyCuts(col.distinct[v], cuts);
  } else for (let v = 0; v < values; v++) map[v + 1] = v;
  return map;
}

/**
 * The bin of each distinct value. A loop, not `Int32Array.from(distinct, f)`: that reads a typed array
 * through its iterator, an object per value (some 50 MB of young garbage over the 100 folds of
 * bench/external-weka.ts).
 */
function binsOf(distinct: Float64Array, cuts: readonly number[]): Int32Array {
  const bin = new Int32Array(distinct.length);
  for (let v = 0; v < distinct.length; v++) bin[v] = applyCuts(distinct[v], cuts);
  return bin;
}

/** The plan's codes of column col on `rows` (n rows). */
function codeRows(p: Plan, col: RawColumn, rows: ArrayLike<number>, n: number): CodeColumn {
  // One byte per value for the usual cardinalities: at 10^7 rows the data of a fold is a quarter of Int32.
  const out = codeColumn(p.labels.length, n);
  if (col.type === 'numeric') {
    // The bin of each distinct value once, then one lookup per row.
    const cuts = p.cuts!;
    // A transformed table of the same schema may have other distinct values than the fitted one.
    const bin = p.column === col ? (p.bins ??= binsOf(col.distinct, cuts)) : binsOf(col.distinct, cuts);
    const ids = col.ids;
    for (let i = 0; i < n; i++) {
      const id = ids[rows[i]];
      out[i] = id < 0 ? p.missingCode : bin[id];
    }
  } else {
    const codes = col.codes;
    for (let i = 0; i < n; i++) {
      const c = codes[rows[i]];
      out[i] = c < 0 ? p.missingCode : c;
    }
  }
  return out;
}

/** "?" unless a real value is already spelled that way. */
function missingLabel(labels: readonly string[]): string {
  let l = '?';
  while (labels.includes(l)) l += '?';
  return l;
}

/** The transformed table must have the fitted table's columns, types and labels (codes are reused as is). */
function checkSchema(fitted: RawTable, t: RawTable): void {
  if (t === fitted) return;
  const same =
    t.columns.length === fitted.columns.length &&
    sameStrings(t.classLabels, fitted.classLabels) &&
    t.columns.every((c, a) => {
      const f = fitted.columns[a];
      if (c.name !== f.name || c.type !== f.type) return false;
      return c.type === 'numeric' || f.type === 'numeric' || sameStrings(c.labels, f.labels);
    });
  if (!same)
    throw new Error(`preprocessor fitted on ${fitted.name} applied to ${t.name}, whose columns or labels differ`);
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
