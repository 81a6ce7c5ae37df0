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
import { codeOrder } from './util/text.js';

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
interface RawFold {
  readonly table: RawTable;
  readonly train: Int32Array;
  readonly test: Int32Array;
}

export interface MethodInfo {
  readonly id: string;
  /**
   * The implementation's revision: 1 at first, raised by one whenever a change alters the numbers the method
   * produces (a bug fix, a new default). It enters the job key when above 1, so results of an older revision
   * are told apart (`run` and `status` count them, `run --rerun-stale` recomputes them).
   * test/architecture/revisions.test.ts pins each method's output and names the revision to raise.
   */
  readonly revision: number;
  readonly title: string;
  /** The paper (or manual) the implementation follows. */
  readonly citation: string;
  /** JSON Schema (type object) for the parameters; additionalProperties false. Built by `defineParams`. */
  readonly params: JsonSchema;
  /** What a spec that leaves a parameter out gets; part of the job's parameters (and so of its key). */
  readonly defaults: Params;
  /**
   * Defaults of parameters added after results existed: the implementation receives them, but they stay
   * out of the job's parameters, so adding the option did not change any existing job key.
   */
  readonly implicitDefaults: Params;
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
  /**
   * The command lines the method runs (a program outside bnclab: `external`), each as one string; `plan`
   * lists them, and a spec with any runs its jobs on worker threads, so an interrupt can end the programs.
   */
  readonly commands?: (params: Params) => readonly string[];
  /** Conventions a user should know (differences from bnclassify or Weka, tie rules), shown in docs/methods.md. */
  readonly notes?: string;
  /**
   * Why the posteriors can change when the attribute columns are reordered (`columns`) or the class labels
   * renamed (`classes`): a convention tied to position (a root index, a tie rule, folds drawn by class code).
   * Shown in docs/methods.md; the contract suite's invariance checks hold every method that declares nothing
   * here to identical posteriors.
   */
  readonly orderDependence?: { readonly columns?: string; readonly classes?: string };
  /**
   * Named presets: defaults that depend on another given parameter (HDP's `prior: paper` also samples the
   * concentrations every iteration). Applied over `defaults` and under the given values, so a value the
   * spec writes always wins, and the preset's values are part of the job's parameters and key.
   */
  readonly presets?: (given: Params) => Params;
}

// ---------------------------------------------------------------------------------------------------------
// Parameters, declared once. A learner lists each parameter as its JSON Schema fragment plus `default`;
// `defineParams` splits that into the published schema (without `default`, so the schema editors read is
// what it always was) and the defaults, and `DeclaredParams` derives the TypeScript type from the same object:
// a parameter with a default (or `required: true`) is a required field, one without (a default computed
// from the data, such as HDP's burn-in) is optional. So a default is written once and the type cannot
// drift from the schema.

/** One parameter: a JSON Schema fragment, and the declaration keys `default`, `inKey` and `required`. */
type ParamDecl = {
  readonly [key: string]: unknown;
  /** The value the implementation receives when the caller leaves the parameter out. */
  readonly default?: unknown;
  /** false: the default stays out of the job's parameters and key (see MethodInfo.implicitDefaults). */
  readonly inKey?: false;
  /** The spec must give it (no default); listed in the object schema's `required`. */
  readonly required?: true;
};
type ParamDecls = { readonly [name: string]: ParamDecl };

/** The TypeScript value of a JSON Schema fragment (the keywords the learners use). */
type SchemaValue<D> = D extends { readonly enum: readonly (infer E)[] }
  ? E
  : D extends { readonly oneOf: readonly (infer A)[] }
    ? SchemaValue<A>
    : D extends { readonly type: 'integer' | 'number' }
      ? number
      : D extends { readonly type: 'boolean' }
        ? boolean
        : D extends { readonly type: 'string' }
          ? string
          : D extends { readonly type: 'array'; readonly items: infer I }
            ? SchemaValue<I>[]
            : D extends { readonly type: 'object'; readonly additionalProperties: infer V }
              ? Record<string, SchemaValue<V>>
              : unknown;

type Filled<D> = D extends { readonly default: unknown } ? true : D extends { readonly required: true } ? true : false;

/** The complete parameters declared by D. */
export type DeclaredParams<D extends ParamDecls> = {
  readonly [K in keyof D as Filled<D[K]> extends true ? K : never]: SchemaValue<D[K]>;
} & {
  readonly [K in keyof D as Filled<D[K]> extends true ? never : K]?: SchemaValue<D[K]>;
};

/** The output of `defineParams`; P (the complete parameters) exists only for type inference. */
interface ParamSpec<P> {
  readonly schema: JsonSchema;
  readonly defaults: Params;
  readonly implicitDefaults: Params;
  readonly __params?: P;
}

/** The complete parameters an implementation receives: `ParamsOf<typeof MY_PARAMS>`. */
export type ParamsOf<S> = S extends ParamSpec<infer P> ? P : never;

/** Declarations shared by several learners (spread into their `defineParams`), literal types kept. */
export function paramDecls<const D extends ParamDecls>(decls: D): D {
  return decls;
}

/** The schema, the defaults and (through ParamsOf) the type of a method's parameters, from one declaration. */
export function defineParams<const D extends ParamDecls>(decls: D): ParamSpec<DeclaredParams<D>> {
  const properties: Record<string, JsonSchema> = {};
  const defaults: Params = {};
  const implicitDefaults: Params = {};
  const required: string[] = [];
  for (const [name, decl] of Object.entries(decls)) {
    const { default: value, inKey, required: isRequired, ...schema } = decl;
    properties[name] = schema;
    if (isRequired) required.push(name);
    if (value === undefined) continue;
    if (inKey === false) implicitDefaults[name] = value;
    else defaults[name] = value;
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  schema['additionalProperties'] = false;
  return { schema, defaults, implicitDefaults };
}

/** What a learner's file writes; registration turns `params` into MethodInfo's schema and defaults. */
type Definition<P> = Omit<MethodInfo, 'params' | 'defaults' | 'implicitDefaults'> & { readonly params: ParamSpec<P> };

/**
 * What every structure a learner returns is guaranteed to be; estimators state what they need in these
 * terms (`requires`, `rejects`) instead of naming learners, so a new learner declares its traits once and
 * every estimator's applicability follows.
 */
const STRUCTURE_TRAITS = {
  'naive-bayes': 'a naive Bayes structure (the class the only parent of every attribute)',
  'weighted-rows': 'members fitted on row weights (fractional counts)',
} as const;
export type StructureTrait = keyof typeof STRUCTURE_TRAITS;

export interface StructureLearner<P extends Params = Params> extends MethodInfo {
  /** Traits of every structure this learner returns (see STRUCTURE_TRAITS); none by default. */
  readonly traits?: readonly StructureTrait[];
  /** Any subset of the parameters: registration fills in the rest from the defaults. */
  learn(train: DiscreteData, params: Partial<P>, ctx: LearnContext): Structure;
}

export type StructureDefinition<P extends Params> = Definition<P> & {
  readonly traits?: readonly StructureTrait[];
  /** Receives complete parameters (every declared default filled in). */
  learn(train: DiscreteData, params: P, ctx: LearnContext): Structure;
};

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
  /** Any subset of the parameters: registration fills in the rest from the defaults. */
  fit(train: DiscreteData, structure: Structure, params: Partial<P>, ctx: LearnContext): Model;
  /**
   * For estimators whose tables are θ_jk = (N_jk + a) / (N_j + r a): the per-cell pseudo-count a of a family
   * with childCard r and `configs` parent configurations. Present exactly when missing: em can fit them
   * (the M-step applies this formula to expected counts; src/bn/em.ts).
   */
  readonly pseudoCount?: (params: Partial<P>, childCard: number, configs: number) => number;
}

type EstimatorDefinition<P extends Params> = Definition<P> &
  Pick<Estimator, 'requires' | 'rejects'> & {
    /** Receives complete parameters (every declared default filled in), as does pseudoCount. */
    fit(train: DiscreteData, structure: Structure, params: P, ctx: LearnContext): Model;
    readonly pseudoCount?: (params: P, childCard: number, configs: number) => number;
  };

/**
 * A baseline: a classifier that is not a structure × estimator pair (decision tree, random forest).
 * A spec lists baselines under `baselines:`; they run on the same folds and preprocessing.
 */
interface Baseline<P extends Params = Params> extends MethodInfo {
  /** Any subset of the parameters (those marked required included): registration fills in the rest. */
  fit(train: DiscreteData, params: Partial<P>, ctx: LearnContext): Model;
}

type BaselineDefinition<P extends Params> = Definition<P> & {
  /** Receives complete parameters (every declared default filled in). */
  fit(train: DiscreteData, params: P, ctx: LearnContext): Model;
};

const structures = new Map<string, StructureLearner>();
const estimators = new Map<string, Estimator>();
const baselines = new Map<string, Baseline>();

// Registration wraps learn / fit (and pseudoCount) so that the implementation always receives complete
// parameters (its defaults overlaid with what the caller gave): the spec, a test, a bench or an ensemble
// calling another learner all get the same values, and the declaration is the one place a default is
// written. Implementations therefore read `params.x` with no `?? default` of their own.

function info<P>(d: Definition<P>): MethodInfo {
  if (!Number.isInteger(d.revision) || d.revision < 1)
    throw new Error(`method '${d.id}': revision must be an integer ≥ 1`);
  const { params, ...rest } = d;
  return { ...rest, params: params.schema, defaults: params.defaults, implicitDefaults: params.implicitDefaults };
}

export function registerStructure<P extends Params>(s: StructureDefinition<P>): StructureLearner<P> {
  if (structures.has(s.id)) throw new Error(`structure '${s.id}' registered twice`);
  const base = info(s);
  const learner: StructureLearner<P> = {
    ...s,
    ...base,
    learn: (train, params, ctx) => s.learn(train, fill(base, params) as P, ctx),
  };
  structures.set(s.id, learner as unknown as StructureLearner);
  return learner;
}

export function registerEstimator<P extends Params>(e: EstimatorDefinition<P>): Estimator<P> {
  if (estimators.has(e.id)) throw new Error(`estimator '${e.id}' registered twice`);
  const base = info(e);
  const pc = e.pseudoCount;
  const estimator: Estimator<P> = {
    ...e,
    ...base,
    fit: (train, structure, params, ctx) => e.fit(train, structure, fill(base, params) as P, ctx),
    pseudoCount: pc && ((params, r, q) => pc(fill(base, params) as P, r, q)),
  };
  estimators.set(e.id, estimator as unknown as Estimator);
  return estimator;
}

export function registerBaseline<P extends Params>(b: BaselineDefinition<P>): Baseline<P> {
  if (baselines.has(b.id)) throw new Error(`baseline '${b.id}' registered twice`);
  const base = info(b);
  const baseline: Baseline<P> = {
    ...b,
    ...base,
    fit: (train, params, ctx) => b.fit(train, fill(base, params) as P, ctx),
  };
  baselines.set(b.id, baseline as unknown as Baseline);
  return baseline;
}

export function getBaseline(id: string): Baseline | undefined {
  return baselines.get(id);
}

export function listBaselines(): Baseline[] {
  return [...baselines.values()].sort((a, b) => codeOrder(a.id, b.id));
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
  return [...structures.values()].sort((a, b) => codeOrder(a.id, b.id));
}

export function listEstimators(): Estimator[] {
  return [...estimators.values()].sort((a, b) => codeOrder(a.id, b.id));
}

/**
 * A job's parameters: defaults overlaid with the given values (the spec validator has already checked them
 * against the schema). Implicit defaults are left out: they are not part of the job key.
 */
export function withDefaults(info: MethodInfo, params: Params | undefined): Params {
  return { ...info.defaults, ...info.presets?.(params ?? {}), ...(params ?? {}) };
}

/** The complete parameters of a registered method. */
type MethodParams<M> =
  M extends StructureLearner<infer P> ? P : M extends Estimator<infer P> ? P : M extends Baseline<infer P> ? P : Params;

/**
 * What an implementation receives: every declared default (implicit ones included) under the given values.
 * Typed for a registered method, so a test or bench can call a learner's helpers with complete parameters.
 */
export function completeParams<M extends MethodInfo>(method: M, params?: Partial<MethodParams<M>>): MethodParams<M> {
  return fill(method, params) as MethodParams<M>;
}

function fill(info: MethodInfo, params: Params | undefined): Params {
  return { ...info.implicitDefaults, ...info.defaults, ...info.presets?.(params ?? {}), ...(params ?? {}) };
}
