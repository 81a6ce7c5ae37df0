/** What a worker needs to run one job: plain, structured-cloneable data (no functions, no classes). */
import type { MethodSpec, PreprocessingSpec } from '../spec/load.js';
import type { Params } from '../registry.js';
import type { SelectSpec } from '../spec/select.js';

import type { DatasetHandle } from '../datasets/handle.js';
import type { RawTable } from '../datasets/table.js';
import type { FoldColumn } from '../folds/split.js';
import type { JobOutcome } from '../store/db.js';

export type { DatasetHandle };

/** A registered method's id with its complete parameters. */
interface Choice {
  readonly id: string;
  readonly params: Params;
}

/** The method a job fits: a structure learner with an estimator, or a baseline classifier. */
export type JobMethod =
  | {
      readonly kind: 'bnc';
      readonly structure: Choice;
      readonly estimator: Choice;
      /** Parameters chosen by inner cross-validation (`select:`), or undefined. */
      readonly select?: SelectSpec;
    }
  | { readonly kind: 'baseline'; readonly baseline: Choice };

/** What fitting a method needs besides the method and the rows (also `bnclab fit`'s, which has no fold). */
export interface LearnInput {
  readonly dataset: DatasetHandle;
  /**
   * The dataset's table as the coordinator loaded it, when its columns are in shared memory: the worker
   * uses it instead of reading the file, and two workers hold one copy. Otherwise the worker loads it.
   */
  readonly table?: RawTable;
  readonly preprocessing: PreprocessingSpec;
  /** The spec's folder (relative paths in parameters resolve against it); not part of the job key. */
  readonly specDir?: string;
}

interface JobFold {
  readonly key: string;
  /** Seed of the learner's random source (derived from the job key, never from the job's position). */
  readonly seed: string;
  /** The split's row → test-fold assignment for this job's repeat, and its key (for caching). */
  readonly splitKey: string;
  readonly repeat: number;
  readonly assignment: FoldColumn;
  readonly fold: number;
  readonly savePredictions: boolean;
}

export type JobPayload = JobFold & LearnInput & JobMethod;

/**
 * Payload members that many jobs share, the same object each time (the plan's dataset, its table in shared
 * memory, a repeat's fold assignment in shared memory, the spec's preprocessing, a method's structure learner,
 * estimator or baseline with their parameters: jobMethod gives each method's once): the pool (pool.ts) sends
 * each to a worker with the first payload that holds it and names it by an id afterwards. A short job's
 * payload cost its structured clone (serialized by the coordinator, read back by the worker) about 16 µs of
 * CPU with them, 6 without.
 */
export const SENT_ONCE = [
  'dataset',
  'table',
  'assignment',
  'preprocessing',
  'structure',
  'estimator',
  'baseline',
] as const;
export type SentOnce = (typeof SENT_ONCE)[number];

/** Each method's JobMethod, made once: its jobs' payloads hold the same objects (SENT_ONCE). */
const jobMethods = new WeakMap<MethodSpec, JobMethod>();

/**
 * A spec's method as a job runs it. The spec keeps a baseline's id in `structure` (and a null estimator);
 * here each kind has its own fields, so nothing downstream asks which one it holds. The same object for the
 * same method each time.
 */
export function jobMethod(m: MethodSpec): JobMethod {
  let method = jobMethods.get(m);
  if (method) return method;
  const choice = (c: Choice): Choice => ({ id: c.id, params: c.params });
  if (m.kind === 'baseline') method = { kind: 'baseline', baseline: choice(m.structure) };
  else {
    if (!m.estimator) throw new Error(`method '${m.label}': a structure learner without an estimator`);
    method = {
      kind: 'bnc',
      structure: choice(m.structure),
      estimator: choice(m.estimator),
      ...(m.select ? { select: m.select } : {}),
    };
  }
  jobMethods.set(m, method);
  return method;
}

/** The outcome of a job that was started neither by its worker nor by the pool (an interrupt came first). */
export function cancelledOutcome(key: string): JobOutcome {
  return { key, status: 'error', cancelled: true, error: 'cancelled', preprocessMs: 0, trainMs: 0, predictMs: 0 };
}
