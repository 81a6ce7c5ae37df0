/**
 * Loading the built CLI with V8's code cache. `npm run build` bundles the CLI and the worker thread's code as
 * CommonJS (scripts/bundle.mjs: dist/src/bundle/cli.cjs, worker.cjs and their chunks), then runs a `plan` of
 * the quickstart, a 1-job `run` and a 12-job `run` with its workers and report from that bundle in one
 * process, and saves V8's code cache of every chunk the process loaded, with the bytecode of every function
 * that ran, in dist/cache/v8/ (scripts/code-cache.mjs). A process then compiles a chunk from its cache instead
 * of parsing it and then each function on its first call: `plan`, a 1-job `run` and a `report` of the
 * quickstart cost about a fifth less CPU (docs/performance.md). Node 20 offers the code cache for scripts
 * (`vm.Script`), not for ES modules (`module.enableCompileCache` is Node 22's), so the bundle is CommonJS.
 *
 * A cache file is named by the sha256 of its chunk's source and by V8's version, and a chunk is compiled under
 * V8's default flags, which the cache was made with, even when first loaded after a report switched the
 * optimiser off (util/v8-cache.ts). V8 rejects a cache made under other flags (NODE_OPTIONS): that chunk is
 * compiled from its source, as without a cache. Either way the code run is the chunk's own.
 * The bundle holds no import(): in a `vm.Script` it needs an experimental flag on Node 20 (scripts/bundle.mjs
 * turns the sources' dynamic imports into require() calls, and test/cli/bundle.test.ts checks it).
 *
 * Without the bundle (tsc alone) the entry points import tsc's output instead: a working, only slower, CLI.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { packageRoot } from './paths.js';
import { type CachedScript, type CodeCacheUse, codeCacheUse, compileWithCodeCache } from './v8-cache.js';

/** Where the build puts the bundle, relative to the package root. */
const BUNDLE_DIR = join('dist', 'src', 'bundle');

/** The chunks of the bundle this process compiled, with their cache files and whether V8 took the cache. */
const compiled: CachedScript[] = [];
let hooked = false;

type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;
type Compile = (this: Module, content: string, filename: string) => unknown;

/**
 * Node compiles every CommonJS file in `Module.prototype._compile`; the files of the bundle's folder are
 * compiled here instead, with their code cache (the way Node itself compiles a file, but through `vm.Script`,
 * the one compiler that takes a cache). Any other file is Node's as before.
 */
function compileBundleFilesWithCache(root: string, dir: string): void {
  if (hooked) return;
  hooked = true;
  const proto = Module.prototype as unknown as { _compile: Compile };
  const nodeCompile = proto._compile;
  proto._compile = function (this: Module, content: string, filename: string): unknown {
    if (!filename.startsWith(dir + sep)) return nodeCompile.call(this, content, filename);
    // A chunk no build-time command loaded has no cache: compiled from its source.
    const chunk = compileWithCodeCache(root, basename(filename, '.cjs'), content, Module.wrap(content), filename);
    compiled.push(chunk);
    const wrapper = chunk.script.runInThisContext() as CommonJsWrapper;
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
  };
}

/**
 * The exports of the bundle's entry `name` (dist/src/bundle/<name>.cjs), loaded with its code cache;
 * undefined when there is no bundle (tsc's output alone).
 */
export function loadBundle(name: 'cli' | 'worker'): unknown {
  const root = packageRoot();
  const dir = join(root, BUNDLE_DIR);
  const file = join(dir, `${name}.cjs`);
  if (!existsSync(file)) return undefined;
  compileBundleFilesWithCache(root, dir);
  return createRequire(import.meta.url)(file);
}

/** How many of the bundle's chunks this process compiled from their cache, had rejected, or had none for. */
export function bundleCodeCacheUse(): Record<CodeCacheUse, number> {
  return codeCacheUse(compiled);
}

/**
 * Writes V8's code cache of every chunk this process compiled (every function run so far included) into
 * dist/cache/v8/; the number of files. For the build (scripts/code-cache.mjs), under V8's default flags.
 */
export function saveBundleCodeCache(): number {
  for (const c of compiled) {
    mkdirSync(dirname(c.cacheFile), { recursive: true });
    writeFileSync(c.cacheFile, c.script.createCachedData());
  }
  return compiled.length;
}
