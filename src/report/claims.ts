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
 * The meaning of every kind and relation is in docs/reports.md ("Stated claims"); evaluateClaims implements
 * exactly that text.
 */
import type { ResultRow } from '../store/db.js';
import type { ResultStore } from '../store/db.js';
import { posthocVsControl } from '../stats/posthoc.js';
import { roundDecimals } from '../stats/validate.js';
import { wilcoxonSignedRank, type WilcoxonResult } from '../stats/wilcoxon.js';
import { UserError } from '../util/errors.js';
import { metricDef } from './compare.js';
import type { CsvDocument } from './csv.js';
import type { CompareMetric, CompareSpec, ReferenceSpec } from './spec.js';

export const CLAIM_COLUMNS = ['id', 'kind', 'metric', 'method_a', 'relation', 'method_b', 'dataset', 'value'] as const;

export type ClaimKind = 'best-mean' | 'mean' | 'posthoc' | 'dataset' | 'every-small' | 'dataset-best' | 'wilcoxon' | 'cell';
export type ClaimRelation = '>' | '<' | '>=' | '<=' | '~' | 'max' | 'min' | '';
export type ClaimVerdict = 'reproduced' | 'not reproduced' | 'not evaluable';

/** Data sets with fewer rows than this are "small" (Sugahara et al. 2022, §5.1). */
export const SMALL_DATASET_ROWS = 1000;

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
}

export interface ClaimContext {
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
}

/** Does this header describe a claims file? */
export function isClaimsHeader(header: readonly string[]): boolean {
  return CLAIM_COLUMNS.every((c) => header.includes(c));
}

/** jobs.structure_info of an experiment's finished jobs, parsed, by job key. */
export async function loadStructureInfo(store: ResultStore, experiment: string): Promise<Map<string, Record<string, unknown>>> {
  const rows = await store.query(
    `SELECT j.job_key, j.structure_info FROM jobs j JOIN experiment_jobs e USING (job_key)
     WHERE e.experiment = $1 AND j.status = 'done' AND j.structure_info IS NOT NULL`,
    [experiment],
  );
  const out = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    try {
      const v = JSON.parse(String(r['structure_info'])) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) out.set(String(r['job_key']), v as Record<string, unknown>);
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

  constructor(rows: readonly ResultRow[], metric: MetricRef) {
    for (const r of rows) {
      const v = metric.value(r);
      if (v === undefined || !Number.isFinite(v)) continue;
      let byMethod = this.cells.get(r.dataset);
      if (!byMethod) this.cells.set(r.dataset, (byMethod = new Map()));
      let folds = byMethod.get(r.method);
      if (!folds) byMethod.set(r.method, (folds = new Map()));
      folds.set(`${r.repeat}/${r.fold}`, v);
    }
  }

  folds(dataset: string, method: string): ReadonlyMap<string, number> | undefined {
    return this.cells.get(dataset)?.get(method);
  }

  mean(dataset: string, method: string, digits: number | undefined): number | undefined {
    const f = this.folds(dataset, method);
    if (!f || f.size === 0) return undefined;
    let s = 0;
    for (const v of f.values()) s += v;
    return roundDecimals(s / f.size, digits);
  }

  hasMethod(method: string): boolean {
    for (const m of this.cells.values()) if (m.has(method)) return true;
    return false;
  }

  methodsOn(dataset: string): string[] {
    return [...(this.cells.get(dataset)?.keys() ?? [])];
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

export function evaluateClaims(doc: CsvDocument, ctx: ClaimContext): ClaimResult[] {
  const { ref, rows, settings } = ctx;
  const col = (name: string): number => doc.header.indexOf(name);
  const digits = settings.digits ?? undefined;
  const present = new Set(rows.map((r) => r.method));
  const ourMethods = ctx.methods.filter((m) => present.has(m));
  const datasets = [...new Set(rows.map((r) => r.dataset))].sort();
  const sizes = new Map<string, number>();
  for (const r of rows) sizes.set(r.dataset, Math.max(sizes.get(r.dataset) ?? 0, Number(r.n_train) + Number(r.n_test)));
  const valuesCache = new Map<string, Values>();
  const wilcoxonOptions = {
    zeroMethod: settings.wilcoxon.zeroMethod,
    correct: settings.wilcoxon.correct,
    exact: true,
    tieCorrection: settings.wilcoxon.tieCorrection,
  };

  return doc.records.map(({ fields, line }): ClaimResult => {
    const where = `${ref.path}:${line}`;
    const get = (c: string): string => (col(c) >= 0 ? (fields[col(c)] ?? '').trim() : '');
    const id = get('id') || `line ${line}`;
    const kind = get('kind') as ClaimKind;
    if (!(kind in RELATIONS)) {
      throw new UserError(`${where}: kind: unknown claim kind '${get('kind')}' (known: ${Object.keys(RELATIONS).join(', ')})`);
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
    if (pairwise && methodB.length !== 1) throw new UserError(`${where}: method_b: kind ${kind} compares method_a with one method_b`);
    if (kind === 'cell' && methodB.length) throw new UserError(`${where}: method_b: must be empty for kind cell`);
    const dataset = get('dataset');
    if (['dataset', 'dataset-best', 'cell'].includes(kind) && !dataset) throw new UserError(`${where}: dataset: is required for kind ${kind}`);
    const rawValue = get('value');
    let value: number | null = null;
    if (kind === 'cell') {
      value = ctx.parseValue(rawValue, where);
    } else if (rawValue !== '') {
      value = Number(rawValue);
      if (!Number.isFinite(value) || value < 0) throw new UserError(`${where}: value: expected a non-negative number, got '${rawValue}'`);
      if (kind === 'posthoc' || kind === 'wilcoxon') {
        if (!(value > 0 && value <= 1)) throw new UserError(`${where}: value: a significance threshold must be in (0, 1], got '${rawValue}'`);
      } else if (relation !== '~') {
        throw new UserError(`${where}: value: kind ${kind} with relation ${relation} takes no value (only ~ takes a tolerance)`);
      }
    }
    const source = get('source');
    const note = get('note');
    const alpha = value ?? settings.alpha;
    const d = metric.digits;
    const claim = claimText(kind, metric.label, methodA, relation, methodB, dataset, value, alpha, settings, d);
    const base = { line, id, kind, metric: metricName, methodA, relation, methodB, dataset, value, source, note, claim };
    const none = { ours: '–', a: null, b: null, p: null, n: null };
    const notEvaluable = (reason: string): ClaimResult => ({ ...base, ...none, verdict: 'not evaluable', reason });
    const verdict = (ok: boolean): ClaimVerdict => (ok ? 'reproduced' : 'not reproduced');

    let values = valuesCache.get(metricName);
    if (!values) valuesCache.set(metricName, (values = new Values(rows, metric)));
    const V = values;

    // Names → ours, with the reason when one is absent.
    const method = (name: string): { ours: string } | { missing: string } => {
      const ours = ctx.mapName(name, ref.methods, ourMethods);
      if (!ours) return { missing: `method '${name}' is not in this experiment (map it under reference methods:)` };
      if (!V.hasMethod(ours)) {
        return {
          missing: metricName.startsWith('info.')
            ? `${ours} stores no ${metric.label} (no job of it has this structure_info key)`
            : `${ours} has no results`,
        };
      }
      return { ours };
    };
    const ds = (name: string): { ours: string } | { missing: string } => {
      const ours = ctx.mapName(name, ref.datasets, datasets);
      return ours ? { ours } : { missing: `dataset '${name}' is not in this experiment (map it under reference datasets:)` };
    };
    const A = method(methodA);
    if ('missing' in A) return notEvaluable(A.missing);
    const a = A.ours;

    if (kind === 'best-mean' || kind === 'dataset-best') {
      let candidates: string[];
      if (methodB.length) {
        const mapped = methodB.map(method);
        const gone = mapped.find((m): m is { missing: string } => 'missing' in m);
        if (gone) return notEvaluable(gone.missing);
        candidates = [...new Set([a, ...mapped.map((m) => (m as { ours: string }).ours)])];
      } else {
        candidates = ourMethods.filter((m) => V.hasMethod(m));
      }
      let over: string[];
      let D = '';
      if (kind === 'dataset-best') {
        const DS = ds(dataset);
        if ('missing' in DS) return notEvaluable(DS.missing);
        D = DS.ours;
        if (V.mean(D, a, digits) === undefined) return notEvaluable(`${a} has no ${metric.label} on ${D}`);
        if (!methodB.length) candidates = candidates.filter((m) => V.mean(D, m, digits) !== undefined);
        const absent = candidates.find((m) => V.mean(D, m, digits) === undefined);
        if (absent) return notEvaluable(`${absent} has no ${metric.label} on ${D}`);
        over = [D];
      } else {
        over = datasets.filter((x) => candidates.every((m) => V.mean(x, m, digits) !== undefined));
        if (over.length === 0) return notEvaluable(`no data set on which ${candidates.join(', ')} all have ${metric.label}`);
      }
      const others = candidates.filter((m) => m !== a);
      if (others.length === 0) return notEvaluable(`no other method has ${metric.label}${D ? ` on ${D}` : ''}`);
      const meanOf = (m: string): number => over.reduce((s, x) => s + V.mean(x, m, digits)!, 0) / over.length;
      const va = meanOf(a);
      const want = relation === 'max' ? 1 : -1;
      let best = others[0]!;
      for (const m of others) if (want * (meanOf(m) - meanOf(best)) > 0) best = m;
      const vb = meanOf(best);
      const ok = want * (va - vb) >= -1e-12;
      const ties = others.filter((m) => Math.abs(meanOf(m) - va) <= 1e-12);
      const what = relation === 'max' ? 'highest' : 'lowest';
      const scope = kind === 'best-mean' ? `N = ${over.length} data set${over.length === 1 ? '' : 's'}, ${candidates.length} methods` : `${candidates.length} methods on ${D}`;
      return {
        ...base,
        ours: `${a} ${fmt(va, d)}; ${ok ? 'next' : relation === 'max' ? 'higher' : 'lower'}: ${best} ${fmt(vb, d)} (${scope})`,
        a: va,
        b: vb,
        p: null,
        n: over.length,
        verdict: verdict(ok),
        reason: ok
          ? ties.length
            ? `${what}, tied with ${ties.join(', ')}`
            : `the ${what} of ${candidates.length} methods`
          : `${best} is ${what === 'highest' ? 'higher' : 'lower'} by ${Math.abs(va - vb).toFixed(d)}`,
      };
    }

    if (kind === 'cell') {
      const DS = ds(dataset);
      if ('missing' in DS) return notEvaluable(DS.missing);
      const D = DS.ours;
      const va = V.mean(D, a, digits);
      if (va === undefined) return notEvaluable(`${a} has no ${metric.label} on ${D}`);
      const folds = V.folds(D, a)!.size;
      const diff = va - value!;
      const ok = Math.abs(diff) <= ref.tolerance + 1e-12;
      return {
        ...base,
        ours: `${fmt(va, d)} (${signed(diff, d)}; ${folds} folds)`,
        a: va,
        b: value,
        p: null,
        n: folds,
        verdict: verdict(ok),
        reason: ok ? `within ${ref.tolerance}` : `differs by more than ${ref.tolerance}`,
      };
    }

    const B = method(methodB[0]!);
    if ('missing' in B) return notEvaluable(B.missing);
    const b = B.ours;
    if (a === b) return notEvaluable(`method_a and method_b are both ${a} here`);

    // Two-sided signed-rank test of a − b over paired values; p NaN when every difference is zero.
    const signedRank = (xa: number[], xb: number[]): WilcoxonResult | string => {
      try {
        return wilcoxonSignedRank(xa, xb, wilcoxonOptions);
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    };
    const pairedFolds = (x: string): [number[], number[]] => {
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
    };
    /** `~` without a tolerance: not significantly different (two-sided signed-rank p ≥ α, or undefined). */
    const similar = (xa: number[], xb: number[]): { ok: boolean; p: number; text: string } | string => {
      const w = signedRank(xa, xb);
      if (typeof w === 'string') return w;
      return { ok: !(w.p < settings.alpha), p: w.p, text: `signed-rank p = ${fmtP(w.p)} (${w.method}, n = ${xa.length})` };
    };

    if (kind === 'dataset') {
      const DS = ds(dataset);
      if ('missing' in DS) return notEvaluable(DS.missing);
      const D = DS.ours;
      const va = V.mean(D, a, digits);
      if (va === undefined) return notEvaluable(`${a} has no ${metric.label} on ${D}`);
      const folds = V.folds(D, a)!.size;
      const vb = V.mean(D, b, digits);
      if (vb === undefined) return notEvaluable(`${b} has no ${metric.label} on ${D}`);
      const ours = `${a} ${fmt(va, d)} vs ${b} ${fmt(vb, d)} (${signed(va - vb, d)}; ${folds} folds)`;
      if (relation === '~' && value === null) {
        const [xa, xb] = pairedFolds(D);
        const s = similar(xa, xb);
        if (typeof s === 'string') return notEvaluable(`signed-rank test over folds: ${s}`);
        return { ...base, ours: `${ours}; ${s.text}`, a: va, b: vb, p: s.p, n: xa.length, verdict: verdict(s.ok), reason: s.ok ? `not significant at α = ${settings.alpha}` : `significant at α = ${settings.alpha}` };
      }
      const ok = holds(va, relation, vb, value);
      return { ...base, ours, a: va, b: vb, p: null, n: folds, verdict: verdict(ok), reason: relationReason(ok, va, vb, relation, value, d) };
    }

    if (kind === 'every-small') {
      const small = datasets.filter((x) => (sizes.get(x) ?? Infinity) < SMALL_DATASET_ROWS && V.mean(x, a, digits) !== undefined && V.mean(x, b, digits) !== undefined);
      if (small.length === 0) return notEvaluable(`no data set with fewer than ${SMALL_DATASET_ROWS} rows has ${metric.label} of both ${a} and ${b}`);
      const failed: string[] = [];
      for (const x of small) {
        const va = V.mean(x, a, digits)!;
        const vb = V.mean(x, b, digits)!;
        let ok: boolean;
        if (relation === '~' && value === null) {
          const [xa, xb] = pairedFolds(x);
          const s = similar(xa, xb);
          if (typeof s === 'string') return notEvaluable(`signed-rank test over folds on ${x}: ${s}`);
          ok = s.ok;
        } else ok = holds(va, relation, vb, value);
        if (!ok) failed.push(`${x} (${fmt(va, d)} vs ${fmt(vb, d)})`);
      }
      const held = small.length - failed.length;
      return {
        ...base,
        ours: `holds on ${held} of ${small.length} data sets with < ${SMALL_DATASET_ROWS} rows${failed.length ? `; not on ${failed.join(', ')}` : ''}`,
        a: held,
        b: small.length,
        p: null,
        n: small.length,
        verdict: verdict(failed.length === 0),
        reason: failed.length === 0 ? `holds on all ${small.length}` : `fails on ${failed.length} of ${small.length}`,
      };
    }

    if (kind === 'mean' || kind === 'wilcoxon') {
      const both = datasets.filter((x) => V.mean(x, a, digits) !== undefined && V.mean(x, b, digits) !== undefined);
      if (both.length === 0) return notEvaluable(`no data set on which both ${a} and ${b} have ${metric.label}`);
      const xa = both.map((x) => V.mean(x, a, digits)!);
      const xb = both.map((x) => V.mean(x, b, digits)!);
      const ma = xa.reduce((s, v) => s + v, 0) / xa.length;
      const mb = xb.reduce((s, v) => s + v, 0) / xb.length;
      const N = both.length;
      const means = `${a} ${fmt(ma, d)} vs ${b} ${fmt(mb, d)} (${signed(ma - mb, d)}; N = ${N} data set${N === 1 ? '' : 's'})`;
      if (kind === 'mean' && !(relation === '~' && value === null)) {
        const ok = holds(ma, relation, mb, value);
        return { ...base, ours: means, a: ma, b: mb, p: null, n: N, verdict: verdict(ok), reason: relationReason(ok, ma, mb, relation, value, d) };
      }
      const w = signedRank(xa, xb);
      if (typeof w === 'string') return notEvaluable(`signed-rank test over data sets: ${w}`);
      const t = kind === 'mean' ? settings.alpha : alpha;
      const sig = w.p < t;
      const dir = w.rPlus > w.rMinus ? 1 : w.rPlus < w.rMinus ? -1 : 0;
      const ours = `${means}; signed-rank p = ${fmtP(w.p)} (${w.method}, R⁺ = ${w.rPlus}, R⁻ = ${w.rMinus}, ${w.n} non-zero differences)`;
      let ok: boolean;
      let reason: string;
      const dirText = dir > 0 ? `${a} higher` : dir < 0 ? `${a} lower` : 'no direction';
      switch (relation) {
        case '>':
        case '<': {
          const want = relation === '>' ? 1 : -1;
          ok = sig && dir === want;
          reason = !sig ? `not significant (p ≥ ${t})` : ok ? `significant at ${t}, ${dirText}` : `significant at ${t} but ${dirText}`;
          break;
        }
        case '>=':
        case '<=': {
          const against = relation === '>=' ? -1 : 1;
          ok = !(sig && dir === against);
          reason = ok ? `not significantly ${against < 0 ? 'lower' : 'higher'} (p = ${fmtP(w.p)}, ${dirText})` : `significantly ${against < 0 ? 'lower' : 'higher'} at ${t}`;
          break;
        }
        default:
          ok = !sig;
          reason = ok ? `not significant at ${t}` : `significant at ${t} (${dirText})`;
      }
      return { ...base, ours, a: ma, b: mb, p: w.p, n: N, verdict: verdict(ok), reason };
    }

    // posthoc: the mean-rank test of every method against the control a, over the data sets on which every
    // method with this metric has it (the family of compare's post-hoc table).
    const family = ourMethods.filter((m) => V.hasMethod(m));
    const complete = datasets.filter((x) => family.every((m) => V.mean(x, m, digits) !== undefined));
    if (complete.length < 2) {
      return notEvaluable(`the post-hoc test needs at least 2 data sets on which all ${family.length} methods have ${metric.label} (have ${complete.length})`);
    }
    const matrix = complete.map((x) => family.map((m) => V.mean(x, m, digits)!));
    const ph = posthocVsControl(matrix, family.indexOf(a), { adjust: settings.adjust, higherIsBetter: metric.higherIsBetter });
    const c = ph.comparisons.find((x) => x.method === family.indexOf(b))!;
    const pAdj = c.pAdjusted;
    const better = ph.controlMeanRank < c.meanRank;
    let ok: boolean;
    let reason: string;
    switch (relation) {
      case '<':
      case '<=': {
        const sig = relation === '<' ? pAdj < alpha : pAdj <= alpha;
        ok = sig && better;
        reason = !sig ? `not significant (adjusted p ${relation === '<' ? '≥' : '>'} ${alpha})` : better ? `significant, ${a} ranks better` : `significant, but ${b} ranks better`;
        break;
      }
      case '>':
        ok = pAdj > alpha;
        reason = ok ? `adjusted p > ${alpha}` : `adjusted p ≤ ${alpha}`;
        break;
      default:
        ok = pAdj >= alpha;
        reason = ok ? `not significant at ${alpha}` : `significant at ${alpha} (${better ? `${a}` : `${b}`} ranks better)`;
    }
    return {
      ...base,
      ours: `adjusted p = ${fmtP(pAdj)} (z = ${c.z < 0 ? '−' : ''}${Math.abs(c.z).toFixed(3)}; mean ranks ${a} ${ph.controlMeanRank.toFixed(2)}, ${b} ${c.meanRank.toFixed(2)}; k = ${family.length} methods, N = ${complete.length} data sets)`,
      a: ph.controlMeanRank,
      b: c.meanRank,
      p: pAdj,
      n: complete.length,
      verdict: verdict(ok),
      reason,
    };
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
    const key = info[1]!;
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
  if (!m) throw new UserError(`${where}: metric: unknown metric '${name}' (accuracy, 0-1 loss, rmse, log loss, auc, auc_ovr, brier, balanced accuracy, macro F1, or info.<key> of jobs.structure_info)`);
  const def = metricDef(m);
  return { label: def.title, higherIsBetter: def.higherIsBetter, digits: def.digits, value: (r) => Number(r[def.key]) };
}

const ADJUST: Record<string, string> = { hommel: 'Hommel', holm: 'Holm', hochberg: 'Hochberg', bonferroni: 'Bonferroni', none: 'unadjusted' };

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
  const cmp = rel === '~' ? (value === null ? `${a} ≈ ${b} (not significantly different at α = ${s.alpha})` : `|${a} − ${b}| ≤ ${value}`) : `${a} ${r} ${b}`;
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
