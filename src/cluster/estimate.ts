/**
 * `bnclab plan --estimate` and `plan --shards N`: expected core-hours per method and in total, wall time on
 * a given number of cores, and the expected cost of each shard. Costs come from the cost model
 * (src/spec/cost.ts), calibrated with the timings of finished jobs in a results database (--db) and/or of
 * a pilot: a stratified sample of the plan's jobs run here first (--pilot).
 */
import { existsSync } from 'node:fs';
import { type CostModel, methodIdentity, methodIdentityOf, type CostObservation } from '../spec/cost.js';
import type { Plan, PlanSummary, PlannedJob } from '../spec/plan.js';
import { imbalance, partitionPlan } from '../spec/shard.js';
import { ResultStore } from '../store/db.js';
import { UserError } from '../util/errors.js';

/**
 * Mean train + predict + preprocess ms of the finished jobs in a database, per method × dataset. `onSnapshot`
 * hears of a database read from a snapshot copy (a run is writing it): the file and who holds it.
 */
export async function readObservations(
  dbPath: string,
  onSnapshot?: (db: string, holder: string) => void,
): Promise<CostObservation[]> {
  if (!existsSync(dbPath)) throw new UserError(`${dbPath}: no results database to calibrate the cost model with`);
  const store = await ResultStore.open(dbPath, { readOnly: true });
  if (store.snapshotOf) onSnapshot?.(dbPath, store.snapshotOf);
  try {
    const rows = await store.methodTimings();
    return rows.map((r) => ({
      method: methodIdentity(
        String(r['structure']),
        String(r['structure_params']),
        r['estimator'] === null ? null : String(r['estimator']),
        r['estimator_params'] === null ? null : String(r['estimator_params']),
      ),
      datasetHash: String(r['dataset_hash']),
      meanMs: Number(r['ms']),
      jobs: Number(r['n']),
    }));
  } finally {
    store.close();
  }
}

/**
 * The pilot sample: for every method, the first fold of the datasets at the median and the upper quartile
 * of that method's static cost (two sizes, so the scale factor is not fitted on one point; not the
 * cheapest, whose milliseconds are start-up noise; never the costliest, the pilot is meant to take
 * minutes). A method without a cost formula has the first fold of every dataset timed instead (its
 * timings are not carried from one dataset to another). Deterministic: by static cost, ties by job key.
 */
export function pilotSample(plan: Plan, model: CostModel, perMethod = 2): PlannedJob[] {
  const out: PlannedJob[] = [];
  const unknown = new Set(model.unknownMethods);
  for (const m of plan.spec.methods) {
    const first = plan.jobs
      .filter((j) => j.method === m && j.repeat === 0 && j.fold === 0)
      .sort((a, b) => model.staticCost(a) - model.staticCost(b) || (a.key < b.key ? -1 : 1));
    if (first.length === 0) continue;
    // A method without a cost formula: its timings are not carried to other datasets (CostModel.calibrate),
    // so the first fold of every dataset is timed.
    if (unknown.has(m.label)) {
      out.push(...first);
      continue;
    }
    const picks = new Set<PlannedJob>();
    // Quantiles 1/2 … 3/4 of the method's datasets by static cost.
    for (let i = 0; i < perMethod; i++) {
      const q = 0.5 + (perMethod > 1 ? (0.25 * i) / (perMethod - 1) : 0);
      picks.add(first[Math.floor((first.length - 1) * q)]);
    }
    out.push(...picks);
  }
  return out;
}

/** Observations from pilot outcomes (job → measured ms). */
export function pilotObservations(results: readonly { job: PlannedJob; ms: number }[]): CostObservation[] {
  return results.map(({ job, ms }) => ({
    method: methodIdentityOf(job.method),
    datasetHash: job.dataset.handle.sha256,
    meanMs: ms,
    jobs: 1,
  }));
}

export function fmtHours(ms: number): string {
  const h = ms / 3_600_000;
  if (h >= 100) return `${h.toFixed(0)} h`;
  if (h >= 1) return `${h.toFixed(1)} h`;
  const m = ms / 60_000;
  return m >= 1 ? `${m.toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
}

/** Lines of `plan --estimate`: per method core-hours and basis, total, wall time on `cores` cores. */
export function estimateLines(plan: PlanSummary, model: CostModel, cores: number): string[] {
  const per = new Map<string, { ms: number; jobs: number; bases: Set<string> }>();
  let total = 0;
  let longest = 0;
  const unknown = new Set(model.unknownMethods);
  for (const j of plan.jobs) {
    const c = model.cost(j);
    if (unknown.has(j.method.label)) {
      // No number for a method whose cost is unknown on some dataset: its line says so, the total leaves it out.
      const e = per.get(j.method.label) ?? { ms: 0, jobs: 0, bases: new Set<string>() };
      e.jobs++;
      e.bases.add(c.basis);
      per.set(j.method.label, e);
      continue;
    }
    const e = per.get(j.method.label) ?? { ms: 0, jobs: 0, bases: new Set<string>() };
    e.ms += c.ms;
    e.jobs++;
    e.bases.add(c.basis);
    per.set(j.method.label, e);
    total += c.ms;
    longest = Math.max(longest, c.ms);
  }
  const w = Math.max(6, ...[...per.keys()].map((k) => k.length));
  const out = [`estimate (expected time on one core of the reference machine; see docs/cluster.md):`];
  out.push(
    `  ${'method'.padEnd(w)}  ${'jobs'.padStart(6)}  ${'core-hours'.padStart(10)}  ${'share'.padStart(6)}  basis`,
  );
  for (const [label, e] of per) {
    if (unknown.has(label)) {
      const timed = e.bases.has('observed');
      out.push(
        `  ${label.padEnd(w)}  ${String(e.jobs).padStart(6)}  ${'unknown'.padStart(10)}  ${''.padStart(6)}  ` +
          (timed
            ? 'unknown on the datasets without a timing of it (no formula to carry one to another)'
            : 'unknown: run --pilot (or --db with its timings)'),
      );
      continue;
    }
    out.push(
      `  ${label.padEnd(w)}  ${String(e.jobs).padStart(6)}  ${hours(e.ms).padStart(10)}  ${((100 * e.ms) / total).toFixed(1).padStart(5)}%  ${[...e.bases].sort().join('+')}`,
    );
  }
  out.push(
    `  ${'total'.padEnd(w)}  ${String(plan.jobs.length).padStart(6)}  ${hours(total).padStart(10)}` +
      (unknown.size > 0 ? `  + the unknown cost of ${[...unknown].join(', ')}` : ''),
  );
  // Wall time: the work spread over the cores, but never below the longest single job.
  const wall = Math.max(total / cores, longest);
  out.push(
    `wall time on ${cores} core${cores > 1 ? 's' : ''}: about ${fmtHours(wall)} (longest single job ${fmtHours(longest)})`,
  );
  if (unknown.size > 0) {
    out.push(
      `no cost formula for ${[...unknown].join(', ')} (B-RAI, external programs and learners without one): ` +
        `unknown until timed; run --pilot, or --db with a database holding their finished jobs`,
    );
  }
  return out;
}

/** Lines of `plan --shards N`: jobs and expected cost per shard, and the balance (max / mean). */
export function shardLines(plan: PlanSummary, model: CostModel, count: number, all = false): string[] {
  const part = partitionPlan(plan, model, count);
  // The partition is by static cost; the displayed cost of each shard uses the best estimate.
  const best = new Array<number>(count).fill(0);
  for (const j of plan.jobs) best[part.shardOf.get(j.key)! - 1] += model.cost(j).ms;
  const mean = best.reduce((a, b) => a + b, 0) / count;
  const max = Math.max(...best);
  const out = [`shards: ${count} (balanced by expected cost; the same partition on every machine)`];
  const show =
    all || count <= 16 ? [...best.keys()] : [...best.keys()].filter((i) => i < 4 || i >= count - 2 || best[i] === max);
  let last = -1;
  for (const i of show) {
    if (i > last + 1) out.push('  …');
    out.push(
      `  shard ${String(i + 1).padStart(String(count).length)}/${count}: ${String(part.jobs[i]).padStart(6)} jobs, ${fmtHours(best[i]).padStart(9)}`,
    );
    last = i;
  }
  out.push(
    `balance: max ${fmtHours(max)}, mean ${fmtHours(mean)}, max/mean ${(mean > 0 ? max / mean : 1).toFixed(3)}` +
      ` (static model: ${imbalance(part).toFixed(3)})`,
  );
  return out;
}

/** Core-hours with three significant digits (small specs take seconds, paper-scale ones thousands of hours). */
function hours(ms: number): string {
  const h = ms / 3_600_000;
  return h >= 100 ? h.toFixed(0) : h.toPrecision(3);
}
