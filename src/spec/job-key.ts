/**
 * What identifies a job and seeds its learners, written once: the content a plan's job key hashes
 * (`jobContent`, `jobIdentity`), the key of a method fitted on all rows (`fullDataKey`, for `bnclab fit` and `boot`), and the
 * learners' seed derived from a key (`learnerSeed`). docs/architecture.md ("Identity") describes the rule.
 */
import type { DatasetHandle } from '../datasets/handle.js';
import { contentKey, sha256Hex } from '../util/hash.js';
import { RESULTS_VERSION } from '../version.js';
import type { ExperimentSpec, MethodSpec } from './load.js';
import { olderKeys, revisedKey, type Revisions } from './revision.js';

/** The dataset's part of a key: the file's content and the class column. */
function datasetContent(h: DatasetHandle) {
  return { dataset: h.sha256, classColumn: h.classColumn ?? null };
}

/** The method's part of a key: its kind, the structure learner (or baseline) and the estimator, all parameters. */
function methodContent(m: MethodSpec) {
  return {
    kind: m.kind,
    structure: { id: m.structure.id, params: m.structure.params },
    estimator: m.estimator ? { id: m.estimator.id, params: m.estimator.params } : null,
  };
}

/** A planned dataset as its jobs' keys see it. */
interface KeyedDataset {
  readonly handle: DatasetHandle;
  readonly declaredColumns?: { readonly types: Readonly<Record<string, string>>; readonly ignore: readonly string[] };
  readonly splitKey: string;
}

/** The content of a job's key, before the revisions of its method are added (`revisedKey`). */
export function jobContent(
  spec: ExperimentSpec,
  d: KeyedDataset,
  repeat: number,
  fold: number,
  m: MethodSpec,
): Record<string, unknown> {
  return {
    v: RESULTS_VERSION,
    ...datasetContent(d.handle),
    // Only when the spec declares column types or ignored columns, so every other key stays as it was.
    ...(d.declaredColumns ? { columns: d.declaredColumns } : {}),
    preprocessing: spec.preprocessing,
    split: d.splitKey,
    repeat,
    fold,
    ...methodContent(m),
    seed: spec.seed,
    select: m.select, // absent (and so not in the key) unless the method has a select: section
  };
}

/**
 * The key of `m` fitted on all rows of a dataset (`bnclab fit`, `bnclab boot`): a job's content without the
 * results version, the split, the repeat, the fold and `select:`.
 */
export function fullDataKey(spec: ExperimentSpec, handle: DatasetHandle, m: MethodSpec): string {
  return contentKey(
    {
      fit: 'full-data',
      ...datasetContent(handle),
      preprocessing: spec.preprocessing,
      ...methodContent(m),
      seed: spec.seed,
    },
    24,
  );
}

/** The seed of the learners of the job (or full-data fit) with this key. */
export function learnerSeed(key: string): string {
  return sha256Hex(`learn/${key}`);
}

/**
 * A job's key (its content with the revisions of its method), the keys it had under older revisions, and its
 * learners' seed. The seed comes from the key without the revisions, so raising one alone changes no random
 * stream; while both revisions are 1 that is the key itself.
 */
export function jobIdentity(
  content: Record<string, unknown>,
  r: Revisions,
): { key: string; seed: string; older: string[] } {
  const key = revisedKey(content, r);
  const older = olderKeys(content, r);
  return { key, seed: learnerSeed(older.length > 0 ? contentKey(content, 24) : key), older };
}
