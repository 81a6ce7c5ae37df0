/**
 * The CLI runs from a CommonJS bundle (scripts/bundle.mjs, after tsc in `npm run build`) compiled with V8's
 * code cache (src/util/bundle.ts, made by scripts/code-cache.mjs): each module file Node loads costs start-up
 * CPU, so the bundle's files require only its chunks, Node's built-in modules and the packages deliberately
 * left out of it, and the entry points load the bundle and nothing else of bnclab's.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { codeCacheFile } from '../../src/util/v8-cache.js';
import { nodeScript, ROOT, tempDir } from '../helpers/cli.js';

const OUT = join(ROOT, 'dist', 'src');
const BUNDLE = join(OUT, 'bundle');
const CLI = join(BUNDLE, 'cli.cjs');
const WORKER = join(BUNDLE, 'worker.cjs');
// vega and vega-lite are loaded from dist/vega/vega.cjs (report/vega-load.ts); the native addon, pdfkit and
// svg-to-pdfkit from node_modules.
const LEFT_OUT = new Set(['@duckdb/node-bindings', 'pdfkit', 'svg-to-pdfkit', 'vega', 'vega-lite']);
/** Node's built-in modules, as `node:x` or as bundled packages name them. */
const BUILTIN = new Set(builtinModules);

/** Every module a file loads by name: require() calls, static imports and dynamic imports. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(
      /\brequire\(\s*"([^"]+)"\s*\)|^(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'|\bimport\(\s*["']([^"']+)["']\s*\)/gm,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The files a file loads, itself included, following relative requires. */
function closure(file: string): Set<string> {
  const seen = new Set<string>();
  const todo = [file];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const s of specifiers(f)) if (s.startsWith('.')) todo.push(resolve(dirname(f), s));
  }
  return seen;
}

describe('the built CLI is a bundle', () => {
  it('cli.cjs, worker.cjs and their chunks require only chunks, node: modules and the packages left out', () => {
    const chunks = join(BUNDLE, 'chunks');
    expect(existsSync(chunks), `${chunks} is missing: build with 'npm run build' (tsc, then the bundle)`).toBe(true);
    const files = [CLI, WORKER, ...readdirSync(chunks).map((f) => join(chunks, f))];
    const strays: string[] = [];
    for (const f of files) {
      for (const s of specifiers(f)) {
        const bundled = /^(\.\.\/chunks|\.\/chunks|\.)\/[^/]+\.cjs$/.test(s);
        if (!bundled && !s.startsWith('node:') && !BUILTIN.has(s) && !LEFT_OUT.has(s)) strays.push(`${f}: ${s}`);
      }
    }
    expect(strays).toEqual([]);
    // import() in a script compiled by vm.Script (src/util/bundle.ts) fails on Node 20 without a flag.
    const dynamicImports = files.filter((f) => /\bimport\(\s*["']/.test(readFileSync(f, 'utf8')));
    expect(dynamicImports).toEqual([]);
    // The bundle's entries require chunks: they are not tsc's one-file-per-module output.
    expect(specifiers(CLI).some((s) => s.startsWith('./chunks/'))).toBe(true);
    expect(specifiers(WORKER).some((s) => s.startsWith('./chunks/'))).toBe(true);
  });

  it("a worker thread never loads the CLI's entry (that would define the commands in every worker)", () => {
    const loaded = closure(WORKER);
    expect(loaded.size).toBeGreaterThan(2);
    expect(loaded.has(CLI)).toBe(false);
  });

  it('the entry points load the bundle through util/bundle.js, and tsc’s output only without a bundle', () => {
    expect(specifiers(join(OUT, 'cli', 'main.js'))).toEqual(['../util/bundle.js', './cli.js']);
    expect(specifiers(join(OUT, 'runner', 'worker.js'))).toEqual(['../util/bundle.js', './worker-thread.js']);
  });
});

describe("the bundle's code cache", () => {
  it.each([
    ['', false],
    [' after a report switched the optimiser off', true],
  ])(
    'a command compiles every chunk it loads from the cache the build made%s (none rejected, none missing)',
    (_, off) => {
      const r = nodeScript(
        [
          // V8 rejects a cache made under other flags; util/v8-cache.ts compiles under the default ones.
          off
            ? `(await import(${JSON.stringify(join(OUT, 'util', 'optimiser.js'))})).optimiserOffForRestOfProcess();`
            : '',
          `const b = await import(${JSON.stringify(join(OUT, 'util', 'bundle.js'))});`,
          "await b.loadBundle('cli').runCli(['plan', 'experiments/quickstart.yaml']);",
          "process.on('exit', () => process.stderr.write(JSON.stringify(b.bundleCodeCacheUse())));",
        ].join('\n'),
        { BNCLAB_CACHE_DIR: 'off' },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('quickstart');
      const use = JSON.parse(r.stderr) as { taken: number; rejected: number; none: number };
      expect(use.rejected).toBe(0);
      expect(use.none).toBe(0);
      expect(use.taken).toBeGreaterThan(10);
    },
  );

  it("the spec's validators are compiled from the code cache the build made, after a report switched the optimiser off", () => {
    // An empty cache folder: the validators' code is the build's (dist/cache), as on a fresh clone.
    const r = nodeScript(
      [
        // As `report` does before it reads the spec (src/util/optimiser.ts): V8 would reject a cache made
        // under other flags, were the scripts not compiled under the default ones.
        `(await import(${JSON.stringify(join(OUT, 'util', 'optimiser.js'))})).optimiserOffForRestOfProcess();`,
        `const v = await import(${JSON.stringify(join(OUT, 'spec', 'validator.js'))});`,
        `const l = await import(${JSON.stringify(join(OUT, 'spec', 'load.js'))});`,
        "l.loadSpecFile('experiments/quickstart.yaml');",
        'process.stdout.write(JSON.stringify(v.validatorCodeCacheUse()));',
      ].join('\n'),
      { BNCLAB_CACHE_DIR: tempDir() },
    );
    expect(r.code, r.stderr).toBe(0);
    const use = JSON.parse(r.stdout) as { taken: number; rejected: number; none: number };
    // The experiment's validator and those of the quickstart's methods' parameters.
    expect(use).toEqual({ taken: expect.any(Number), rejected: 0, none: 0 });
    expect(use.taken).toBeGreaterThan(1);
  });

  it('a cache file is named by its source, so an edited chunk of the same length never takes a stale cache', () => {
    const a = codeCacheFile('/r', 'report-x', 'const a = 1;');
    const b = codeCacheFile('/r', 'report-x', 'const b = 1;');
    expect(a).not.toBe(b);
    expect(a).toBe(codeCacheFile('/r', 'report-x', 'const a = 1;'));
    expect(a.startsWith(join('/r', 'dist', 'cache', 'v8', 'report-x-'))).toBe(true);
    expect(a.endsWith(`-${process.versions.v8}.bin`)).toBe(true);
  });
});
