/**
 * The registry of everything a spec can name. Every structure learner and estimator registers itself with
 * a stable id, a JSON Schema for its parameters, defaults and the citation it implements. The spec
 * validator, the CLI help, the docs and the report all read this one registry.
 */
import type { DiscreteData } from './bn/data.js';
import type { Model } from './bn/model.js';
import type { Structure } from './bn/structure.js';
import type { Rng } from './util/rng.js';
import type { RawTable } from './datasets/table.js';

export type JsonSchema = Record<string, unknown>;
export type Params = Record<string, unknown>;

export interface LearnContext {
  /** Seeded random source for this job and purpose; learners never use Math.random or the clock. */
  readonly rng: Rng;
  /** Set when the job was cancelled (timeout); long loops should check it. */
  readonly signal?: AbortSignal;
  /** The spec's folder: relative paths in parameters (an external command's files) resolve against it. */
  readonly dir?: string;
  /** The fold's rows as read, before preprocessing (for baselines that take raw values: `external`). */
  readonly rawFold?: () => RawFold;
}

/** A fold of the unpreprocessed table: training rows (those of the split) and test rows, ascending. */
export interface RawFold {
  readonly table: RawTable;
  readonly train: Int32Array;
  readonly test: Int32Array;
}

export interface MethodInfo {
  readonly id: string;
  readonly title: string;
  /** The paper (or manual) the implementation follows. */
  readonly citation: string;
  /** JSON Schema (type object) for the parameters; additionalProperties false. */
  readonly params: JsonSchema;
  readonly defaults: Params;
  /**
   * The most attributes the method can handle (exact search is exponential). A larger problem fails its
   * job with a clear message; the contract suite checks that refusal instead of the 1,000-attribute case.
   */
  readonly maxAttributes?: number;
  /**
   * The parameter values that may name files (relative to the spec's folder). The spec loader stores the
   * sha256 of each one naming an existing file in params.files, so a job's key changes when the file does.
   */
  readonly fileParams?: (params: Params) => readonly string[];
  /** Conventions a user should know (differences from bnclassify or Weka, tie rules), shown in docs/methods.md. */
  readonly notes?: string;
}

/**
 * What every structure a learner returns is guaranteed to be; estimators state what they need in these
 * terms (`requires`, `rejects`) instead of naming learners, so a new learner declares its traits once and
 * every estimator's applicability follows.
 */
export const STRUCTURE_TRAITS = {
  'naive-bayes': 'a naive Bayes structure (the class the only parent of every attribute)',
  'weighted-rows': 'members fitted on row weights (fractional counts)',
} as const;
export type StructureTrait = keyof typeof STRUCTURE_TRAITS;

export interface StructureLearner<P extends Params = Params> extends MethodInfo {
  /** Traits of every structure this learner returns (see STRUCTURE_TRAITS); none by default. */
  readonly traits?: readonly StructureTrait[];
  learn(train: DiscreteData, params: P, ctx: LearnContext): Structure;
}

/** A fitted classifier (declared in src/bn/model.ts, below the registry). */
export type { Model } from './bn/model.js';

export interface Estimator<P extends Params = Params> extends MethodInfo {
  /**
   * Traits a structure must have for this estimator to fit it (MANB and WANBIA need 'naive-bayes'); the spec
   * validator rejects other pairs.
   */
  readonly requires?: readonly StructureTrait[];
  /** Traits this estimator cannot fit (hdp samples integer counts: 'weighted-rows'); the validator rejects them. */
  readonly rejects?: readonly StructureTrait[];
  fit(train: DiscreteData, structure: Structure, params: P, ctx: LearnContext): Model;
  /**
   * For estimators whose tables are θ_jk = (N_jk + a) / (N_j + r a): the per-cell pseudo-count a of a family
   * with childCard r and `configs` parent configurations. Present exactly when missing: em can fit them
   * (the M-step applies this formula to expected counts; src/bn/em.ts).
   */
  readonly pseudoCount?: (params: P, childCard: number, configs: number) => number;
}

/**
 * A baseline: a classifier that is not a structure × estimator pair (decision tree, random forest).
 * A spec lists baselines under `baselines:`; they run on the same folds and preprocessing.
 */
export interface Baseline<P extends Params = Params> extends MethodInfo {
  fit(train: DiscreteData, params: P, ctx: LearnContext): Model;
}

const structures = new Map<string, StructureLearner>();
const estimators = new Map<string, Estimator>();
const baselines = new Map<string, Baseline>();

// Registration wraps learn / fit so that the implementation always receives complete parameters (its
// `defaults` overlaid with what the caller gave): the spec, a test, a bench or an ensemble calling another
// learner all get the same values, and `defaults` is the one place a default is written.

export function registerStructure<P extends Params>(s: StructureLearner<P>): StructureLearner<P> {
  if (structures.has(s.id)) throw new Error(`structure '${s.id}' registered twice`);
  const learner: StructureLearner<P> = {
    ...s,
    learn: (train, params, ctx) => s.learn(train, withDefaults(s, params) as P, ctx),
  };
  structures.set(s.id, learner as unknown as StructureLearner);
  return learner;
}

export function registerEstimator<P extends Params>(e: Estimator<P>): Estimator<P> {
  if (estimators.has(e.id)) throw new Error(`estimator '${e.id}' registered twice`);
  const estimator: Estimator<P> = {
    ...e,
    fit: (train, structure, params, ctx) => e.fit(train, structure, withDefaults(e, params) as P, ctx),
  };
  estimators.set(e.id, estimator as unknown as Estimator);
  return estimator;
}

export function registerBaseline<P extends Params>(b: Baseline<P>): Baseline<P> {
  if (baselines.has(b.id)) throw new Error(`baseline '${b.id}' registered twice`);
  const baseline: Baseline<P> = { ...b, fit: (train, params, ctx) => b.fit(train, withDefaults(b, params) as P, ctx) };
  baselines.set(b.id, baseline as unknown as Baseline);
  return baseline;
}

export function getBaseline(id: string): Baseline | undefined {
  return baselines.get(id);
}

export function listBaselines(): Baseline[] {
  return [...baselines.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Why an estimator cannot fit a registered structure learner's output ("needs …" / "cannot fit …"), or
 * undefined when it can.
 */
export function incompatibility(estimator: Estimator, structureId: string): string | undefined {
  const traits = getStructure(structureId)?.traits ?? [];
  const missing = (estimator.requires ?? []).filter((t) => !traits.includes(t));
  if (missing.length > 0) return `needs ${missing.map((t) => STRUCTURE_TRAITS[t]).join(' and ')}`;
  const rejected = (estimator.rejects ?? []).filter((t) => traits.includes(t));
  if (rejected.length > 0) return `cannot fit ${rejected.map((t) => STRUCTURE_TRAITS[t]).join(' or ')}`;
  return undefined;
}

/** Whether an estimator can fit a structure learner's output. */
export function compatible(estimator: Estimator, structureId: string): boolean {
  return incompatibility(estimator, structureId) === undefined;
}

export function getStructure(id: string): StructureLearner | undefined {
  return structures.get(id);
}

export function getEstimator(id: string): Estimator | undefined {
  return estimators.get(id);
}

export function listStructures(): StructureLearner[] {
  return [...structures.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export function listEstimators(): Estimator[] {
  return [...estimators.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Defaults overlaid with the given values (the spec validator has already checked them against the schema). */
export function withDefaults(info: MethodInfo, params: Params | undefined): Params {
  return { ...info.defaults, ...(params ?? {}) };
}
