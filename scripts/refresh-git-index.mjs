/**
 * The last step of `npm run build` (so of `npm install` and `npm test`): refreshes git's record of the
 * checkout's file times (`git update-index -q --refresh`) when bnclab runs from a git clone. Every `run` records
 * its code state (src/util/provenance.ts) by asking git without its optional locks, so that a run never writes
 * the user's index; but in a fresh clone (files about as new as the index, or touched since) git then hashes
 * every tracked file again on each call, 0.12–0.16 CPU s a run here (docs/performance.md), until something
 * refreshes the index. The build is the user's own command in their checkout; refreshing the index is what any
 * `git status` of theirs does, and it changes no file and no commit. Skipped outside a git clone and on any
 * failure (git missing, the index locked by another git command): the runs then pay the hashing, as before.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (existsSync(join(root, '.git'))) {
  // -q: files that differ from the index are left to `git status` to report, not an error here.
  const git = spawnSync('git', ['update-index', '-q', '--refresh'], { cwd: root, stdio: 'ignore' });
  const refreshed = git.error === undefined && git.status === 0;
  console.log(
    refreshed
      ? "refresh-git-index: git's record of the checkout's file times refreshed"
      : "refresh-git-index: git's index not refreshed (each run's code state then has git hash the files)",
  );
}
