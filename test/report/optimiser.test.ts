/**
 * V8's optimising compiler switched off for the rest of a process that ends with its report (src/util/optimiser.ts):
 * vega's code cache, made with V8's default flags, must still be taken. Run in a child process (the built
 * modules), since V8's flags are the whole process's.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distModule, nodeScript, ROOT } from '../helpers/cli.js';

const dist = (m: string): string => distModule(`report/${m}`);

/** What the child prints: the optimiser's state, then whether vega's code cache was taken. */
function child(switchOff: boolean, compileUnder: 'default flags' | 'changed flags'): string {
  const script = `
    import v8 from 'node:v8';
    const o = await import(${JSON.stringify(distModule('util/optimiser.js'))});
    const vl = await import(${JSON.stringify(dist('vega-load.js'))});
    if (${switchOff}) o.optimiserOffForRestOfProcess();
    // 'changed flags': the flags V8 had when the cache was made are not restored for the compile.
    if (${compileUnder === 'changed flags'}) v8.setFlagsFromString('--no-turbofan');
    const [vega] = await vl.loadVega();
    console.log(JSON.stringify({ off: o.optimiserIsOff(), taken: vl.vegaCodeCacheTaken(), view: typeof vega.View }));
  `;
  const r = nodeScript(script);
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

const built = existsSync(join(ROOT, 'dist', 'vega', 'vega.cjs')) && existsSync(join(ROOT, 'dist', 'cache', 'v8'));

describe.skipIf(!built)("vega's code cache with the optimiser switched off", () => {
  it('is taken, and the optimiser stays off after vega is loaded', () => {
    expect(JSON.parse(child(false, 'default flags'))).toEqual({ off: false, taken: true, view: 'function' });
    expect(JSON.parse(child(true, 'default flags'))).toEqual({ off: true, taken: true, view: 'function' });
  });

  it('would be rejected were the script compiled under the changed flags (why withDefaultFlags exists)', () => {
    expect(JSON.parse(child(false, 'changed flags'))).toEqual({ off: false, taken: false, view: 'function' });
  });
});
