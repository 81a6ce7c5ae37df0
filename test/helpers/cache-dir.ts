import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { resetCacheDir } from '../../src/util/cache.js';

/**
 * A fresh temporary folder for the calling describe block, with bnclab's on-disk cache in its `cache`
 * subfolder ($BNCLAB_CACHE_DIR) until the block ends; returns a getter for the folder.
 */
export function useTempCacheDir(prefix: string): () => string {
  let dir = '';
  let saved: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    saved = process.env['BNCLAB_CACHE_DIR'];
    process.env['BNCLAB_CACHE_DIR'] = join(dir, 'cache');
    resetCacheDir();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env['BNCLAB_CACHE_DIR'];
    else process.env['BNCLAB_CACHE_DIR'] = saved;
    resetCacheDir();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}
