/**
 * The code state of this checkout: git's commit, `+dirty` when the tree differs from it (what
 * `git status --porcelain` lists), and an id that changes with any of its parts.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers/cli.js';
import { checkoutState, codeState, codeStateText } from '../../src/util/provenance.js';

const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

describe('code state', () => {
  it.skipIf(!existsSync(join(ROOT, '.git')))('names the checkout’s commit, +dirty when its tree differs', async () => {
    const head = git('rev-parse', 'HEAD').trim();
    const dirty = git('status', '--porcelain').trim() !== '';
    const s = await codeState('v1.0.0-test');
    expect(s.code).toBe(dirty ? `${head}+dirty` : head);
    expect(s.duckdb).toBe('v1.0.0-test');
    expect(s.node).toBe(process.version);
    expect(s.id).toMatch(/^[0-9a-f]{16}$/);
    expect(codeStateText(s)).toContain(`commit ${head.slice(0, 12)}`);
    // Computed once per DuckDB version; another version is another state.
    expect(await codeState('v1.0.0-test')).toBe(s);
    const other = await codeState('v2.0.0-test');
    expect(other.code).toBe(s.code);
    expect(other.id).not.toBe(s.id);
  });

  it('reads a clone without writing its index, and says +dirty only when the files differ', async () => {
    const root = tempDir('bnclab-clone-');
    const inRoot = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, encoding: 'utf8' });
    inRoot('init', '-q');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'a.js'), 'export const a = 1;\n');
    inRoot('add', '.');
    inRoot('commit', '-q', '-m', 'a');
    const head = inRoot('rev-parse', 'HEAD').trim();
    // A file's times changed but not its bytes: `git status` with its optional locks rewrites the index then.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'dist', 'a.js'), later, later);
    const index = join(root, '.git', 'index');
    const before = { bytes: readFileSync(index), mtime: statSync(index).mtimeMs };
    expect(await checkoutState(root)).toEqual({ code: head, diff: '' });
    expect(readFileSync(index).equals(before.bytes)).toBe(true);
    expect(statSync(index).mtimeMs).toBe(before.mtime);

    writeFileSync(join(root, 'dist', 'a.js'), 'export const a = 2;\n');
    const dirty = await checkoutState(root);
    expect(dirty.code).toBe(`${head}+dirty`);
    expect(dirty.diff).toMatch(/^[0-9a-f]{64}$/);
  });

  it('inside another repository (installed under a user’s clone) or in one without a commit, hashes the built code', async () => {
    const user = tempDir('bnclab-user-');
    const inUser = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: user, encoding: 'utf8' });
    inUser('init', '-q');
    const root = join(user, 'node_modules', 'bnclab');
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', 'a.js'), 'export const a = 1;\n');
    writeFileSync(join(user, 'x.txt'), 'x\n');
    inUser('add', '.');
    inUser('commit', '-q', '-m', 'user');
    // The user's repository has a commit, and bnclab's files are in it: still not bnclab's clone.
    expect((await checkoutState(root)).code).toMatch(/^build:[0-9a-f]{16}$/);
    const fresh = tempDir('bnclab-nocommit-');
    execFileSync('git', ['init', '-q'], { cwd: fresh });
    mkdirSync(join(fresh, 'dist'));
    writeFileSync(join(fresh, 'dist', 'a.js'), 'export const a = 1;\n');
    expect((await checkoutState(fresh)).code).toMatch(/^build:[0-9a-f]{16}$/);
  });

  it('outside a clone of its own, hashes the built code', async () => {
    const root = tempDir('bnclab-built-');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'a.js'), 'export const a = 1;\n');
    const a = await checkoutState(root);
    expect(a).toEqual({ code: expect.stringMatching(/^build:[0-9a-f]{16}$/), diff: '' });
    writeFileSync(join(root, 'dist', 'a.js'), 'export const a = 2;\n');
    expect((await checkoutState(root)).code).not.toBe(a.code);
  });
});
