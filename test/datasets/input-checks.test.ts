/** A data file is text or it is refused: binary and non-UTF-8 bytes never parse as a few odd rows. */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset } from '../../src/datasets/load.js';
import { baseName } from '../../src/datasets/columns.js';
import { userFileEntry } from '../../src/datasets/registry.js';
import { tempDir } from '../helpers/cli.js';

function load(bytes: Buffer | string, name = 'x.csv') {
  const dir = tempDir();
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return () => loadDataset({ name: 'x', file, path: file });
}

describe('data file input checks', () => {
  it('refuses binary data without echoing its bytes', () => {
    const bytes = Buffer.concat([
      Buffer.from('a,class\n'),
      Buffer.from([0x00, 0x01, 0xfe, 0x0a]),
      Buffer.from('x,y\n'),
    ]);
    expect(load(bytes)).toThrow(/x\.csv: the file holds binary data \(a zero byte at offset 8\), not CSV\/ARFF text$/);
  });

  it('refuses zip archives and text that is not UTF-8 (Latin-1 é), saying how to convert it', () => {
    expect(load(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toThrow(/the file is a zip archive, not text/);
    expect(load(Buffer.from('a,class\ncaf\xe9,yes\ntea,no\n', 'latin1'))).toThrow(
      /the file is not UTF-8 text; convert it \(e\.g\. iconv -f latin1 -t utf-8\)/,
    );
  });

  it('still reads UTF-8 text with a byte-order mark', () => {
    const { table } = load('\ufeffa,class\nx,yes\ny,no\n')();
    expect(table.columns.map((c) => c.name)).toEqual(['a']);
    expect(table.n).toBe(2);
  });

  it('names a dataset from the file name with the platform separators only (a backslash is a character on Linux)', () => {
    if (process.platform === 'win32') return;
    expect(baseName('data/a\\x.csv')).toBe('a\\x');
    const dir = tempDir();
    writeFileSync(join(dir, 'a\\x.csv'), 'a,class\nx,yes\ny,no\n');
    expect(userFileEntry('a\\x.csv', dir).name).toBe('a\\x');
  });
});
