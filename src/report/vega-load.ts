/**
 * Loading vega and vega-lite, with V8's code cache. `npm run build` bundles the two into one CommonJS file,
 * dist/vega/vega.cjs (scripts/bundle.mjs), and then draws a few figures of each kind with it and saves V8's
 * code cache of that script, the bytecode of every function the figures ran included, in dist/cache/v8/
 * (scripts/prebuild-cache.mjs). A process that draws a figure compiles the script from that cache instead of
 * compiling 1.6 MB of JavaScript and then each function on its first call: in a new process, loading the two
 * and drawing the first figure took about 140 ms of CPU, from the cache about 75 (docs/performance.md).
 * V8 checks the cache against the script's source and its own version and flags and rejects one that does not
 * fit (another Node version), then compiles as usual; without dist/vega/vega.cjs (tsc alone, no bundle) the
 * packages are imported as they are.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../util/paths.js';
import { type CachedScript, compileWithCodeCache } from '../util/v8-cache.js';

type Vega = typeof import('vega');
type VegaLite = typeof import('vega-lite');

/** Where the build puts the bundle, relative to the package root. */
export const VEGA_BUNDLE = join('dist', 'vega', 'vega.cjs');

let loaded: Promise<[Vega, VegaLite]> | undefined;
/** The bundle's script, once compiled. */
let script: CachedScript | undefined;

/** vega and vega-lite (loaded once per process). */
export function loadVega(): Promise<[Vega, VegaLite]> {
  loaded ??= loadNow();
  return loaded;
}

async function loadNow(): Promise<[Vega, VegaLite]> {
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const file = join(root, VEGA_BUNDLE);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return Promise.all([import('vega'), import('vega-lite')]);
  }
  // Made with V8's default flags, and compiled under them (a report has switched the optimiser off).
  script = compileWithCodeCache(
    root,
    'vega',
    source,
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    file,
  );
  const module = { exports: {} as { vega: Vega } & VegaLite };
  (script.script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return [module.exports.vega, module.exports];
}

/**
 * V8's code cache of the bundle as this process has used it (every function run so far compiled into it),
 * with the file it belongs in; undefined when vega was not loaded from the bundle. For the build.
 */
export function vegaCodeCache(): { path: string; data: Buffer } | undefined {
  if (script === undefined) return undefined;
  return { path: script.cacheFile, data: script.script.createCachedData() };
}

/**
 * Whether V8 compiled the bundle from its code cache: undefined when vega was not loaded from the bundle or
 * there was no cache for it, false when V8 rejected the cache (another V8 version, or other flags).
 */
export function vegaCodeCacheTaken(): boolean | undefined {
  return script === undefined || script.cache === 'none' ? undefined : script.cache === 'taken';
}
