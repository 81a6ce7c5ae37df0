/**
 * V8's code cache of the scripts bnclab ships, in dist/cache/v8/: the CLI's bundle (util/bundle.ts), vega and
 * vega-lite (report/vega-load.ts) and the spec validators' code (spec/validator.ts). The build writes each
 * after running the script, so it holds the bytecode of the functions that ran; a process compiles the script
 * from it instead of parsing it and then each function on its first call.
 *
 * A cache file is named by the script, the sha256 of its source and V8's version. V8 itself checks a cache
 * against the source's length, its own version and its flags only, and would run the stale bytecode of an
 * edited script of the same length; the sha256 in the name keeps an edited script from ever finding the old
 * cache. V8 rejects a cache made under other flags: the build makes every cache under the default flags, and a
 * script is compiled under them too, even after a report switched the optimiser off (util/optimiser.ts).
 * Either way the code run is the script's own: the cache changes how fast it starts, never what it computes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { withDefaultFlags } from './optimiser.js';

/** The file of V8's code cache of a script `name` with this source, for this V8 version. */
export function codeCacheFile(root: string, name: string, source: string): string {
  const hash = createHash('sha256').update(source).digest('hex');
  return join(root, 'dist', 'cache', 'v8', `${name}-${hash.slice(0, 32)}-${process.versions.v8}.bin`);
}

/** Whether V8 compiled a script from its code cache, rejected the cache, or had none for it. */
export type CodeCacheUse = 'taken' | 'rejected' | 'none';

/** A script compiled with its code cache where the build left one. */
export interface CachedScript {
  readonly script: vm.Script;
  /** Where its code cache belongs (the build writes `script.createCachedData()` there). */
  readonly cacheFile: string;
  readonly cache: CodeCacheUse;
}

/**
 * `wrapped` (script `name`'s `source` wrapped as a function expression) compiled with the code cache of that
 * source, under V8's default flags; without a cache, or with one V8 rejects, compiled from the source.
 */
export function compileWithCodeCache(
  root: string,
  name: string,
  source: string,
  wrapped: string,
  filename: string,
): CachedScript {
  const cacheFile = codeCacheFile(root, name, source);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // none made for this source: compiled from it
  }
  const script = withDefaultFlags(() => new vm.Script(wrapped, { filename, ...(cachedData ? { cachedData } : {}) }));
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'taken';
  return { script, cacheFile, cache };
}

/** How many of `scripts` V8 compiled from their cache, had it rejected, or had none for. */
export function codeCacheUse(scripts: Iterable<CachedScript>): Record<CodeCacheUse, number> {
  const use = { taken: 0, rejected: 0, none: 0 };
  for (const s of scripts) use[s.cache]++;
  return use;
}
