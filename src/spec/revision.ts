/**
 * Implementation revisions in job keys. Each registered method declares `revision` (src/registry.ts): 1 at
 * first, raised whenever a change alters its numbers. A job's key holds the revisions of its structure learner
 * and estimator (or baseline) when either is above 1, so every key made before revisions existed (all 1) is
 * unchanged, and a raised revision gives new keys. The keys the same job had under each older revision are
 * what `run` and `status` look up to count stale results, and what `run --rerun-stale` replaces.
 */
import { getBaseline, getEstimator, getStructure } from '../registry.js';
import { contentKey } from '../util/hash.js';
import type { MethodSpec } from './load.js';

/** The revisions of a method's parts: [structure learner or baseline, estimator (0 for a baseline)]. */
export type Revisions = readonly [number, number];

export function methodRevisions(m: MethodSpec): Revisions {
  if (m.kind === 'baseline') return [getBaseline(m.structure.id)?.revision ?? 1, 0];
  return [getStructure(m.structure.id)?.revision ?? 1, m.estimator ? (getEstimator(m.estimator.id)?.revision ?? 1) : 0];
}

/** What the revisions add to a job's key content: nothing while both are 1 (the keys made before revisions). */
function revisionPart(r: Revisions): { rev?: Revisions } {
  return r[0] > 1 || r[1] > 1 ? { rev: r } : {};
}

/** A job's key content with the revisions of its method. */
export function revisedContent(content: Record<string, unknown>, r: Revisions): Record<string, unknown> {
  return { ...content, ...revisionPart(r) };
}

/** The length of a job key: 24 hex digits (96 bits) of the sha256 of its content. */
export const JOB_KEY_LENGTH = 24;

/** A job's key: its content with the revisions of its method. */
export function revisedKey(content: Record<string, unknown>, r: Revisions): string {
  return contentKey(revisedContent(content, r), JOB_KEY_LENGTH);
}

/**
 * Every older revision pair of a method's parts (each part at 1 … its revision, the current pair left out),
 * in the order olderKeys lists their keys; none while both revisions are 1.
 */
export function olderRevisions(r: Revisions): Revisions[] {
  if (r[0] <= 1 && r[1] <= 1) return [];
  const out: Revisions[] = [];
  for (let s = 1; s <= r[0]; s++) {
    for (let e = r[1] === 0 ? 0 : 1; e <= r[1]; e++) {
      if (s === r[0] && e === r[1]) continue;
      out.push([s, e]);
    }
  }
  return out;
}

/**
 * The keys the same job had under every older revision of its parts (each part at 1 … its revision, the
 * current pair left out); empty while both revisions are 1.
 */
export function olderKeys(content: Record<string, unknown>, r: Revisions): string[] {
  return olderRevisions(r).map((p) => revisedKey(content, p));
}

/**
 * Plan jobs whose current result is missing while a result of an older revision of their method is stored:
 * `isDone` says whether a key has a finished result.
 */
export function staleJobs<J extends { readonly key: string; readonly olderKeys?: readonly string[] }>(
  jobs: Iterable<J>,
  isDone: (key: string) => boolean,
): J[] {
  const out: J[] = [];
  for (const j of jobs) if (j.olderKeys !== undefined && !isDone(j.key) && j.olderKeys.some(isDone)) out.push(j);
  return out;
}
