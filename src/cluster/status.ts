/**
 * `bnclab status`: done / failed / pending of a spec's jobs per dataset × method, from one results
 * database and/or a directory of shard databases. Read-only and safe while shards run: every database is
 * opened READ_ONLY; one that a running task holds open for writing (DuckDB lets only that process open it)
 * is read from a snapshot copy in a temporary directory instead, and when even that fails it is named on
 * one line and its jobs count as pending.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PlanSummary } from '../spec/plan.js';
import { CostModel } from '../spec/cost.js';
import { partitionPlan } from '../spec/shard.js';
import { staleJobs } from '../spec/revision.js';
import { ResultStore } from '../store/db.js';
import { UserError } from '../util/errors.js';
import { cellKey } from '../util/keys.js';

type JobState = 'done' | 'error' | 'pending';

interface SourceNote {
  readonly file: string;
  /** 'ok', 'snapshot' (read from a copy: a running task holds it), or 'unreadable' with the reason. */
  readonly how: 'ok' | 'snapshot' | 'unreadable';
  readonly reason?: string;
  readonly jobs: number;
}

interface StatusRow {
  /** The master seed, in a multi-seed experiment (`seeds:` or `--seeds N`): one row per seed. */
  readonly seed?: string;
  readonly dataset: string;
  readonly method: string;
  readonly done: number;
  readonly failed: number;
  readonly pending: number;
}

interface StatusResult {
  readonly rows: readonly StatusRow[];
  readonly sources: readonly SourceNote[];
  readonly total: { done: number; failed: number; pending: number };
  /** Jobs not done whose result of an older revision of their method is stored (`run --rerun-stale`). */
  readonly stale: number;
  /** Per shard (when the shard count is known from the file names shard-I-of-N.duckdb). */
  readonly shards?: readonly { index: number; done: number; failed: number; pending: number; jobs: number }[];
}

/** Shard databases in a directory: every *.duckdb file, in name order. */
export function shardFiles(dir: string): string[] {
  if (!existsSync(dir)) throw new UserError(`${dir}: no such directory of shard databases`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.duckdb'))
    .sort()
    .map((f) => join(dir, f));
}

/** The file name a shard database gets from `bnclab submit` (and the docs' examples). */
export function shardFileName(index: number, count: number): string {
  return `shard-${String(index).padStart(String(count).length, '0')}-of-${count}.duckdb`;
}

async function readStates(
  file: string,
  keys: ReadonlySet<string>,
): Promise<{ states: Map<string, JobState>; note: SourceNote }> {
  const states = new Map<string, JobState>();
  try {
    // A file a running task holds is read from a snapshot copy (ResultStore.open); a copy taken
    // mid-checkpoint may be unreadable, and then it is named as such rather than guessed at.
    const store = await ResultStore.open(file, { readOnly: true });
    try {
      for (const [k, state] of await store.finishedJobStates()) if (keys.has(k)) states.set(k, state);
    } finally {
      store.close();
    }
    return { states, note: { file, how: store.snapshotOf ? 'snapshot' : 'ok', jobs: states.size } };
  } catch (e) {
    return { states, note: { file, how: 'unreadable', reason: (e as Error).message, jobs: 0 } };
  }
}

export async function collectStatus(plan: PlanSummary, files: readonly string[]): Promise<StatusResult> {
  const keys = new Set(plan.jobs.flatMap((j) => [j.key, ...(j.olderKeys ?? [])]));
  const state = new Map<string, JobState>();
  const sources: SourceNote[] = [];
  for (const f of files) {
    const { states, note } = await readStates(resolve(f), keys);
    sources.push({ ...note, file: f });
    // done beats error beats pending: a job that failed in one shard and was redone in another is done.
    for (const [k, s] of states) if (state.get(k) !== 'done') state.set(k, s);
  }
  const rows = new Map<
    string,
    { seed?: string; dataset: string; method: string; done: number; failed: number; pending: number }
  >();
  const total = { done: 0, failed: 0, pending: 0 };
  const bump = (o: { done: number; failed: number; pending: number }, s: JobState): void => {
    if (s === 'done') o.done++;
    else if (s === 'error') o.failed++;
    else o.pending++;
  };
  for (const j of plan.jobs) {
    const id = cellKey(j.specSeed ?? '', cellKey(j.dataset.handle.name, j.method.label));
    const row = rows.get(id) ?? {
      ...(j.specSeed !== undefined ? { seed: j.specSeed } : {}),
      dataset: j.dataset.handle.name,
      method: j.method.label,
      done: 0,
      failed: 0,
      pending: 0,
    };
    const s = state.get(j.key) ?? 'pending';
    bump(row, s);
    bump(total, s);
    rows.set(id, row);
  }
  // Shard progress when the files follow the shard-I-of-N naming.
  let shards: StatusResult['shards'];
  const counts = new Set(
    files.map((f) => /-of-(\d+)\.duckdb$/.exec(f)?.[1]).filter((x): x is string => x !== undefined),
  );
  if (counts.size === 1) {
    const n = Number([...counts][0]);
    const part = partitionPlan(plan, new CostModel(plan), n);
    const per = Array.from({ length: n }, (_, i) => ({ index: i + 1, done: 0, failed: 0, pending: 0, jobs: 0 }));
    for (const j of plan.jobs) {
      const p = per[part.shardOf.get(j.key)! - 1];
      p.jobs++;
      bump(p, state.get(j.key) ?? 'pending');
    }
    shards = per;
  }
  const stale = staleJobs(plan.jobs, (k) => state.get(k) === 'done').length;
  return { rows: [...rows.values()], sources, total, stale, shards };
}
