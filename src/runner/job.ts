/** What a worker needs to run one job: plain, structured-cloneable data (no functions, no classes). */
import type { PreprocessingSpec } from '../spec/load.js';
import type { Params } from '../registry.js';
import type { SelectSpec } from '../spec/select.js';

import type { DatasetHandle } from '../datasets/handle.js';
import type { RawTable } from '../datasets/table.js';
import type { FoldColumn } from '../folds/split.js';

export type { DatasetHandle };

export interface JobPayload {
  readonly key: string;
  /** Seed of the learner's random source (derived from the job key, never from the job's position). */
  readonly seed: string;
  readonly dataset: DatasetHandle;
  /**
   * The dataset's table as the coordinator loaded it, when its columns are in shared memory: the worker
   * uses it instead of reading the file, and two workers hold one copy. Otherwise the worker loads it.
   */
  readonly table?: RawTable;
  readonly preprocessing: PreprocessingSpec;
  /** The split's row → test-fold assignment for this job's repeat, and its key (for caching). */
  readonly splitKey: string;
  readonly repeat: number;
  readonly assignment: FoldColumn;
  readonly fold: number;
  /** bnc: structure learner + estimator; baseline: `structure` names the baseline, estimator is null. */
  readonly kind: 'bnc' | 'baseline';
  readonly structure: { readonly id: string; readonly params: Params };
  readonly estimator: { readonly id: string; readonly params: Params } | null;
  readonly savePredictions: boolean;
  /** The spec's folder (relative paths in parameters resolve against it); not part of the job key. */
  readonly specDir?: string;
  /** Parameters chosen by inner cross-validation (`select:`), or undefined. */
  readonly select?: SelectSpec;
}
