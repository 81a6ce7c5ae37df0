/**
 * The code state a job was computed by: bnclab's version, the git commit of the checkout it ran from (with
 * `+dirty` when the working tree differs from it), or, outside a git clone, a hash of the built code; Node's
 * and DuckDB's versions and the platform. Its `id` is a hash of all of it (a dirty tree's diff included), so
 * two different code states never share one; the store keeps each once and every job names its id.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { canonicalJson, sha256Hex } from './hash.js';
import { packageRoot } from './paths.js';
import { BNCLAB_VERSION } from '../version.js';

export interface CodeState {
  /** sha256 (16 hex digits) of everything below and, for a dirty tree, of its diff. */
  readonly id: string;
  readonly bnclab: string;
  /** `<commit>` or `<commit>+dirty`; `build:<hash>` of dist/ when not in a git clone. */
  readonly code: string;
  readonly node: string;
  readonly duckdb: string;
  readonly platform: string;
}

const execFileAsync = promisify(execFile);

/**
 * git's output, or undefined when git fails or is missing. Run as a child process this thread does not wait on,
 * and without git's optional locks: `git status` otherwise rewrites the checkout's index to refresh what it
 * caches of the files' times (a write into the user's clone, which also fails their own `git commit` with
 * "index.lock: File exists" when the two meet).
 */
async function git(args: readonly string[], cwd: string): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync('git', ['--no-optional-locks', ...args], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    return stdout;
  } catch {
    return undefined;
  }
}

/** sha256 of every file under `dir` (paths and bytes, in path order). */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(p).isDirectory()) walk(p, r);
      else h.update(`${r}\0`).update(readFileSync(p)).update('\0');
    }
  };
  walk(dir, '');
  return h.digest('hex');
}

let cached: CodeState | undefined;

/**
 * This process's code state (computed once: git's status, its diff for a dirty tree, or a hash of dist/).
 * Asynchronous: a run asks for it before it registers its plan, and git (about 20 ms of wall for a clean clone
 * on an idle machine, a diff more for a dirty one) goes on beside the registration. Without its optional locks
 * git cannot record the files' times it learns, so where they are newer than its index (a fresh clone, files
 * touched) it hashes every file, 0.12–0.19 CPU s a call; the build refreshes the index once
 * (scripts/refresh-git-index.mjs).
 */
export async function codeState(duckdbVersion: string): Promise<CodeState> {
  if (cached && cached.duckdb === duckdbVersion) return cached;
  const { code, diff } = await checkoutState(packageRoot());
  const fields = {
    bnclab: BNCLAB_VERSION,
    code,
    node: process.version,
    duckdb: duckdbVersion,
    platform: `${process.platform}-${process.arch} ${os.release()}`,
  };
  cached = { id: sha256Hex(canonicalJson({ ...fields, diff })).slice(0, 16), ...fields };
  return cached;
}

/**
 * The code of the package at `root`: `<commit>` of its own git clone, `<commit>+dirty` with a hash of the diff
 * when the tree differs from it, else `build:<hash>` of its dist/ (or src/). Reads the clone, never writes it.
 */
export async function checkoutState(root: string): Promise<{ code: string; diff: string }> {
  // Only bnclab's own clone counts: installed under a user's repository (node_modules/bnclab), git would
  // answer with that repository's commit, which says nothing about bnclab's code. A clone's top folder holds
  // its `.git` (a folder, or a file in a worktree), so one without it is not a clone of its own.
  // One call for the commit and the tree's changes (each process git starts costs this thread a fork, 10–40 ms
  // beside a run's workers starting): a repository without a commit counts as not bnclab's clone.
  const status = existsSync(join(root, '.git'))
    ? await git(['status', '--porcelain=v2', '--branch', '--no-ahead-behind'], root)
    : undefined;
  const lines = status?.split('\n') ?? [];
  const head = lines
    .find((l) => l.startsWith('# branch.oid '))
    ?.slice('# branch.oid '.length)
    .trim();
  if (head && /^[0-9a-f]{40,64}$/.test(head)) {
    // The tracked files' changes and the untracked (not ignored) files: either makes the tree dirty.
    const changes = lines.filter((l) => l !== '' && !l.startsWith('#')).join('\n');
    if (changes === '') return { code: head, diff: '' };
    return { code: `${head}+dirty`, diff: sha256Hex(`${(await git(['diff', 'HEAD'], root)) ?? ''}\0${changes}`) };
  }
  const built = join(root, 'dist');
  return { code: `build:${treeHash(existsSync(built) ? built : join(root, 'src')).slice(0, 16)}`, diff: '' };
}

/** One line: "bnclab 0.2.0, commit 1a2b3c4d5e6f+dirty, Node v20.11.0, DuckDB v1.1.3, linux-x64 6.1.0". */
export function codeStateText(s: Omit<CodeState, 'id'>): string {
  const code = s.code.startsWith('build:')
    ? `built code ${s.code.slice(6)}`
    : `commit ${s.code.replace(/^([0-9a-f]{12})[0-9a-f]*/, '$1')}`;
  return `bnclab ${s.bnclab}, ${code}, Node ${s.node}, DuckDB ${s.duckdb}, ${s.platform}`;
}
