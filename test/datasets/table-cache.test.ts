import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearDatasetCache, loadDataset } from '../../src/datasets/load.js';
import { TABLE_CACHE_MIN_BYTES, tableCacheKey } from '../../src/datasets/table-cache.js';
import type { RawTable } from '../../src/datasets/table.js';
import { contentCacheKey, resetCacheDir } from '../../src/util/cache.js';
import { packageRoot } from '../../src/util/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'bnclab-table-cache-'));
const cache = join(dir, 'cache');
const file = join(dir, 'big.csv');
const saved = process.env['BNCLAB_CACHE_DIR'];

/** A CSV above the size threshold: numbers (some missing, some many-valued), labels, and a class. */
function writeCsv(): void {
  const lines = ['x,y,z,w,class'];
  let s = 12345;
  const next = (): number => (s = (s * 1103515245 + 12345) % 2147483648);
  let bytes = 0;
  while (bytes < TABLE_CACHE_MIN_BYTES + 100_000) {
    const x = next() % 7 === 0 ? '?' : String((next() % 50_000) / 100);
    const y = ['a', 'bb', 'c c', 'd'][next() % 4];
    const z = String(next() % 300);
    const w = next() % 11 === 0 ? '' : `v${next() % 200}`;
    const cls = next() % 3 === 0 ? 'yes' : 'no';
    const line = `${x},${y},${z},${w},${cls}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

function plain(t: RawTable): unknown {
  return {
    ...t,
    classColumn: [t.classColumn.constructor.name, Array.from(t.classColumn)],
    columns: t.columns.map((c) =>
      c.type === 'numeric'
        ? { ...c, ids: [c.ids.constructor.name, Array.from(c.ids)], distinct: Array.from(c.distinct) }
        : { ...c, codes: [c.codes.constructor.name, Array.from(c.codes)] },
    ),
  };
}

const entry = { name: 'big', file, columnTypes: { z: 'categorical' as const } };

beforeAll(() => {
  writeCsv();
  process.env['BNCLAB_CACHE_DIR'] = cache;
  resetCacheDir();
});
afterAll(() => {
  if (saved === undefined) delete process.env['BNCLAB_CACHE_DIR'];
  else process.env['BNCLAB_CACHE_DIR'] = saved;
  resetCacheDir();
  clearDatasetCache();
  rmSync(dir, { recursive: true, force: true });
});

describe('coded tables kept in columnar binary form', () => {
  it('a second process reads the stored columns: the same table, value for value and width for width', () => {
    clearDatasetCache();
    const first = loadDataset(entry);
    const stored = readdirSync(join(cache, 'raw-table-1'));
    expect(stored).toHaveLength(1);
    clearDatasetCache(); // as a new process
    const second = loadDataset(entry);
    expect(second.sha256).toBe(first.sha256);
    expect(second.table).not.toBe(first.table);
    expect(plain(second.table)).toEqual(plain(first.table));
    // Shared memory, as a CSV table read afresh: workers are handed it uncopied.
    expect(second.table.classColumn.buffer).toBeInstanceOf(SharedArrayBuffer);
    for (const c of second.table.columns)
      expect((c.type === 'numeric' ? c.ids : c.codes).buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('other settings are another entry; a damaged entry is a miss and the file is parsed again', () => {
    clearDatasetCache();
    const asNumber = loadDataset({ ...entry, columnTypes: { z: 'numeric' } });
    expect(asNumber.table.columns.find((c) => c.name === 'z')!.type).toBe('numeric');
    const entries = readdirSync(join(cache, 'raw-table-1'));
    expect(entries).toHaveLength(2);
    clearDatasetCache();
    const reference = plain(loadDataset(entry).table);
    for (const e of entries) truncateSync(join(cache, 'raw-table-1', e), 100);
    clearDatasetCache();
    expect(plain(loadDataset(entry).table)).toEqual(reference);
  });

  it('keys an entry by the code that reads and codes the file too, so a table coded by other code is never read', () => {
    const settings = { name: 'big', classColumn: null };
    const src = (m: string) => readFileSync(join(packageRoot(), 'src', m), 'utf8');
    const withCode = contentCacheKey(
      'raw-table-1',
      src('datasets/csv.ts'),
      src('datasets/columns.ts'),
      src('datasets/table.ts'),
      src('bn/data.ts'),
      src('datasets/table-cache.ts'),
      'ab'.repeat(32),
      JSON.stringify(settings),
    );
    expect(tableCacheKey('ab'.repeat(32), settings)).toBe(withCode);
    expect(withCode).not.toBe(contentCacheKey('raw-table-1', 'ab'.repeat(32), JSON.stringify(settings)));
  });
});
