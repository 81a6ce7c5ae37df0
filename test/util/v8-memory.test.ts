/**
 * V8 favouring memory while a `run` process runs its jobs (src/util/v8-memory.ts). V8's flags are the whole
 * process's, so each case runs in a child process on the built modules: the flag reaches a worker started after
 * it, not one started before (why the pool waits for its workers), and switched back, vega's code cache (made
 * with V8's default flags) is taken again, so the report after a run pays nothing for it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distModule as dist, nodeScript, ROOT } from '../helpers/cli.js';

function child(body: string): unknown {
  const script = `
    const m = await import(${JSON.stringify(dist('util/v8-memory.js'))});
    const { Worker } = await import('node:worker_threads');
    // A worker's young generation, as the worker sees it, with the pool's own limit (8 MB).
    const youngMb = () => new Promise((resolve) => {
      const w = new Worker("const v8 = await import('node:v8'); const { parentPort } = await import('node:worker_threads'); " +
        "const a = []; for (let i = 0; i < 3e5; i++) a.push({ i }); " +
        "parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576)",
        { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
      w.once('message', (mb) => { resolve(mb); void w.terminate(); });
    });
    ${body}
  `;
  const r = nodeScript(script);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout.trim());
}

const built = existsSync(join(ROOT, 'dist', 'vega', 'vega.cjs')) && existsSync(join(ROOT, 'dist', 'cache', 'v8'));

describe.skipIf(!built)('V8 favouring memory in a run process', () => {
  it('reaches a worker started after it (a smaller young generation), and is switched back', () => {
    const r = child(`
      const before = await youngMb();
      m.favourMemory();
      const during = await youngMb();
      const on = m.favouringMemory();
      m.favourSpeed();
      console.log(JSON.stringify({ before, during, on, after: m.favouringMemory() }));
    `) as { before: number; during: number; on: boolean; after: boolean };
    expect(r.on).toBe(true);
    expect(r.after).toBe(false);
    expect(r.before).toBe(8);
    expect(r.during).toBeLessThan(r.before);
  });

  it("leaves vega's code cache usable once switched back", () => {
    const r = child(`
      const vl = await import(${JSON.stringify(dist('report/vega-load.js'))});
      m.favourMemory();
      m.favourSpeed();
      const [vega] = await vl.loadVega();
      console.log(JSON.stringify({ taken: vl.vegaCodeCacheTaken(), view: typeof vega.View }));
    `);
    expect(r).toEqual({ taken: true, view: 'function' });
  });

  it("would leave vega's code cache rejected were the flag left on (why favourSpeed exists)", () => {
    const r = child(`
      const vl = await import(${JSON.stringify(dist('report/vega-load.js'))});
      m.favourMemory();
      const [vega] = await vl.loadVega();
      console.log(JSON.stringify({ taken: vl.vegaCodeCacheTaken(), view: typeof vega.View }));
    `);
    expect(r).toEqual({ taken: false, view: 'function' });
  });
});
