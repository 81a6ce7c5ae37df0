/**
 * `npm run build` ships the facts of the quickstart's datasets in dist/cache/ (scripts/prebuild-cache.mjs):
 * its data ship with the package and `npm start` plans it, so a fresh clone plans it without parsing them.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from '../helpers/cli.js';

function plan(cacheDir: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'plan', 'experiments/quickstart.yaml'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', BNCLAB_CACHE_DIR: cacheDir },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("the quickstart's dataset facts, shipped by the build", () => {
  it('plan the quickstart from an empty cache folder without reading its data, as the data themselves plan it', () => {
    const cache = join(tempDir(), 'cache');
    const fromShipped = plan(cache);
    expect(fromShipped.code, fromShipped.stderr).toBe(0);
    // Nothing had to be computed: no dataset's facts and no file's hash were written to the empty folder.
    const written = existsSync(cache) ? readdirSync(cache) : [];
    expect(written).not.toContain('plan-dataset-1');
    expect(written).not.toContain('file-sha256');
    // The cache off (neither the folder nor dist/cache read): every dataset read and planned afresh.
    const fromData = plan('off');
    expect(fromData.code, fromData.stderr).toBe(0);
    expect(fromShipped.stdout).toBe(fromData.stdout);
    expect(fromShipped.stdout).toContain('quickstart');
  });
});
