/**
 * The code state of this checkout: git's commit, `+dirty` when the tree differs from it (what
 * `git status --porcelain` lists), and an id that changes with any of its parts.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { codeState, codeStateText } from '../../src/util/provenance.js';

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
});
