/**
 * Shards: a deterministic, cost-balanced partition of a plan's jobs into N parts, so that N machines (or
 * the N tasks of a job array) can each run one part into their own database and `bnclab merge` joins them.
 *
 * What is partitioned is the FULL plan, by static cost (src/spec/cost.ts), never "the jobs not yet done":
 * shards run concurrently against separate shard databases, so no task can know what the others have
 * finished, and a partition of the pending jobs would differ from machine to machine. With the full plan
 * the same spec and the same N give the same shards everywhere; each task then skips the jobs of its
 * shard that its own database (a resumed shard file, or a merged database given with --db) already holds.
 *
 * Balancing is longest-processing-time first (Graham 1969): jobs by static cost, descending (ties by job
 * key), each to the shard with the least load so far (ties to the lowest index). Its makespan is at most
 * 4/3 of the optimum, and it cannot do better than the single most expensive job.
 */
import { UserError } from '../util/errors.js';
import type { PlanSummary, PlannedJobSummary } from './plan.js';
import type { CostModel } from './cost.js';

export interface ShardSpec {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** Parse "I/N" (1 ≤ I ≤ N). */
export function parseShard(text: string, what = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UserError(`${what}: expected I/N (shard I of N, 1-based), got '${text}'`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) {
    throw new UserError(`${what}: shard ${index} of ${count} does not exist (I must be 1..N)`);
  }
  return { index, count };
}

interface Partition {
  readonly count: number;
  /** 1-based shard of each job key. */
  readonly shardOf: ReadonlyMap<string, number>;
  /** Static cost (ms) per shard, index 0 = shard 1. */
  readonly load: readonly number[];
  /** Jobs per shard. */
  readonly jobs: readonly number[];
}

export function partitionPlan(plan: PlanSummary, model: CostModel, count: number): Partition {
  return partitionJobs(
    plan.jobs.map((j: PlannedJobSummary) => ({ key: j.key, cost: model.staticCost(j) })),
    count,
  );
}

/** LPT partition of (key, cost) items into `count` shards; deterministic for the same items. */
export function partitionJobs(items: readonly { key: string; cost: number }[], count: number): Partition {
  if (!Number.isInteger(count) || count < 1) throw new UserError(`shards: expected a whole number ≥ 1, got ${count}`);
  const order = [...items].sort((a, b) => b.cost - a.cost || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const load = new Array<number>(count).fill(0);
  const jobs = new Array<number>(count).fill(0);
  const shardOf = new Map<string, number>();
  // A binary heap of shards keyed by (load, index) keeps this O(J log N) for large grids.
  const heap = Array.from({ length: count }, (_, i) => i);
  const less = (a: number, b: number): boolean => load[a] < load[b] || (load[a] === load[b] && a < b);
  for (const it of order) {
    const s = heap[0];
    shardOf.set(it.key, s + 1);
    load[s] += it.cost;
    jobs[s]++;
    // Sift the root down.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < count && less(heap[l], heap[best])) best = l;
      if (r < count && less(heap[r], heap[best])) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best], heap[i]];
      i = best;
    }
  }
  return { count, shardOf, load, jobs };
}

/** max / mean of the shard loads: 1 is perfect balance. */
export function imbalance(p: Partition): number {
  const mean = p.load.reduce((a, b) => a + b, 0) / p.count;
  return mean > 0 ? Math.max(...p.load) / mean : 1;
}
