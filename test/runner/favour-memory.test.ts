/**
 * A run that favours memory (the CLI's `run`: util/v8-memory.ts) sets V8's flag once its workers are running
 * and resets it before it returns, and stores the same numbers as a run that does not. In a child process on
 * the built modules, since V8's flags are the whole process's.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distModule, nodeScript, ROOT, tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';

const SPEC = `name: favour-memory
seed: 5
datasets: [iris, zoo]
resampling: { method: cv, folds: 5, stratified: true }
structures: [nb, tan]
estimators: [{ id: dirichlet, params: { alpha: [1, 0.5] } }]
`;

/** Runs the spec in a child; returns the V8 flags it set, in order, and what it saw when the run returned. */
function run(spec: string, db: string, favourMemory: boolean): { flags: string[]; after: boolean } {
  const dist = (m: string): string => JSON.stringify(distModule(m));
  const script = `
    import v8 from 'node:v8';
    const flags = [];
    const set = v8.setFlagsFromString;
    v8.setFlagsFromString = (f) => { flags.push(f); return set(f); };
    const { runExperiment } = await import(${dist('runner/run.js')});
    const { favouringMemory } = await import(${dist('util/v8-memory.js')});
    const r = await runExperiment(${JSON.stringify(spec)}, { db: ${JSON.stringify(db)}, workers: 2, quiet: true, favourMemory: ${favourMemory} });
    if (r.failed !== 0) throw new Error('failed jobs');
    console.log(JSON.stringify({ flags, after: favouringMemory() }));
  `;
  const r = nodeScript(script);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout.trim());
}

const built = existsSync(join(ROOT, 'dist', 'src', 'util', 'v8-memory.js'));

describe.skipIf(!built)('a run that favours memory', () => {
  it('sets the flag while its workers run, resets it, and stores the same numbers', async () => {
    const dir = tempDir();
    const spec = join(dir, 'favour.yaml');
    writeFileSync(spec, SPEC);
    const on = run(spec, join(dir, 'on.duckdb'), true);
    const off = run(spec, join(dir, 'off.duckdb'), false);
    expect(on.flags.filter((f) => /optimize-for-size|semi-space/.test(f))).toEqual([
      '--optimize-for-size',
      '--no-optimize-for-size',
      '--max-semi-space-size=0',
    ]);
    expect(on.after).toBe(false);
    expect(off.flags.filter((f) => /optimize-for-size|semi-space/.test(f))).toEqual([]);
    const metrics = (db: string) => query(db, `SELECT * FROM job_metrics ORDER BY job_key`);
    const a = await metrics(join(dir, 'on.duckdb'));
    expect(a).toHaveLength(40);
    expect(a).toEqual(await metrics(join(dir, 'off.duckdb')));
  });
});
