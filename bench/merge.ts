/**
 * `bnclab merge` at paper scale: time and peak memory of merging S synthetic shard databases of a J-job
 * experiment (every shard registers all J jobs, as `run --shard` does, and holds J/S of them done with
 * metrics and 10 learned arcs each), then of merging them all again (idempotent: everything identical).
 *
 *   npm run build && node dist/bench/merge.js [--jobs 100000] [--shards 8] [--dir /tmp/bnclab-merge-bench]
 *
 * Reports wall and CPU seconds of each merge and the process's peak resident memory (DuckDB included).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { ResultStore } from '../src/store/db.js';
import { mergeShards } from '../src/store/merge.js';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '100000' },
    shards: { type: 'string', default: '8' },
    dir: { type: 'string', default: '/tmp/bnclab-merge-bench' },
  },
});
const J = Number(values.jobs);
const S = Number(values.shards);
const dir = values.dir;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

async function makeShard(s: number): Promise<string> {
  const path = join(dir, `shard-${s + 1}-of-${S}.duckdb`);
  const store = await ResultStore.open(path);
  try {
    await store.upsertExperiment({
      name: 'synthetic',
      specFile: 'synthetic.yaml',
      specHash: 'h',
      specText: '',
      seed: '1',
      version: 'bench',
    });
    await store.query(
      `INSERT INTO jobs (job_key, dataset, dataset_hash, split_key, "repeat", fold, structure, structure_params, estimator,
                         estimator_params, preprocessing, seed, status, attempts, train_ms, predict_ms, bnclab_version)
       SELECT 'job' || lpad(i::VARCHAR, 8, '0'), 'd' || (i % 60), 'h' || (i % 60), 's' || (i % 60), (i // 60) % 5, (i // 300) % 2,
              'kdb', '{"k":' || (i % 5) || '}', 'hdp', '{}', '{}', 'seed' || i,
              CASE WHEN i % ${S} = ${s} THEN 'done' ELSE 'pending' END, CASE WHEN i % ${S} = ${s} THEN 1 ELSE 0 END,
              (i % 997) * 1.5, (i % 101) * 0.5, 'bench'
       FROM range(${J}) t(i)`,
    );
    await store.query(
      `INSERT INTO experiment_jobs SELECT 'synthetic', 'job' || lpad(i::VARCHAR, 8, '0'), 'm' || (i % 16) FROM range(${J}) t(i)`,
    );
    await store.query(
      `INSERT INTO job_metrics SELECT 'job' || lpad(i::VARCHAR, 8, '0'), (i % 1000) / 1000.0, 1 - (i % 1000) / 1000.0, sqrt(i % 77) / 10, ln(2 + i % 13), 500, 500, 10
       FROM range(${J}) t(i) WHERE i % ${S} = ${s}`,
    );
    await store.query(
      `INSERT INTO structures SELECT 'job' || lpad(i::VARCHAR, 8, '0'), 'a' || a, 'a' || (a + 1) FROM range(${J}) t(i), range(10) u(a) WHERE i % ${S} = ${s}`,
    );
  } finally {
    store.close();
  }
  return path;
}

const t0 = performance.now();
const shards: string[] = [];
for (let s = 0; s < S; s++) shards.push(await makeShard(s));
console.log(`made ${S} shards of a ${J}-job experiment in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

for (const round of ['first merge', 'merge again (idempotent)']) {
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  const counts = await mergeShards(join(dir, 'merged.duckdb'), shards);
  const wall = (performance.now() - w0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const total = (k: 'newDone' | 'identical' | 'conflicting'): number => counts.reduce((a, c) => a + c[k], 0);
  console.log(
    `${round}: ${wall.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU; ` +
      `${total('newDone')} new, ${total('identical')} identical, ${total('conflicting')} conflicting`,
  );
}
console.log(`peak resident memory: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
rmSync(dir, { recursive: true, force: true });
