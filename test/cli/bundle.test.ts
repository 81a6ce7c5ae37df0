/**
 * The CLI's entry points are bundles (scripts/bundle.mjs, the second step of `npm run build`): each module
 * file Node loads costs start-up CPU, so they import only their chunks, Node's built-in modules and the
 * packages deliberately left out of the bundle.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const OUT = join(ROOT, 'dist', 'src');
const MAIN = join(OUT, 'cli', 'main.js');
const WORKER = join(OUT, 'runner', 'worker.js');
// vega and vega-lite are bundled into chunks of their own; 'canvas' is vega's optional canvas renderer, which
// vega imports inside a try (not installed: figures are SVG).
const LEFT_OUT = new Set(['@duckdb/node-bindings', 'pdfkit', 'svg-to-pdfkit', 'canvas']);
/** Node's built-in modules, as `node:x` or as bundled packages name them (vega's node build imports "fs"). */
const BUILTIN = new Set(builtinModules);

/** Every module a built file imports: static imports and re-exports (at a line's start) and dynamic imports. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The files a file loads, itself included, following relative imports. */
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
  it('main.js, worker.js and their chunks import only chunks, node: modules and the packages left out', () => {
    const chunks = join(OUT, 'chunks');
    expect(existsSync(chunks), `${chunks} is missing: build with 'npm run build' (tsc, then the bundle)`).toBe(true);
    const files = [MAIN, WORKER, ...readdirSync(chunks).map((f) => join(chunks, f))];
    const strays: string[] = [];
    for (const f of files) {
      for (const s of specifiers(f)) {
        // A chunk may import what the bundler kept in the main entry: in the main thread it is loaded already.
        const bundled = /^(\.\.\/chunks|\.)\/[^/]+\.js$/.test(s) || s === '../cli/main.js';
        if (!bundled && !s.startsWith('node:') && !BUILTIN.has(s) && !LEFT_OUT.has(s)) strays.push(`${f}: ${s}`);
      }
    }
    expect(strays).toEqual([]);
    // The entry points import chunks: they are not tsc's one-file-per-module output.
    expect(specifiers(MAIN).some((s) => s.startsWith('../chunks/'))).toBe(true);
    expect(specifiers(WORKER).some((s) => s.startsWith('../chunks/'))).toBe(true);
  });

  it("a worker thread never loads the CLI's entry point (that would run a command in the worker)", () => {
    const loaded = closure(WORKER);
    expect(loaded.size).toBeGreaterThan(2);
    expect(loaded.has(MAIN)).toBe(false);
  });
});
