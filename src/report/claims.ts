/**
 * Stated claims: a paper's qualitative statements ("SubbKB10 yields the best average accuracy", "outperforms
 * NB at p < 0.10", "EANB is much higher on No. 4"), one per row of a reference CSV whose header has the
 * columns id,kind,metric,method_a,relation,method_b,dataset,value (source and note are optional and
 * printed). Each claim is evaluated on our stored results and gets a verdict: reproduced, not reproduced,
 * or not evaluable here (with the reason: a method or dataset absent from the run, a diagnostic the jobs do
 * not store, too few datasets for a test).
 *
 * Values. `metric` is one of ours (accuracy, 0-1 loss, rmse, log loss, also as papers print them) or
 * `info.<key>`, a number the structure learner stores per job in jobs.structure_info (classParents,
 * meanShd, apses, …). A method's value on a dataset is the mean over its folds (and repeats) of the jobs
 * that have the value, rounded to compare.digits when that is set. A dataset's size is the largest
 * n_train + n_test over its jobs (the rows that enter the folds; after `missing: remove-rows`, the complete rows).
 *
 * The meaning of every kind and relation is in docs/reports.md ("Stated claims"); parseClaim validates a row,
 * and one evaluator per kind (evaluateBest, evaluateCell, evaluateDataset, evaluateEverySmall, evaluateMean,
 * evaluateWilcoxon, evaluatePosthoc) implements exactly that text.
 */
import type { ResultRow } from '../store/db.js';
import type { ResultStore } from '../store/db.js';
import { posthocVsControl } from '../stats/posthoc.js';
import { roundDecimals } from '../stats/validate.js';
import { wilcoxonSignedRank, type WilcoxonOptions, type WilcoxonResult } from '../stats/wilcoxon.js';
import { UserError } from '../util/errors.js';
import { metricDef } from './compare.js';
import type { CsvDocument } from './csv.js';
import type { CompareMetric, CompareSpec, ReferenceSpec } from '../spec/report-sections.js';
import { fmean, fsum } from '../stats/fsum.js';
import { pairedBootstrap } from '../stats/bootstrap.js';
import { sha256Hex } from '../util/hash.js';
import { cellKey } from '../util/keys.js';
import { provisionalReason, type UnfinishedCell } from './summary.js';
import { metricNames } from '../metrics/all.js';

export const CLAIM_COLUMNS = ['id', 'kind', 'metric', 'method_a', 'relation', 'method_b', 'dataset', 'value'] as const;

type ClaimKind = 'best-mean' | 'mean' | 'posthoc' | 'dataset' | 'every-small' | 'dataset-best' | 'wilcoxon' | 'cell';
type ClaimRelation = '>' | '<' | '>=' | '<=' | '~' | 'max' | 'min' | '';
/**
 * 'direction reproduced, not significant': the claimed order holds but the margin's bootstrap interval covers
 * zero; 'tie within noise': an "at least as good" claim holds only as a difference the interval cannot tell
 * from zero.
 */
export type ClaimVerdict =
  | 'reproduced'
  | 'direction reproduced, not significant'
  | 'tie within noise'
  | 'not reproduced'
  | 'not evaluable';

/** Resamples of the claims' paired bootstrap intervals (95%). */
export const CLAIM_BOOTSTRAP_RESAMPLES = 2000;

/** Data sets with fewer rows than this are "small" (Sugahara et al. 2022, §5.1). */
const SMALL_DATASET_ROWS = 1000;

const COMPARE: readonly ClaimRelation[] = ['>', '<', '>=', '<=', '~'];
const RELATIONS: Record<ClaimKind, readonly ClaimRelation[]> = {
  'best-mean': ['max', 'min'],
  'dataset-best': ['max', 'min'],
  mean: COMPARE,
  dataset: COMPARE,
  'every-small': COMPARE,
  posthoc: COMPARE,
  wilcoxon: COMPARE,
  cell: [''],
};

/** Per-job structure diagnostics (jobs.structure_info parsed), by job key. */
export type StructureInfo = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

export interface ClaimResult {
  readonly line: number;
  readonly id: string;
  readonly kind: ClaimKind;
  /** As written in the file (accuracy, info.apses, …). */
  readonly metric: string;
  readonly methodA: string;
  readonly relation: ClaimRelation;
  /** method_b: one method, or for best-mean / dataset-best the listed candidates (empty: every method). */
  readonly methodB: readonly string[];
  readonly dataset: string;
  /** The value column: a threshold, tolerance or published number (in our units); null when empty. */
  readonly value: number | null;
  readonly source: string;
  readonly note: string;
  /** The claim in words. */
  readonly claim: string;
  /** Our numbers in words ('–' when there are none). */
  readonly ours: string;
  /** The numbers behind `ours`: a and b (method_a's and the other side's value), p, and how many data sets / folds. */
  readonly a: number | null;
  readonly b: number | null;
  readonly p: number | null;
  readonly n: number | null;
  readonly verdict: ClaimVerdict;
  readonly reason: string;
  /**
   * Set when the run has not finished every dataset × method the claim reads (jobs not run yet or failed):
   * which, so the verdict is read as what the finished part says, not the experiment's answer.
   */
  readonly provisional: string | null;
}

interface ClaimContext {
  readonly ref: ReferenceSpec;
  readonly rows: readonly ResultRow[];
  /** Method labels in the spec's order. */
  readonly methods: readonly string[];
  readonly settings: CompareSpec;
  readonly info: StructureInfo;
  /** A published name as one of ours, or null (the reference's mapping, then identity / case-insensitive). */
  readonly mapName: (name: string, mapping: Readonly<Record<string, string>>, ours: readonly string[]) => string | null;
  /** A published value in our units ('x%' → x / 100, plain numbers × the reference's scale). */
  readonly parseValue: (s: string, where: string) => number;
  readonly metricFromName: (name: string) => CompareMetric | undefined;
  /** The planned dataset × method cells not finished yet (summary.ts unfinishedCells); none when complete. */
  readonly unfinished?: readonly UnfinishedCell[];
}

/** Does this header describe a claims file? */
export function isClaimsHeader(header: readonly string[]): boolean {
  return CLAIM_COLUMNS.every((c) => header.includes(c));
}

/** jobs.structure_info of the given finished jobs (a spec's plan), parsed, by job key. */
export async function loadStructureInfo(
  store: ResultStore,
  keys: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await store.structureInfoOf(keys);
  const out = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    try {
      const v = JSON.parse(r.structure_info) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) out.set(r.job_key, v as Record<string, unknown>);
    } catch {
      // A value that is not JSON holds no diagnostics.
    }
  }
  return out;
}

interface MetricRef {
  readonly label: string;
  /** Rank 1 / "best" = the highest value (info.* metrics: the highest). */
  readonly higherIsBetter: boolean;
  readonly digits: number;
  readonly value: (r: ResultRow) => number | undefined;
}

/** Fold values and sizes, per dataset and method. */
class Values {
  /** dataset → method → "repeat/fold" → value */
  private readonly cells = new Map<string, Map<string, Map<string, number>>>();
  /**
   * dataset\0method pairs with a fold where the metric is undefined (NaN, e.g. AUC when a test fold lacks a
   * class): they have no value here, as in the report's tables (summary.ts hasValue), rather than a mean over
   * the other folds.
   */
  private readonly undefinedOn = new Set<string>();

  constructor(rows: readonly ResultRow[], metric: MetricRef) {
    for (const r of rows) {
      const v = metric.value(r);
      if (v === undefined) continue;
      if (!Number.isFinite(v)) {
        this.undefinedOn.add(cellKey(r.dataset, r.method));
        continue;
      }
      let byMethod = this.cells.get(r.dataset);
      if (!byMethod) this.cells.set(r.dataset, (byMethod = new Map()));
      let folds = byMethod.get(r.method);
      if (!folds) byMethod.set(r.method, (folds = new Map()));
      folds.set(`${r.repeat}/${r.fold}`, v);
    }
  }

  folds(dataset: string, method: string): ReadonlyMap<string, number> | undefined {
    if (this.undefinedOn.has(cellKey(dataset, method))) return undefined;
    return this.cells.get(dataset)?.get(method);
  }

  mean(dataset: string, method: string, digits: number | undefined): number | undefined {
    const f = this.folds(dataset, method);
    if (!f || f.size === 0) return undefined;
    return roundDecimals(fsum(f.values()) / f.size, digits);
  }

  hasMethod(method: string): boolean {
    for (const m of this.cells.values()) if (m.has(method)) return true;
    return false;
  }
}

function fmt(x: number | null | undefined, digits: number): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits);
}

function fmtP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return 'undefined';
  return p < 1e-4 ? p.toExponential(2) : p.toFixed(4);
}

function signed(x: number, digits: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
}

const REL_TEXT: Record<string, string> = { '>': '>', '<': '<', '>=': '≥', '<=': '≤', '~': '≈' };

/** Does "a relation b" hold? `~` with a tolerance: |a − b| ≤ tolerance. */
function holds(a: number, rel: ClaimRelation, b: number, tolerance: number | null): boolean {
  switch (rel) {
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
    case '~':
      return Math.abs(a - b) <= (tolerance ?? 0) + 1e-12;
    default:
      return false;
  }
}

/** The claim as the file states it (the fields of ClaimResult that come from the row). */
type WrittenClaim = Pick<
  ClaimResult,
  | 'line'
  | 'id'
  | 'kind'
  | 'metric'
  | 'methodA'
  | 'relation'
  | 'methodB'
  | 'dataset'
  | 'value'
  | 'source'
  | 'note'
  | 'claim'
>;

/** One row of a claims file, validated: what evaluating it needs besides what it states. */
interface ParsedClaim extends WrittenClaim {
  /** How to read `metric` from a result row. */
  readonly metricRef: MetricRef;
  /** The significance threshold: the value column, else compare.alpha. */
  readonly alpha: number;
}

/** Parses and validates one record of a claims file; every error names file, line and column. */
function parseClaim(doc: CsvDocument, fields: readonly string[], line: number, ctx: ClaimContext): ParsedClaim {
  const where = `${ctx.ref.path}:${line}`;
  const col = (name: string): number => doc.header.indexOf(name);
  const get = (c: string): string => (col(c) >= 0 ? (fields[col(c)] ?? '').trim() : '');
  const id = get('id') || `line ${line}`;
  const kind = get('kind') as ClaimKind;
  if (!(kind in RELATIONS)) {
    throw new UserError(
      `${where}: kind: unknown claim kind '${get('kind')}' (known: ${Object.keys(RELATIONS).join(', ')})`,
    );
  }
  const relation = get('relation') as ClaimRelation;
  if (!RELATIONS[kind].includes(relation)) {
    const allowed = RELATIONS[kind].filter((r) => r !== '');
    throw new UserError(
      `${where}: relation: '${get('relation')}' does not apply to kind ${kind} (${allowed.length ? `use one of ${allowed.join(' ')}` : 'leave it empty'})`,
    );
  }
  const metricName = get('metric');
  const metric = metricRef(metricName, ctx, where);
  const methodA = get('method_a');
  if (!methodA) throw new UserError(`${where}: method_a: is required`);
  const listed = ['best-mean', 'dataset-best'].includes(kind);
  const rawB = get('method_b');
  const methodB = (listed ? rawB.split(';') : [rawB]).map((x) => x.trim()).filter(Boolean);
  const pairwise = ['mean', 'dataset', 'every-small', 'posthoc', 'wilcoxon'].includes(kind);
  if (pairwise && methodB.length !== 1)
    throw new UserError(`${where}: method_b: kind ${kind} compares method_a with one method_b`);
  if (kind === 'cell' && methodB.length) throw new UserError(`${where}: method_b: must be empty for kind cell`);
  const dataset = get('dataset');
  if (['dataset', 'dataset-best', 'cell'].includes(kind) && !dataset)
    throw new UserError(`${where}: dataset: is required for kind ${kind}`);
  const rawValue = get('value');
  let value: number | null = null;
  if (kind === 'cell') {
    value = ctx.parseValue(rawValue, where);
  } else if (rawValue !== '') {
    value = Number(rawValue);
    if (!Number.isFinite(value) || value < 0)
      throw new UserError(`${where}: value: expected a non-negative number, got '${rawValue}'`);
    if (kind === 'posthoc' || kind === 'wilcoxon') {
      if (!(value > 0 && value <= 1))
        throw new UserError(`${where}: value: a significance threshold must be in (0, 1], got '${rawValue}'`);
    } else if (relation !== '~') {
      throw new UserError(
        `${where}: value: kind ${kind} with relation ${relation} takes no value (only ~ takes a tolerance)`,
      );
    }
  }
  const alpha = value ?? ctx.settings.alpha;
  const claim = claimText(
    kind,
    metric.label,
    methodA,
    relation,
    methodB,
    dataset,
    value,
    alpha,
    ctx.settings,
    metric.digits,
  );
  return {
    line,
    id,
    kind,
    metric: metricName,
    metricRef: metric,
    methodA,
    relation,
    methodB,
    dataset,
    value,
    source: get('source'),
    note: get('note'),
    alpha,
    claim,
  };
}

/** The run as every claim sees it (built once per claims file). */
interface RunView {
  readonly ctx: ClaimContext;
  readonly digits: number | undefined;
  /** Methods of the spec that have results, in the spec's order. */
  readonly ourMethods: readonly string[];
  readonly datasets: readonly string[];
  /** The datasets a published name may map to: those with results and those of the plan not finished yet. */
  readonly knownDatasets: readonly string[];
  /** Rows entering the folds per dataset (the largest n_train + n_test of its jobs). */
  readonly sizes: ReadonlyMap<string, number>;
  /** Values per metric name, built on first use. */
  readonly values: Map<string, Values>;
  readonly wilcoxonOptions: WilcoxonOptions;
}

type Lookup = { ours: string } | { missing: string };

/** What an evaluator gets: the parsed claim, the run, its values, method_a as ours, and the result builders. */
interface ClaimScope {
  readonly c: ParsedClaim;
  readonly run: RunView;
  readonly V: Values;
  /** method_a, mapped to our label. */
  readonly a: string;
  readonly d: number;
  method(name: string): Lookup;
  dataset(name: string): Lookup;
  notEvaluable(reason: string): ClaimResult;
  result(r: {
    ours: string;
    a: number | null;
    b: number | null;
    p: number | null;
    n: number | null;
    ok: boolean;
    reason: string;
    /** The verdict when ok, if not 'reproduced' (a margin within noise). */
    held?: ClaimVerdict;
  }): ClaimResult;
}

/** A claim comparing method_a with one method_b (mean, dataset, every-small, wilcoxon, posthoc). */
interface PairScope extends ClaimScope {
  readonly b: string;
}

function runView(rows: readonly ResultRow[], ctx: ClaimContext): RunView {
  const present = new Set(rows.map((r) => r.method));
  const sizes = new Map<string, number>();
  for (const r of rows) sizes.set(r.dataset, Math.max(sizes.get(r.dataset) ?? 0, Number(r.n_train) + Number(r.n_test)));
  const w = ctx.settings.wilcoxon;
  const datasets = [...new Set(rows.map((r) => r.dataset))].sort();
  return {
    ctx,
    digits: ctx.settings.digits ?? undefined,
    ourMethods: ctx.methods.filter((m) => present.has(m)),
    datasets,
    knownDatasets: [...new Set([...datasets, ...(ctx.unfinished ?? []).map((u) => u.dataset)])],
    sizes,
    values: new Map(),
    wilcoxonOptions: { zeroMethod: w.zeroMethod, correct: w.correct, exact: true, tieCorrection: w.tieCorrection },
  };
}

export function evaluateClaims(doc: CsvDocument, ctx: ClaimContext): ClaimResult[] {
  const run = runView(ctx.rows, ctx);
  return doc.records.map(({ fields, line }) => evaluateClaim(parseClaim(doc, fields, line, ctx), run));
}

/** The claim's verdict, provisional when the run has not finished a dataset × method the claim reads. */
function evaluateClaim(c: ParsedClaim, run: RunView): ClaimResult {
  const r = evaluateOnFinished(c, run);
  const { ctx } = run;
  if (!ctx.unfinished?.length) return r;
  // "On every small data set" failed on a finished one: no result still to come can make it hold.
  if (c.kind === 'every-small' && r.verdict === 'not reproduced') return r;
  const method = (name: string): string | null => ctx.mapName(name, ctx.ref.methods, ctx.methods);
  // A post-hoc test ranks every method, and a best-of claim without candidates reads every method.
  const everyMethod =
    c.kind === 'posthoc' || ((c.kind === 'best-mean' || c.kind === 'dataset-best') && !c.methodB.length);
  const methods = everyMethod
    ? ctx.methods
    : [c.methodA, ...c.methodB].map(method).filter((m): m is string => m !== null);
  const oneDataset = c.kind === 'dataset' || c.kind === 'cell' || c.kind === 'dataset-best';
  const D = oneDataset ? ctx.mapName(c.dataset, ctx.ref.datasets, run.knownDatasets) : null;
  const provisional = provisionalReason(ctx.unfinished, methods, oneDataset ? (D === null ? [] : [D]) : undefined);
  return provisional ? { ...r, provisional } : r;
}

function evaluateOnFinished(c: ParsedClaim, run: RunView): ClaimResult {
  const { ctx } = run;
  const { metricRef: _read, alpha: _threshold, ...base } = c;
  const notEvaluable = (reason: string): ClaimResult => ({
    ...base,
    ours: '–',
    a: null,
    b: null,
    p: null,
    n: null,
    verdict: 'not evaluable',
    reason,
    provisional: null,
  });
  let V = run.values.get(c.metric);
  if (!V) run.values.set(c.metric, (V = new Values(ctx.rows, c.metricRef)));
  const values = V;
  // Names → ours, with the reason when one is absent.
  const method = (name: string): Lookup => {
    // Matched against every method of the spec: one without results yet says so, not that it is absent.
    const ours = ctx.mapName(name, ctx.ref.methods, ctx.methods);
    if (!ours) return { missing: `method '${name}' is not in this experiment (map it under reference methods:)` };
    if (!values.hasMethod(ours)) {
      return {
        missing: c.metric.startsWith('info.')
          ? `${ours} stores no ${c.metricRef.label} (no job of it has this structure_info key)`
          : `${ours} has no results`,
      };
    }
    return { ours };
  };
  const dataset = (name: string): Lookup => {
    const ours = ctx.mapName(name, ctx.ref.datasets, run.knownDatasets);
    if (!ours) return { missing: `dataset '${name}' is not in this experiment (map it under reference datasets:)` };
    return run.datasets.includes(ours) ? { ours } : { missing: `${ours} has no finished results yet` };
  };
  const A = method(c.methodA);
  if ('missing' in A) return notEvaluable(A.missing);
  const scope: ClaimScope = {
    c,
    run,
    V: values,
    a: A.ours,
    d: c.metricRef.digits,
    method,
    dataset,
    notEvaluable,
    result: ({ ok, held, ...r }) => ({
      ...base,
      ...r,
      verdict: ok ? (held ?? 'reproduced') : 'not reproduced',
      provisional: null,
    }),
  };
  if (c.kind === 'best-mean' || c.kind === 'dataset-best') return evaluateBest(scope);
  if (c.kind === 'cell') return evaluateCell(scope);
  const B = method(c.methodB[0]);
  if ('missing' in B) return notEvaluable(B.missing);
  if (scope.a === B.ours) return notEvaluable(`method_a and method_b are both ${scope.a} here`);
  return PAIR_EVALUATORS[c.kind]({ ...scope, b: B.ours });
}

const PAIR_EVALUATORS: Record<
  Exclude<ClaimKind, 'best-mean' | 'dataset-best' | 'cell'>,
  (s: PairScope) => ClaimResult
> = {
  dataset: evaluateDataset,
  'every-small': evaluateEverySmall,
  mean: evaluateMean,
  wilcoxon: evaluateWilcoxon,
  posthoc: evaluatePosthoc,
};

/**
 * The margin a − b with its 95% paired bootstrap interval over `over` (data sets or folds), and the verdict
 * when the claimed relation holds: an order claim ('>', '<', max, min) whose interval covers zero is the
 * direction only; an "at least" claim ('>=', '<=') so is a tie within noise.
 */
function margin(
  s: ClaimScope,
  xa: readonly number[],
  xb: readonly number[],
  over: 'data sets' | 'folds',
): { text: string; test: string; held?: ClaimVerdict } {
  const d = xa.map((v, i) => v - xb[i]);
  if (d.length < 2) return { text: '', test: `no interval (${d.length} paired ${over})` };
  // Seeded by the differences themselves: the same comparison gets the same interval in any claim.
  const ci = pairedBootstrap(d, `claims/${sha256Hex(d.join(','))}`, CLAIM_BOOTSTRAP_RESAMPLES);
  const f = (x: number): string => signed(x, s.d + 1);
  const text = `; margin ${f(ci.mean)}, 95% interval [${f(ci.lo)}, ${f(ci.hi)}]`;
  const test = `paired bootstrap over ${d.length} ${over} (${ci.resamples} resamples, seeded)`;
  const noise = ci.lo <= 0 && ci.hi >= 0;
  const rel = s.c.relation;
  if (!noise) return { text, test };
  if (rel === '>' || rel === '<' || rel === 'max' || rel === 'min')
    return { text, test, held: 'direction reproduced, not significant' };
  if (rel === '>=' || rel === '<=') return { text, test, held: 'tie within noise' };
  return { text, test };
}

/** best-mean (over data sets) and dataset-best (on one): is method_a the highest / lowest of the candidates? */
function evaluateBest(s: ClaimScope): ClaimResult {
  const { c, V, a, d, run } = s;
  const { digits } = run;
  let candidates: string[];
  if (c.methodB.length) {
    const mapped = c.methodB.map(s.method);
    const gone = mapped.find((m): m is { missing: string } => 'missing' in m);
    if (gone) return s.notEvaluable(gone.missing);
    candidates = [...new Set([a, ...mapped.map((m) => (m as { ours: string }).ours)])];
  } else {
    candidates = run.ourMethods.filter((m) => V.hasMethod(m));
  }
  let over: string[];
  let D = '';
  if (c.kind === 'dataset-best') {
    const DS = s.dataset(c.dataset);
    if ('missing' in DS) return s.notEvaluable(DS.missing);
    D = DS.ours;
    if (V.mean(D, a, digits) === undefined) return s.notEvaluable(`${a} has no ${c.metricRef.label} on ${D}`);
    if (!c.methodB.length) candidates = candidates.filter((m) => V.mean(D, m, digits) !== undefined);
    const absent = candidates.find((m) => V.mean(D, m, digits) === undefined);
    if (absent) return s.notEvaluable(`${absent} has no ${c.metricRef.label} on ${D}`);
    over = [D];
  } else {
    over = run.datasets.filter((x) => candidates.every((m) => V.mean(x, m, digits) !== undefined));
    if (over.length === 0)
      return s.notEvaluable(`no data set on which ${candidates.join(', ')} all have ${c.metricRef.label}`);
  }
  const others = candidates.filter((m) => m !== a);
  if (others.length === 0) return s.notEvaluable(`no other method has ${c.metricRef.label}${D ? ` on ${D}` : ''}`);
  const meanOf = (m: string): number => fmean(over.map((x) => V.mean(x, m, digits)!));
  const va = meanOf(a);
  const want = c.relation === 'max' ? 1 : -1;
  let best = others[0];
  for (const m of others) if (want * (meanOf(m) - meanOf(best)) > 0) best = m;
  const vb = meanOf(best);
  const ok = want * (va - vb) >= -1e-12;
  const ties = others.filter((m) => Math.abs(meanOf(m) - va) <= 1e-12);
  const what = c.relation === 'max' ? 'highest' : 'lowest';
  const scope =
    c.kind === 'best-mean'
      ? `N = ${over.length} data set${over.length === 1 ? '' : 's'}, ${candidates.length} methods`
      : `${candidates.length} methods on ${D}`;
  // The margin over the next best, paired over the data sets (best-mean) or over the folds (dataset-best).
  let pa: number[];
  let pb: number[];
  if (c.kind === 'best-mean') {
    pa = over.map((x) => V.mean(x, a, digits)!);
    pb = over.map((x) => V.mean(x, best, digits)!);
  } else {
    [pa, pb] = pairedFoldsOf(V, D, a, best);
  }
  const m = margin(s, pa, pb, c.kind === 'best-mean' ? 'data sets' : 'folds');
  return s.result({
    ours: `${a} ${fmt(va, d)}; ${ok ? 'next' : c.relation === 'max' ? 'higher' : 'lower'}: ${best} ${fmt(vb, d)} (${scope})${m.text}`,
    a: va,
    b: vb,
    p: null,
    n: over.length,
    ok,
    held: ties.length ? 'tie within noise' : m.held,
    reason:
      (ok
        ? ties.length
          ? `${what}, tied with ${ties.join(', ')}`
          : `the ${what} of ${candidates.length} methods`
        : `${best} is ${what === 'highest' ? 'higher' : 'lower'} by ${Math.abs(va - vb).toFixed(d)}`) + `; ${m.test}`,
  });
}

/** The claim's data set as ours, method_a's mean on it and its fold count; or why there is none. */
function onDataset(s: ClaimScope): { D: string; va: number; folds: number } | ClaimResult {
  const DS = s.dataset(s.c.dataset);
  if ('missing' in DS) return s.notEvaluable(DS.missing);
  const D = DS.ours;
  const va = s.V.mean(D, s.a, s.run.digits);
  if (va === undefined) return s.notEvaluable(`${s.a} has no ${s.c.metricRef.label} on ${D}`);
  return { D, va, folds: s.V.folds(D, s.a)!.size };
}

/** cell: method_a's value on one data set against the published number, within the reference's tolerance. */
function evaluateCell(s: ClaimScope): ClaimResult {
  const { c, d, run } = s;
  const on = onDataset(s);
  if ('verdict' in on) return on;
  const { va, folds } = on;
  const diff = va - c.value!;
  const tolerance = run.ctx.ref.tolerance;
  const ok = Math.abs(diff) <= tolerance + 1e-12;
  return s.result({
    ours: `${fmt(va, d)} (${signed(diff, d)}; ${folds} folds)`,
    a: va,
    b: c.value,
    p: null,
    n: folds,
    ok,
    reason: ok ? `within ${tolerance}` : `differs by more than ${tolerance}`,
  });
}

/** Two-sided signed-rank test of a − b over paired values; the error message when the test refuses. */
function signedRank(s: PairScope, xa: number[], xb: number[]): WilcoxonResult | string {
  try {
    return wilcoxonSignedRank(xa, xb, s.run.wilcoxonOptions);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The folds (repeat/fold) both methods have on data set x, as paired value lists. */
function pairedFolds(s: PairScope, x: string): [number[], number[]] {
  return pairedFoldsOf(s.V, x, s.a, s.b);
}

function pairedFoldsOf(V: Values, x: string, a: string, b: string): [number[], number[]] {
  const fa = V.folds(x, a)!;
  const fb = V.folds(x, b)!;
  const xa: number[] = [];
  const xb: number[] = [];
  for (const [k, v] of fa) {
    const w = fb.get(k);
    if (w !== undefined) {
      xa.push(v);
      xb.push(w);
    }
  }
  return [xa, xb];
}

/** `~` without a tolerance: not significantly different (two-sided signed-rank p ≥ α, or undefined). */
function similar(s: PairScope, xa: number[], xb: number[]): { ok: boolean; p: number; text: string } | string {
  const w = signedRank(s, xa, xb);
  if (typeof w === 'string') return w;
  const alpha = s.run.ctx.settings.alpha;
  return { ok: !(w.p < alpha), p: w.p, text: `signed-rank p = ${fmtP(w.p)} (${w.method}, n = ${xa.length})` };
}

/** dataset: method_a against method_b on one data set (means over folds; `~` alone: signed-rank over folds). */
function evaluateDataset(s: PairScope): ClaimResult {
  const { c, V, a, b, d, run } = s;
  const alpha = run.ctx.settings.alpha;
  const on = onDataset(s);
  if ('verdict' in on) return on;
  const { D, va, folds } = on;
  const vb = V.mean(D, b, run.digits);
  if (vb === undefined) return s.notEvaluable(`${b} has no ${c.metricRef.label} on ${D}`);
  const ours = `${a} ${fmt(va, d)} vs ${b} ${fmt(vb, d)} (${signed(va - vb, d)}; ${folds} folds)`;
  if (c.relation === '~' && c.value === null) {
    const [xa, xb] = pairedFolds(s, D);
    const t = similar(s, xa, xb);
    if (typeof t === 'string') return s.notEvaluable(`signed-rank test over folds: ${t}`);
    return s.result({
      ours: `${ours}; ${t.text}`,
      a: va,
      b: vb,
      p: t.p,
      n: xa.length,
      ok: t.ok,
      reason: t.ok ? `not significant at α = ${alpha}` : `significant at α = ${alpha}`,
    });
  }
  const ok = holds(va, c.relation, vb, c.value);
  const m = margin(s, ...pairedFolds(s, D), 'folds');
  return s.result({
    ours: ours + m.text,
    a: va,
    b: vb,
    p: null,
    n: folds,
    ok,
    held: m.held,
    reason: `${relationReason(ok, va, vb, c.relation, c.value, d)}; ${m.test}`,
  });
}

/** every-small: the relation holds on every data set with fewer than SMALL_DATASET_ROWS rows. */
function evaluateEverySmall(s: PairScope): ClaimResult {
  const { c, V, a, b, d, run } = s;
  const { digits } = run;
  const small = run.datasets.filter(
    (x) =>
      (run.sizes.get(x) ?? Infinity) < SMALL_DATASET_ROWS &&
      V.mean(x, a, digits) !== undefined &&
      V.mean(x, b, digits) !== undefined,
  );
  if (small.length === 0) {
    return s.notEvaluable(
      `no data set with fewer than ${SMALL_DATASET_ROWS} rows has ${c.metricRef.label} of both ${a} and ${b}`,
    );
  }
  const failed: string[] = [];
  for (const x of small) {
    const va = V.mean(x, a, digits)!;
    const vb = V.mean(x, b, digits)!;
    let ok: boolean;
    if (c.relation === '~' && c.value === null) {
      const [xa, xb] = pairedFolds(s, x);
      const t = similar(s, xa, xb);
      if (typeof t === 'string') return s.notEvaluable(`signed-rank test over folds on ${x}: ${t}`);
      ok = t.ok;
    } else ok = holds(va, c.relation, vb, c.value);
    if (!ok) failed.push(`${x} (${fmt(va, d)} vs ${fmt(vb, d)})`);
  }
  const held = small.length - failed.length;
  return s.result({
    ours: `holds on ${held} of ${small.length} data sets with < ${SMALL_DATASET_ROWS} rows${failed.length ? `; not on ${failed.join(', ')}` : ''}`,
    a: held,
    b: small.length,
    p: null,
    n: small.length,
    ok: failed.length === 0,
    reason: failed.length === 0 ? `holds on all ${small.length}` : `fails on ${failed.length} of ${small.length}`,
  });
}

/** The per-data-set means of both methods over the data sets where both have the metric. */
function meansOverDatasets(
  s: PairScope,
): { xa: number[]; xb: number[]; ma: number; mb: number; text: string } | string {
  const { c, V, a, b, d, run } = s;
  const { digits } = run;
  const both = run.datasets.filter((x) => V.mean(x, a, digits) !== undefined && V.mean(x, b, digits) !== undefined);
  if (both.length === 0) return `no data set on which both ${a} and ${b} have ${c.metricRef.label}`;
  const xa = both.map((x) => V.mean(x, a, digits)!);
  const xb = both.map((x) => V.mean(x, b, digits)!);
  const ma = fmean(xa);
  const mb = fmean(xb);
  const N = both.length;
  return {
    xa,
    xb,
    ma,
    mb,
    text: `${a} ${fmt(ma, d)} vs ${b} ${fmt(mb, d)} (${signed(ma - mb, d)}; N = ${N} data set${N === 1 ? '' : 's'})`,
  };
}

/** mean: the relation between the mean values over data sets (`~` alone: signed-rank test at compare.alpha). */
function evaluateMean(s: PairScope): ClaimResult {
  const { c, d } = s;
  const m = meansOverDatasets(s);
  if (typeof m === 'string') return s.notEvaluable(m);
  if (c.relation === '~' && c.value === null) return signedRankVerdict(s, m, s.run.ctx.settings.alpha);
  const ok = holds(m.ma, c.relation, m.mb, c.value);
  const g = margin(s, m.xa, m.xb, 'data sets');
  return s.result({
    ours: m.text + g.text,
    a: m.ma,
    b: m.mb,
    p: null,
    n: m.xa.length,
    ok,
    held: g.held,
    reason: `${relationReason(ok, m.ma, m.mb, c.relation, c.value, d)}; ${g.test}`,
  });
}

/** wilcoxon: the signed-rank test over data sets at the claim's threshold (value, else compare.alpha). */
function evaluateWilcoxon(s: PairScope): ClaimResult {
  const m = meansOverDatasets(s);
  if (typeof m === 'string') return s.notEvaluable(m);
  return signedRankVerdict(s, m, s.c.alpha);
}

function signedRankVerdict(
  s: PairScope,
  m: { xa: number[]; xb: number[]; ma: number; mb: number; text: string },
  t: number,
): ClaimResult {
  const { a, c } = s;
  const w = signedRank(s, m.xa, m.xb);
  if (typeof w === 'string') return s.notEvaluable(`signed-rank test over data sets: ${w}`);
  const sig = w.p < t;
  const dir = w.rPlus > w.rMinus ? 1 : w.rPlus < w.rMinus ? -1 : 0;
  const ours = `${m.text}; signed-rank p = ${fmtP(w.p)} (${w.method}, R⁺ = ${w.rPlus}, R⁻ = ${w.rMinus}, ${w.n} non-zero differences)`;
  let ok: boolean;
  let reason: string;
  const dirText = dir > 0 ? `${a} higher` : dir < 0 ? `${a} lower` : 'no direction';
  switch (c.relation) {
    case '>':
    case '<': {
      const want = c.relation === '>' ? 1 : -1;
      ok = sig && dir === want;
      reason = !sig
        ? `not significant (p ≥ ${t})`
        : ok
          ? `significant at ${t}, ${dirText}`
          : `significant at ${t} but ${dirText}`;
      break;
    }
    case '>=':
    case '<=': {
      const against = c.relation === '>=' ? -1 : 1;
      ok = !(sig && dir === against);
      reason = ok
        ? `not significantly ${against < 0 ? 'lower' : 'higher'} (p = ${fmtP(w.p)}, ${dirText})`
        : `significantly ${against < 0 ? 'lower' : 'higher'} at ${t}`;
      break;
    }
    default:
      ok = !sig;
      reason = ok ? `not significant at ${t}` : `significant at ${t} (${dirText})`;
  }
  const g = margin(s, m.xa, m.xb, 'data sets');
  return s.result({
    ours: ours + g.text,
    a: m.ma,
    b: m.mb,
    p: w.p,
    n: m.xa.length,
    ok,
    reason: `${reason}; two-sided signed-rank test over ${m.xa.length} data sets`,
  });
}

/**
 * posthoc: the mean-rank test of every method against the control a, over the data sets on which every
 * method with this metric has it (the family of compare's post-hoc table).
 */
function evaluatePosthoc(s: PairScope): ClaimResult {
  const { c, V, a, b, run } = s;
  const { digits } = run;
  const alpha = c.alpha;
  const family = run.ourMethods.filter((m) => V.hasMethod(m));
  const complete = run.datasets.filter((x) => family.every((m) => V.mean(x, m, digits) !== undefined));
  if (complete.length < 2) {
    return s.notEvaluable(
      `the post-hoc test needs at least 2 data sets on which all ${family.length} methods have ${c.metricRef.label} (have ${complete.length})`,
    );
  }
  const matrix = complete.map((x) => family.map((m) => V.mean(x, m, digits)!));
  const ph = posthocVsControl(matrix, family.indexOf(a), {
    adjust: run.ctx.settings.adjust,
    higherIsBetter: c.metricRef.higherIsBetter,
  });
  const cmp = ph.comparisons.find((x) => x.method === family.indexOf(b))!;
  const pAdj = cmp.pAdjusted;
  const better = ph.controlMeanRank < cmp.meanRank;
  let ok: boolean;
  let reason: string;
  switch (c.relation) {
    case '<':
    case '<=': {
      const sig = c.relation === '<' ? pAdj < alpha : pAdj <= alpha;
      ok = sig && better;
      reason = !sig
        ? `not significant (adjusted p ${c.relation === '<' ? '≥' : '>'} ${alpha})`
        : better
          ? `significant, ${a} ranks better`
          : `significant, but ${b} ranks better`;
      break;
    }
    case '>':
      ok = pAdj > alpha;
      reason = ok ? `adjusted p > ${alpha}` : `adjusted p ≤ ${alpha}`;
      break;
    default:
      ok = pAdj >= alpha;
      reason = ok
        ? `not significant at ${alpha}`
        : `significant at ${alpha} (${better ? `${a}` : `${b}`} ranks better)`;
  }
  return s.result({
    ours: `adjusted p = ${fmtP(pAdj)} (z = ${cmp.z < 0 ? '−' : ''}${Math.abs(cmp.z).toFixed(3)}; mean ranks ${a} ${ph.controlMeanRank.toFixed(2)}, ${b} ${cmp.meanRank.toFixed(2)}; k = ${family.length} methods, N = ${complete.length} data sets)`,
    a: ph.controlMeanRank,
    b: cmp.meanRank,
    p: pAdj,
    n: complete.length,
    ok,
    reason,
  });
}

function relationReason(ok: boolean, a: number, b: number, rel: ClaimRelation, tol: number | null, d: number): string {
  if (rel === '~') return `|difference| = ${Math.abs(a - b).toFixed(d)} ${ok ? '≤' : '>'} ${tol}`;
  if (ok) return `holds (${signed(a - b, d)})`;
  return a === b ? 'equal' : `the opposite holds (${signed(a - b, d)})`;
}

function metricRef(name: string, ctx: ClaimContext, where: string): MetricRef {
  const info = /^info\.([A-Za-z0-9_]+)$/.exec(name);
  if (info) {
    const key = info[1];
    return {
      label: name,
      higherIsBetter: true,
      digits: 4,
      value: (r) => {
        const v = ctx.info.get(r.job_key)?.[key];
        return typeof v === 'number' ? v : undefined;
      },
    };
  }
  const m = ctx.metricFromName(name);
  if (!m)
    throw new UserError(
      `${where}: metric: unknown metric '${name}' (${metricNames()}, or info.<key> of jobs.structure_info)`,
    );
  const def = metricDef(m);
  return { label: def.title, higherIsBetter: def.higherIsBetter, digits: def.digits, value: (r) => Number(r[def.key]) };
}

const ADJUST: Record<string, string> = {
  hommel: 'Hommel',
  holm: 'Holm',
  hochberg: 'Hochberg',
  bonferroni: 'Bonferroni',
  none: 'unadjusted',
};

function claimText(
  kind: ClaimKind,
  metric: string,
  a: string,
  rel: ClaimRelation,
  bs: readonly string[],
  dataset: string,
  value: number | null,
  alpha: number,
  s: CompareSpec,
  d: number,
): string {
  const b = bs[0] ?? '';
  const r = REL_TEXT[rel] ?? rel;
  const cmp =
    rel === '~'
      ? value === null
        ? `${a} ≈ ${b} (not significantly different at α = ${s.alpha})`
        : `|${a} − ${b}| ≤ ${value}`
      : `${a} ${r} ${b}`;
  const among = bs.length ? ` of ${[a, ...bs.filter((x) => x !== a)].join(', ')}` : '';
  switch (kind) {
    case 'best-mean':
      return `${a} has the ${rel === 'max' ? 'highest' : 'lowest'} mean ${metric} over data sets${among}`;
    case 'dataset-best':
      return `on ${dataset}: ${a} has the ${rel === 'max' ? 'highest' : 'lowest'} ${metric}${among}`;
    case 'mean':
      return `mean ${metric} over data sets: ${cmp}`;
    case 'dataset':
      return `on ${dataset}: ${metric} ${cmp}`;
    case 'every-small':
      return `on every data set with < ${SMALL_DATASET_ROWS} rows: ${metric} ${cmp}`;
    case 'posthoc': {
      const adj = ADJUST[s.adjust] ?? s.adjust;
      const test = `${adj}-adjusted post-hoc p of ${b} against control ${a} on ${metric}`;
      if (rel === '<' || rel === '<=') return `${test} ${r} ${alpha}, ${a} ranking better`;
      if (rel === '~') return `${test} ≥ ${alpha} (not significant)`;
      return `${test} ${r} ${alpha}`;
    }
    case 'wilcoxon': {
      const test = `signed-rank test over data sets on ${metric}`;
      if (rel === '>' || rel === '<') return `${test}: ${a} ${r} ${b}, p < ${alpha}`;
      if (rel === '~') return `${test}: ${a} ≈ ${b}, p ≥ ${alpha}`;
      return `${test}: ${a} ${r} ${b} (not significantly ${rel === '>=' ? 'lower' : 'higher'} at ${alpha})`;
    }
    case 'cell':
      return `${a}'s ${metric} on ${dataset} = ${value === null ? '–' : value.toFixed(d)}`;
  }
}
