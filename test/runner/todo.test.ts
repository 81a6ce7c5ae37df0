/**
 * Registering while running (src/runner/todo.ts): on a database where nothing has finished, the streamed
 * jobs are exactly the ones registerAndChoose chooses, in the same order, with the same counts and cost, and
 * every job of the plan ends up registered, in scope or not.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPlan, type PlannedJob } from '../../src/spec/plan.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { ResultStore, type JobRow } from '../../src/store/db.js';
import {
  freshCounts,
  registerAndChoose,
  STREAM_CHUNK,
  StreamedJobs,
  Turns,
  type TodoJob,
} from '../../src/runner/todo.js';
import { tempDir } from '../helpers/cli.js';

function planOf(dir: string) {
  const file = join(dir, 'grid.yaml');
  const alphas = Array.from({ length: 25 }, (_, i) => 1 + i / 10).join(', ');
  writeFileSync(
    file,
    `name: grid
seed: 1
datasets: [iris]
preprocessing: { discretize: mdl, missing: as-value }
resampling: { method: cv, folds: 10, repeats: 10, stratified: true }
structures: [nb]
estimators:
  - id: dirichlet
    params: { alpha: [${alphas}] }
`,
  );
  return buildPlan(loadSpecFile(file).spec);
}

const rowOf = (j: PlannedJob): JobRow => ({
  key: j.key,
  dataset: j.dataset.handle.name,
  datasetHash: j.dataset.handle.sha256,
  splitKey: j.dataset.splitKey,
  repeat: j.repeat,
  fold: j.fold,
  structure: j.method.structure.id,
  structureParams: '{}',
  estimator: j.method.estimator?.id ?? null,
  estimatorParams: null,
  preprocessing: '{}',
  seed: j.seed,
  method: j.method.label,
});

describe('streamed registration', () => {
  it('hands out the jobs registerAndChoose chooses, in order, and registers the whole plan', async () => {
    const dir = tempDir();
    const plan = planOf(dir);
    const size = plan.grid!.size;
    expect(size).toBe(2500);
    expect(size).toBeGreaterThan(STREAM_CHUNK); // more than one chunk
    const inScope = (j: PlannedJob): boolean => j.fold % 3 === 1;

    const listedStore = await ResultStore.open(join(dir, 'listed.duckdb'));
    const streamedStore = await ResultStore.open(join(dir, 'streamed.duckdb'));
    try {
      const listed = await registerAndChoose(plan, listedStore, rowOf, 'v', { inScope });
      expect(await streamedStore.hasFinishedJobs()).toBe(false);
      const counts = freshCounts(plan, inScope);
      const { todo, ...listedCounts } = listed;
      expect(counts).toEqual(listedCounts);

      const source = new StreamedJobs(plan, streamedStore, rowOf, 'v', new Turns(), inScope);
      const taken: TodoJob[] = [];
      for (let t = await source.next(); t; t = await source.next()) taken.push(t);
      await source.stop();
      expect(source.failure).toBeUndefined();
      expect(Int32Array.from(taken.map((t) => t.index))).toEqual(todo);
      for (const t of taken) expect(t.job.key).toBe(plan.grid!.at(t.index).key);

      const statuses = await streamedStore.jobStatusesAmong(
        'grid',
        plan.jobs.map((j) => j.key),
      );
      expect(statuses.size).toBe(size);
      expect(new Set(statuses.values())).toEqual(new Set(['pending']));
      // Without a scope: every job, and the counts from the grid alone.
      const all = freshCounts(plan);
      expect(all.todoCount).toBe(size);
      const total = (c: { todoCostByMethod: Float64Array }): number => c.todoCostByMethod.reduce((a, b) => a + b, 0);
      expect(total(all)).toBeCloseTo(total(await registerAndChoose(plan, listedStore, rowOf, 'v', {})), 6);
    } finally {
      listedStore.close();
      streamedStore.close();
    }
  });

  it('takes turns: a transaction starts only after the one before it ends', async () => {
    const turns = new Turns();
    const log: string[] = [];
    const slow = turns.take(async () => {
      log.push('a start');
      await new Promise((r) => setTimeout(r, 20));
      log.push('a end');
    });
    const failing = turns.take(async () => {
      log.push('b');
      throw new Error('b failed');
    });
    const after = turns.take(async () => {
      log.push('c');
    });
    await slow;
    await expect(failing).rejects.toThrow('b failed');
    await after;
    expect(log).toEqual(['a start', 'a end', 'b', 'c']);
  });
});
