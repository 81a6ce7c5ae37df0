/**
 * What identifies a job and seeds its learners, written once: the content a plan's job key hashes
 * (`jobContent`, `jobIdentity`), the key of a method fitted on all rows (`fullDataKey`, for `bnclab fit` and `boot`), and the
 * learners' seed derived from a key (`learnerSeed`). docs/architecture.md ("Identity") describes the rule.
 */
import type { DatasetHandle } from '../datasets/handle.js';
import { canonicalJson, canonicalTextKey, contentKey, sha256Hex } from '../util/hash.js';
import { RESULTS_VERSION } from '../version.js';
import type { ExperimentSpec, MethodSpec } from './load.js';
import { JOB_KEY_LENGTH, olderKeys, olderRevisions, revisedContent, revisedKey, type Revisions } from './revision.js';

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

/** A job's key, the keys it had under older revisions of its method, and its learners' seed. */
export interface JobIdentity {
  readonly key: string;
  readonly seed: string;
  readonly older: string[];
}

/**
 * A job's key (its content with the revisions of its method), the keys it had under older revisions, and its
 * learners' seed. The seed comes from the key without the revisions, so raising one alone changes no random
 * stream; while both revisions are 1 that is the key itself.
 */
export function jobIdentity(content: Record<string, unknown>, r: Revisions): JobIdentity {
  const key = revisedKey(content, r);
  const older = olderKeys(content, r);
  return { key, seed: learnerSeed(older.length > 0 ? contentKey(content, JOB_KEY_LENGTH) : key), older };
}

/**
 * `jobIdentity(jobContent(spec, d, repeat, fold, m), r)` for the jobs of one dataset and method, as a function
 * of the repeat and the fold. A plan asks for a key per job, and sorting and writing the whole content was
 * most of its cost: the content's canonical text is its members in key order, each written as
 * `canonicalJson` writes it alone, so the members but `repeat` and `fold` are written once here, for the
 * content as it is (the seed's, and the key's while both revisions are 1) and with each revision pair its
 * keys hash (revision.ts: `revisedKey`, `olderKeys`).
 */
export function jobIdentities(
  spec: ExperimentSpec,
  d: KeyedDataset,
  m: MethodSpec,
  r: Revisions,
): (repeat: number, fold: number) => JobIdentity {
  const content = jobContent(spec, d, 0, 0, m);
  // As jobIdentity: the key hashes the content with the revisions (revisedContent adds nothing while both are
  // 1), the older keys each older pair's, and the seed the content without them once there are older keys.
  const plain = keyTemplate(content);
  const current = keyTemplate(revisedContent(content, r));
  const older = olderRevisions(r).map((p) => keyTemplate(revisedContent(content, p)));
  return (repeat, fold) => {
    const key = current(repeat, fold);
    return {
      key,
      seed: learnerSeed(older.length > 0 ? plain(repeat, fold) : key),
      older: older.map((k) => k(repeat, fold)),
    };
  };
}

/** `contentKey(content with repeat and fold set, JOB_KEY_LENGTH)` as a function of the repeat and the fold. */
function keyTemplate(content: Record<string, unknown>): (repeat: number, fold: number) => string {
  const members: string[] = [];
  let repeatAt = -1;
  let foldAt = -1;
  for (const name of Object.keys(content).sort()) {
    if (name === 'repeat') repeatAt = members.push('') - 1;
    else if (name === 'fold') foldAt = members.push('') - 1;
    else if (content[name] !== undefined) members.push(`${JSON.stringify(name)}:${canonicalJson(content[name])}`);
  }
  // `members` is filled in per call: nothing between the fill and the join yields.
  return (repeat, fold) => {
    members[repeatAt] = `"repeat":${repeat}`;
    members[foldAt] = `"fold":${fold}`;
    return canonicalTextKey(`{${members.join(',')}}`, JOB_KEY_LENGTH);
  };
}
