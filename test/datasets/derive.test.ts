/**
 * Derived data sets (src/datasets/derive.ts): every registry entry with `derived:` is its source file with the
 * declared class mapping applied, byte for byte, and loads with the classes the papers give.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveClassMapped } from '../../src/datasets/derive.js';
import { loadRegistry } from '../../src/datasets/registry.js';
import { loadDataset } from '../../src/datasets/load.js';
import { sha256Hex } from '../../src/util/hash.js';
import { UserError } from '../../src/util/errors.js';

const reg = loadRegistry();

describe('derived data sets', () => {
  const derived = reg.entries.filter((e) => e.derived);

  it('are abalone-3class and thyroid-20class, in hdp68 in place of their sources', () => {
    expect(derived.map((e) => [e.name, e.derived!.from])).toEqual([
      ['abalone-3class', 'abalone'],
      ['thyroid-20class', 'thyroid0387'],
    ]);
    const hdp = reg.group('hdp68').map((e) => e.name);
    expect(hdp).toContain('abalone-3class');
    expect(hdp).toContain('thyroid-20class');
    expect(hdp).not.toContain('abalone');
    expect(hdp).not.toContain('thyroid0387');
  });

  for (const e of derived) {
    it(`${e.name} is ${e.derived!.from} with its declared class mapping, byte for byte`, () => {
      const src = reg.get(e.derived!.from);
      const text = deriveClassMapped(readFileSync(src.path, 'utf8'), e.derived!.class_map, src.file);
      expect(text).toBe(readFileSync(e.path, 'utf8'));
      expect(sha256Hex(text)).toBe(e.sha256);
      const { table } = loadDataset(e);
      expect(table.n).toBe(e.rows);
      expect(new Set(Object.values(e.derived!.class_map)).size).toBe(e.classes);
    });
  }

  it('abalone: rings 1-8 / 9-10 / 11-29 (1407 / 1323 / 1447 rows); thyroid: the first diagnosis, 20 classes', () => {
    const count = (name: string) => {
      const c = new Map<string, number>();
      for (const line of readFileSync(reg.get(name).path, 'utf8').split('\n').slice(1)) {
        if (line) c.set(line.slice(line.lastIndexOf(',') + 1), (c.get(line.slice(line.lastIndexOf(',') + 1)) ?? 0) + 1);
      }
      return c;
    };
    expect(Object.fromEntries(count('abalone-3class'))).toEqual({ '1-8': 1407, '9-10': 1323, '11-29': 1447 });
    const t = count('thyroid-20class');
    expect(t.size).toBe(20);
    expect(t.get('-')).toBe(6771);
    expect(t.get('G')).toBe(359 + 49 + 10 + 1); // G, GK, GI, GKJ
  });

  it('refuses a class value without a mapping and a quoted field, naming the line', () => {
    expect(() => deriveClassMapped('a,class\n1,x\n2,y\n', { x: 'X' }, 'f.csv')).toThrow(
      new UserError("f.csv:3: class value 'y' has no mapping"),
    );
    expect(() => deriveClassMapped('a,class\n"1",x\n', { x: 'X' }, 'f.csv')).toThrow(/f\.csv:2: a quoted field/);
    expect(deriveClassMapped('a,class\n1,x\n2,x\n', { x: 'X' }, 'f.csv')).toBe('a,class\n1,X\n2,X\n');
  });
});
