import { createHash } from 'node:crypto';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cachedFileHash,
  cachedJson,
  contentCacheKey,
  contentCacheKeyer,
  readContent,
  readFileHashed,
  resetCacheDir,
  writeContent,
} from '../../src/util/cache.js';
import { Ajv } from 'ajv';
import { compileSchema } from '../../src/spec/validator.js';
import { useTempCacheDir } from '../helpers/cache-dir.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('on-disk cache', () => {
  const tempDir = useTempCacheDir('bnclab-cache-');
  let dir = '';
  beforeAll(() => {
    dir = tempDir();
  });

  it('content keys separate kinds and inputs, including where one input ends', () => {
    expect(contentCacheKey('a', 'xy')).toBe(contentCacheKey('a', 'xy'));
    expect(contentCacheKey('a', 'xy')).not.toBe(contentCacheKey('b', 'xy'));
    expect(contentCacheKey('a', 'x', 'y')).not.toBe(contentCacheKey('a', 'xy'));
  });

  it("a keyer gives the key of its first inputs followed by each call's, as often as it is called", () => {
    const big = 'é'.repeat(100_000);
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const k = contentCacheKeyer('kind', big, bytes);
    for (const rest of [[], ['x'], ['x', 'y'], ['xy'], [bytes, '']] as (string | Uint8Array)[][]) {
      expect(k(...rest)).toBe(contentCacheKey('kind', big, bytes, ...rest));
      expect(k(...rest)).toBe(contentCacheKey('kind', big, bytes, ...rest));
    }
    expect(k('x', 'y')).not.toBe(k('xy'));
    expect(contentCacheKeyer('kind')('a')).toBe(contentCacheKey('kind', 'a'));
  });

  it('computes once, then reads back the same value', () => {
    let calls = 0;
    const key = contentCacheKey('test-json', 'input');
    const f = (): { v: number[] } => {
      calls++;
      return { v: [1, 2, 3] };
    };
    expect(cachedJson('test-json', key, f)).toEqual({ v: [1, 2, 3] });
    expect(cachedJson('test-json', key, f)).toEqual({ v: [1, 2, 3] });
    expect(calls).toBe(1);
  });

  it('recomputes a damaged entry and does not cache a failure', () => {
    const key = contentCacheKey('test-json', 'damaged');
    writeContent('test-json', key, '{"v": [1, 2');
    expect(cachedJson('test-json', key, () => ({ v: 7 }))).toEqual({ v: 7 });
    expect(JSON.parse(readContent('test-json', key)!)).toEqual({ v: 7 });
    const bad = contentCacheKey('test-json', 'throws');
    expect(() =>
      cachedJson('test-json', bad, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(readContent('test-json', bad)).toBeUndefined();
  });

  it('gives a file hash that is never stale: same size, same modification time, new content', () => {
    const file = join(dir, 'data.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    expect(readFileHashed(file).sha256).toBe(sha('a,b\n1,2\n'));
    expect(readdirSync(join(dir, 'cache', 'file-sha256'))).toHaveLength(1);
    // A cached hit returns the same bytes and hash.
    const hit = readFileHashed(file);
    expect(hit.bytes.toString()).toBe('a,b\n1,2\n');
    expect(hit.sha256).toBe(sha('a,b\n1,2\n'));
    // Rewrite with the same size and put the old modification time back: the status-change time differs.
    const when = new Date('2020-01-01T00:00:00Z');
    utimesSync(file, when, when);
    readFileHashed(file);
    writeFileSync(file, 'a,b\n3,4\n');
    utimesSync(file, when, when);
    expect(readFileHashed(file).sha256).toBe(sha('a,b\n3,4\n'));
  });

  it("knows a file's hash without reading it only while the file is unchanged", () => {
    const file = join(dir, 'known.csv');
    writeFileSync(file, 'x\n1\n');
    expect(cachedFileHash(file)).toBeUndefined(); // never hashed
    readFileHashed(file);
    expect(cachedFileHash(file)).toBe(sha('x\n1\n'));
    // same size, the old modification time put back: the status-change time still differs
    const when = new Date('2020-01-01T00:00:00Z');
    utimesSync(file, when, when);
    readFileHashed(file);
    writeFileSync(file, 'x\n2\n');
    utimesSync(file, when, when);
    expect(cachedFileHash(file)).toBeUndefined();
    expect(cachedFileHash(join(dir, 'no-such-file.csv'))).toBeUndefined();
  });

  it('BNCLAB_CACHE_DIR=off stores nothing', () => {
    process.env['BNCLAB_CACHE_DIR'] = 'off';
    resetCacheDir();
    try {
      writeContent('test-off', 'k', 'v');
      expect(readContent('test-off', 'k')).toBeUndefined();
    } finally {
      process.env['BNCLAB_CACHE_DIR'] = join(dir, 'cache');
      resetCacheDir();
    }
  });

  it('a cached validator accepts and rejects exactly as the compiled one, with the same errors', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', pattern: '^[a-z]+$' }, k: { type: 'integer', minimum: 1 } },
    };
    const fresh = compileSchema(schema, true); // a miss: compiled by ajv and stored
    expect(readdirSync(join(dir, 'cache', 'ajv-validator')).length).toBeGreaterThan(0);
    const cached = compileSchema(schema, true); // a hit: evaluated from the stored code
    expect(cached).not.toBe(fresh);
    // Both run the stored code; ajv's own compiled function is the reference.
    const ajvCompiled = new Ajv({ allErrors: true, strict: false }).compile(schema);
    for (const v of [{ name: 'abc' }, { name: 'ABC' }, { name: 'a', k: 0 }, { k: 2 }, { name: 'a', extra: 1 }]) {
      const expected = ajvCompiled(v);
      expect(cached(v)).toBe(expected);
      expect(cached.errors ?? null).toEqual(ajvCompiled.errors ?? null);
      expect(fresh(v)).toBe(expected);
      expect(fresh.errors ?? null).toEqual(ajvCompiled.errors ?? null);
    }
    expect(cached({ name: 'a', k: 0 })).toBe(false);
  });
});
