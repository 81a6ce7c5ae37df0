/** The shared rules for files a command writes: no overwrite without --force, never a protected file, no partial file. */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import {
  checkOutputFile,
  describeFsError,
  holdsBytes,
  makeFolder,
  writeFileAtomic,
  writeThroughTemporary,
} from '../../src/util/output.js';
import { UserError } from '../../src/util/errors.js';

describe('output files', () => {
  const dir = tempDir('bnclab-out-');

  it('checkOutputFile: a missing folder, a folder, an existing file without --force and a protected file are refused', () => {
    const db = join(dir, 'r.duckdb');
    writeFileSync(db, 'db');
    const ok = join(dir, 'new.csv');
    expect(checkOutputFile(ok, { option: '--out' })).toBe(ok);
    expect(() => checkOutputFile(join(dir, 'no', 'x.csv'), { option: '--out' })).toThrow(
      /--out .*x\.csv: the folder .*no cannot be used: no such file or folder \(ENOENT\)/,
    );
    expect(() => checkOutputFile(dir, { option: '--out' })).toThrow(/is a folder, not a file/);
    const old = join(dir, 'old.csv');
    writeFileSync(old, 'old');
    expect(() => checkOutputFile(old, { option: '--out' })).toThrow(/the file exists; use --force to overwrite it/);
    expect(checkOutputFile(old, { option: '--out', force: true })).toBe(old);
    const protect = [{ path: db, what: 'the results database' }];
    expect(() => checkOutputFile(join(dir, '.', 'r.duckdb'), { option: '--out', force: true, protect })).toThrow(
      /that is the results database; refusing to overwrite it/,
    );
    try {
      checkOutputFile(join(dir, 'no', 'x.csv'), { option: '--out', exitCode: 5 });
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      expect((e as UserError).exitCode).toBe(5);
    }
  });

  it('writeThroughTemporary: a write that fails half-way leaves the old file as it was and no temporary file', async () => {
    const file = join(dir, 'keep.csv');
    writeFileSync(file, 'old contents\n');
    const err = await writeThroughTemporary(file, (tmp) => {
      writeFileSync(tmp, 'half of the new');
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(`cannot write ${file}: no space left on the disk (ENOSPC)`);
    expect(readFileSync(file, 'utf8')).toBe('old contents\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await writeThroughTemporary(file, (tmp) => writeFileSync(tmp, 'new\n'));
    expect(readFileSync(file, 'utf8')).toBe('new\n');
  });

  it('writeFileAtomic writes the whole file, and names the cause when it cannot', () => {
    const file = join(dir, 'a.json');
    writeFileAtomic(file, 'x'.repeat(100_000));
    expect(readFileSync(file, 'utf8')).toHaveLength(100_000);
    expect(() => writeFileAtomic(join(dir, 'missing', 'a.json'), '{}')).toThrow(
      /cannot write .*a\.json: no such file or folder \(ENOENT\)/,
    );
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('holdsBytes: only a file with exactly these bytes holds them', () => {
    const file = join(dir, 'held.txt');
    writeFileSync(file, 'abc');
    expect(holdsBytes(file, Buffer.from('abc'))).toBe(true);
    expect(holdsBytes(file, Buffer.from('abd'))).toBe(false); // same size, other bytes
    expect(holdsBytes(file, Buffer.from('abcd'))).toBe(false);
    expect(holdsBytes(file, Buffer.from(''))).toBe(false);
    expect(holdsBytes(join(dir, 'absent.txt'), Buffer.from(''))).toBe(false);
    mkdirSync(join(dir, 'a-folder'));
    expect(holdsBytes(join(dir, 'a-folder'), Buffer.from(''))).toBe(false);
  });

  it('makeFolder names a file in the way (Node says ENOENT or EEXIST), and describeFsError reads DuckDB texts', () => {
    const f = join(dir, 'plain');
    writeFileSync(f, '');
    let err: unknown;
    try {
      makeFolder(join(f, 'a', 'b'));
    } catch (e) {
      err = e;
    }
    expect(describeFsError(err)).toBe('a part of the path is not a folder (ENOTDIR)');
    mkdirSync(join(dir, 'ok'));
    makeFolder(join(dir, 'ok', 'x', 'y'));
    expect(existsSync(join(dir, 'ok', 'x', 'y'))).toBe(true);
    expect(describeFsError(Object.assign(new Error('x'), { code: 'EROFS' }))).toBe('read-only file system (EROFS)');
    expect(describeFsError(new Error('IO Error: Could not write file "/f": No space left on device'))).toMatch(
      /^no space left on the disk/,
    );
  });
});
