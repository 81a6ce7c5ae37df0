/**
 * The last step but one of `npm run build` (after tsc and scripts/wasm.mjs): bundles tsc's output of what the
 * CLI runs, the command line (dist/src/cli/cli.js) and a worker thread's job loop
 * (dist/src/runner/worker-thread.js), with what they import (yaml, simple-statistics, @duckdb/node-api and our
 * ~170 modules), as CommonJS in dist/src/bundle/: cli.cjs, worker.cjs and a few chunks (one per lazily loaded
 * command or stage). The entry points dist/src/cli/main.js and dist/src/runner/worker.js stay tsc's output:
 * they load the bundle with V8's code cache (src/util/bundle.ts; scripts/code-cache.mjs makes the cache), or
 * import tsc's output where there is no bundle. Node 20 loads each ES module separately (resolve, read,
 * compile, link), and for the commands' module graphs that costs more than running them; a CommonJS bundle is
 * compiled from V8's code cache, which Node 20 offers for scripts and not for ES modules (docs/performance.md).
 * Every other file of dist/ stays tsc's output (benchmarks import from it).
 *
 * Left out: @duckdb/node-bindings (it loads the native addon), pdfkit and svg-to-pdfkit (loaded only for
 * `--pdf`; pdfkit reads its font files next to its own code), and vega and vega-lite, which a report loads
 * from their own script, dist/vega/vega.cjs, built below (report/vega-load.ts).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'src');
const entries = { cli: 'cli/cli.js', worker: 'runner/worker-thread.js' };

for (const file of Object.values(entries)) {
  const path = join(out, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run tsc first (npm run build does both)`);
}
// What an earlier build bundled: dist/src/chunks/ (the ES module bundle of 0.5.6 and before) and the bundle.
rmSync(join(out, 'chunks'), { recursive: true, force: true });
rmSync(join(out, 'bundle'), { recursive: true, force: true });
await build({
  cwd: root,
  input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(out, file)])),
  platform: 'node',
  external: [/^@duckdb\/node-bindings/, /^pdfkit$/, /^svg-to-pdfkit$/, /^vega$/, /^vega-lite$/],
  logLevel: 'warn',
  output: {
    dir: join(out, 'bundle'),
    format: 'cjs',
    // import() in a script compiled by vm.Script (src/util/bundle.ts) needs an experimental flag on Node 20:
    // the bundle's dynamic imports of Node's modules become require() calls.
    dynamicImportInCjs: false,
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunks/[name]-[hash].cjs',
  },
});

// vega and vega-lite once more, as one CommonJS script that src/report/vega-load.ts compiles with V8's code
// cache (which Node 20 offers for scripts, not for ES modules); scripts/prebuild-cache.mjs makes the cache.
// vega-canvas is left out: it offers the optional `canvas` package, which bnclab does not install (vega then
// works without a canvas, as it does here: figures measure their text with Helvetica's metrics).
const vegaEntry = join(root, 'dist', 'vega', 'entry.mjs');
mkdirSync(dirname(vegaEntry), { recursive: true });
writeFileSync(vegaEntry, "export * as vega from 'vega';\nexport { compile } from 'vega-lite';\n");
await build({
  cwd: root,
  input: vegaEntry,
  platform: 'node',
  logLevel: 'warn',
  plugins: [
    {
      name: 'no-canvas',
      resolveId: (id) => (id === 'vega-canvas' ? '\0vega-canvas' : undefined),
      load: (id) =>
        id === '\0vega-canvas'
          ? ['canvas', 'image', 'domCanvas', 'nodeCanvas'].map((f) => `export function ${f}() { return null; }\n`).join('')
          : undefined,
    },
  ],
  output: { file: join(root, 'dist', 'vega', 'vega.cjs'), format: 'cjs' },
});
rmSync(vegaEntry);

// The page of `bnclab ui`: src/ui/client/ (TypeScript for the browser, checked by tsconfig.ui.json) as one
// script, dist/ui/app.js, that the server sends; the page loads nothing else.
await build({
  cwd: root,
  input: join(root, 'src', 'ui', 'client', 'app.ts'),
  platform: 'browser',
  logLevel: 'warn',
  output: { file: join(root, 'dist', 'ui', 'app.js'), format: 'iife', minify: true },
});
