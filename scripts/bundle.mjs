/**
 * The last step of `npm run build` (after tsc and scripts/wasm.mjs): bundles tsc's output of the two entry
 * points the CLI starts from, dist/src/cli/main.js and dist/src/runner/worker.js, in place, with what they
 * import (yaml, simple-statistics, @duckdb/node-api and our ~170 modules) in a few files under
 * dist/src/chunks/ (one per lazily loaded command or stage). Node 20 loads each ES module separately (resolve, read, compile, link), and for the
 * commands' module graphs that costs more than running them: `plan` of the quickstart took 0.06 s less CPU
 * bundled, a report 0.07 s (docs/performance.md). Every other file of dist/ stays tsc's output
 * (benchmarks import from it), and tsc alone still gives a working, only slower, CLI.
 *
 * @duckdb/node-api (~180 CommonJS files) is bundled too, and so are vega and vega-lite, in chunks of their
 * own that a report loads only to draw a figure (vega is ~70 ES modules with its d3 packages: importing
 * them took 0.25–0.34 s of CPU, the bundled chunks 0.08–0.10 s; docs/performance.md). Left out:
 * @duckdb/node-bindings (it loads the native addon), pdfkit and svg-to-pdfkit (loaded only for `--pdf`;
 * pdfkit reads its font files next to its own code).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'src');
const MARK = '// bundled by scripts/bundle.mjs';
const entries = { 'cli/main': 'cli/main.js', 'runner/worker': 'runner/worker.js' };

for (const file of Object.values(entries)) {
  const path = join(out, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run tsc first (npm run build does both)`);
  // Bundling a bundle would lose the chunks it imports (removed below): start again from tsc's output.
  if (readFileSync(path, 'utf8').includes(MARK)) throw new Error(`${path} is already bundled: run tsc first`);
}
rmSync(join(out, 'chunks'), { recursive: true, force: true });
await build({
  cwd: root,
  input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(out, file)])),
  platform: 'node',
  external: [/^@duckdb\/node-bindings/, /^pdfkit$/, /^svg-to-pdfkit$/],
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    banner: (chunk) => (chunk.isEntry ? MARK : ''),
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
