/**
 * Where V8's code cache of a script bnclab ships lives (dist/cache/v8/): named by the script, the sha256 of its
 * source and V8's version. V8 itself checks a cache against the source's length, its own version and its flags
 * only, and would run the stale bytecode of an edited script of the same length; the sha256 in the name keeps
 * an edited script from ever finding the old cache. Used by util/bundle.ts (the CLI's chunks) and
 * report/vega-load.ts (vega and vega-lite).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** The file of V8's code cache of a script `name` with this source, for this V8 version. */
export function codeCacheFile(root: string, name: string, source: string): string {
  const hash = createHash('sha256').update(source).digest('hex');
  return join(root, 'dist', 'cache', 'v8', `${name}-${hash.slice(0, 32)}-${process.versions.v8}.bin`);
}
