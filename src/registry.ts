/**
 * The registry of everything a spec can name. Every structure learner and estimator registers itself with
 * a stable id, a JSON Schema for its parameters, defaults and the citation it implements. The spec
 * validator, the CLI help, the docs and the report all read this one registry.
 */
import type { DiscreteData } from './bn/data.js';
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

export interface StructureLearner<P extends Params = Params> extends MethodInfo {
  learn(train: DiscreteData, params: P, ctx: LearnContext): Structure;
}

/** A fitted classifier: class posteriors for every row of data, row-major n × classCard, rows summing to 1. */
export interface Model {
  posterior(data: DiscreteData): Float64Array;
}

export interface Estimator<P extends Params = Params> extends MethodInfo {
  /**
   * Structure ids this estimator applies to (MANB and WANBIA only make sense for naive Bayes, say);
   * undefined = every structure. The spec validator rejects other pairs.
   */
  readonly structures?: readonly string[];
  /** Structure ids this estimator cannot fit (hdp: ban-mix, whose members carry row weights); the validator rejects them. */
  readonly excludes?: readonly string[];
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

export function registerStructure<P extends Params>(s: StructureLearner<P>): StructureLearner<P> {
  if (structures.has(s.id)) throw new Error(`structure '${s.id}' registered twice`);
  structures.set(s.id, s as unknown as StructureLearner);
  return s;
}

export function registerEstimator<P extends Params>(e: Estimator<P>): Estimator<P> {
  if (estimators.has(e.id)) throw new Error(`estimator '${e.id}' registered twice`);
  estimators.set(e.id, e as unknown as Estimator);
  return e;
}

export function registerBaseline<P extends Params>(b: Baseline<P>): Baseline<P> {
  if (baselines.has(b.id)) throw new Error(`baseline '${b.id}' registered twice`);
  baselines.set(b.id, b as unknown as Baseline);
  return b;
}

export function getBaseline(id: string): Baseline | undefined {
  return baselines.get(id);
}

export function listBaselines(): Baseline[] {
  return [...baselines.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Whether an estimator can fit a structure learner's output. */
export function compatible(estimator: Estimator, structureId: string): boolean {
  if (estimator.excludes?.includes(structureId)) return false;
  return estimator.structures === undefined || estimator.structures.includes(structureId);
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
