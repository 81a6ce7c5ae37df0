import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clearDatasetCache, loadDataset } from '../../src/datasets/load.js';
import { registryYamlFromManifest, type Manifest } from '../../src/datasets/manifest.js';
import { closeMatches, findRepoRoot, loadRegistry, userFileEntry } from '../../src/datasets/registry.js';
import { sha256Hex } from '../../src/util/hash.js';
import { UserError } from '../../src/util/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const manifest = JSON.parse(readFileSync(`${ROOT}/data/uci/manifest.json`, 'utf8')) as Manifest & {
  datasets: { name: string; missing_values: number; rows: number }[];
};

function userError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('registry', () => {
  const reg = loadRegistry();

  it('finds the repository root from the module location', () => {
    expect(findRepoRoot()).toBe(ROOT);
    expect(reg.root).toBe(ROOT);
  });

  it('configs/datasets.yaml is the manifest, regenerated', () => {
    expect(readFileSync(`${ROOT}/configs/datasets.yaml`, 'utf8')).toBe(registryYamlFromManifest(manifest));
  });

  it('has all 76 shipped data sets (74 files as collected, 2 derived) with complete metadata', () => {
    expect(reg.entries.length).toBe(76);
    expect(reg.all().map((e) => e.name)).toEqual(manifest.datasets.map((d) => d.name).sort());
    for (const e of reg.entries) {
      expect(e.file).toMatch(/^data\/uci\/[a-z0-9-]+\.csv$/);
      expect(e.licence).toBe('CC BY 4.0');
      expect(e.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(e.classColumn).toBe('class');
      expect(Object.keys(e.columnTypes!).length).toBe(e.attributes);
      expect(e.source!.package.length).toBeGreaterThan(0);
      expect(e.source!.path.length).toBeGreaterThan(0);
      expect(e.builtin).toBe(true);
    }
    const iris = reg.get('iris');
    expect(iris).toMatchObject({
      file: 'data/uci/iris.csv',
      path: `${ROOT}/data/uci/iris.csv`,
      rows: 150,
      attributes: 4,
      classes: 3,
      sha256: '5c38242d49a8df86dbcc795ea8f58282b7ca93f8723261578b0a53a49bd5ba9f',
      source: { package: 'weka', version: '3.6.14-3', path: 'weka examples: iris.arff' },
      groups: ['quickstart', 'hdp68', 'subbkb', 'small'],
    });
    expect(iris.columnTypes).toEqual({
      sepallength: 'numeric',
      sepalwidth: 'numeric',
      petallength: 'numeric',
      petalwidth: 'numeric',
    });
  });

  it('groups', () => {
    expect(reg.group('quickstart').map((e) => e.name)).toEqual([
      'breast-cancer',
      'car',
      'house-votes-84',
      'iris',
      'tic-tac-toe',
      'zoo',
    ]);
    expect(reg.group('hdp68').length).toBe(manifest.datasets.filter((d) => d.lists.includes('hdp68')).length);
    expect(reg.group('hdp68').length).toBe(61);
    expect(reg.group('subbkb').length).toBe(18);
    const small = reg.group('small');
    const medium = reg.group('medium');
    const large = reg.group('large');
    expect(small.length + medium.length + large.length).toBe(76);
    expect(small.every((e) => e.rows! < 1000)).toBe(true);
    expect(medium.every((e) => e.rows! >= 1000 && e.rows! <= 10000)).toBe(true);
    expect(large.map((e) => e.name)).toEqual(['adult', 'letter', 'magic', 'nursery', 'pendigits', 'shuttle']);
    // Quick to run: under 2000 rows each (car, 1728 rows of 6 nominal attributes, is the largest).
    expect(reg.group('quickstart').every((e) => e.rows! < 2000)).toBe(true);
  });

  it('resolves names, groups and file paths', () => {
    expect(reg.resolve('zoo').map((e) => e.name)).toEqual(['zoo']);
    expect(reg.resolve('quickstart').length).toBe(6);
    const user = reg.resolve('test/fixtures/datasets/tiny.csv', { baseDir: ROOT });
    expect(user).toEqual([
      {
        name: 'tiny',
        file: `${ROOT}/test/fixtures/datasets/tiny.csv`,
        path: `${ROOT}/test/fixtures/datasets/tiny.csv`,
        format: 'csv',
        groups: [],
        builtin: false,
      },
    ]);
    // A path to a shipped file is the registry entry, so its hash is checked.
    expect(reg.resolve('uci/iris.csv', { baseDir: `${ROOT}/data` })[0]).toBe(reg.get('iris'));
  });

  it('unknown names give one-line UserErrors with close matches', () => {
    expect(userError(() => reg.resolve('irs'))).toBe("unknown data set or group 'irs'; did you mean iris?");
    expect(userError(() => reg.resolve('hdp86', { where: 'spec.yaml:4:5' }))).toBe(
      "spec.yaml:4:5: unknown data set or group 'hdp86'; did you mean hdp68?",
    );
    expect(userError(() => reg.get('thyroid'))).toBe(
      "unknown data set 'thyroid'; did you mean hypothyroid, new-thyroid, thyroid-20class, thyroid0387?",
    );
    expect(userError(() => reg.group('tiny'))).toMatch(/^unknown data set group 'tiny'/);
    expect(userError(() => reg.resolve('nope/missing.csv', { baseDir: ROOT, where: 'spec.yaml:9:5' }))).toBe(
      `spec.yaml:9:5: dataset file 'nope/missing.csv' not found (looked for ${ROOT}/nope/missing.csv)`,
    );
    expect(closeMatches('vowel', ['vowel-full', 'vowel', 'wine'])).toEqual(['vowel', 'vowel-full']);
  });
});

describe('registry file errors', () => {
  function registryError(text: string): string {
    const dir = mkdtempSync(`${tmpdir()}/bnclab-registry-`);
    mkdirSync(`${dir}/configs`);
    writeFileSync(`${dir}/configs/datasets.yaml`, text);
    try {
      return userError(() => loadRegistry(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('names the file, the line or the entry, and the problem', () => {
    expect(registryError('datasets:\n  - name: a\n    file: [x\n')).toMatch(
      /^configs\/datasets\.yaml:4:1: Flow sequence/,
    );
    expect(registryError('datasets:\n  - name: a\n    file: a.csv\n    sha256: abc\n')).toBe(
      'configs/datasets.yaml: datasets[0] (a): sha256 must be 64 lowercase hex digits',
    );
    expect(registryError('datasets:\n  - name: a\n    file: a.csv\n    groups: [big]\n')).toBe(
      "configs/datasets.yaml: datasets[0] (a): group 'big' is not declared under groups",
    );
    expect(registryError('datasets:\n  - name: a\n    file: a.txt\n')).toBe(
      "configs/datasets.yaml: datasets[0] (a): file must end in .csv or .arff, got 'a.txt'",
    );
    expect(registryError('groups: {a: x}\ndatasets:\n  - {name: a, file: a.csv}\n')).toBe(
      "configs/datasets.yaml: 'a' is both a data set and a group name",
    );
  });
});

describe('loadDataset', () => {
  const reg = loadRegistry();

  it('loads every shipped file, verifies its sha256 and matches the manifest counts', () => {
    const byName = new Map(manifest.datasets.map((d) => [d.name, d]));
    for (const e of reg.entries) {
      const { table, sha256 } = loadDataset(e);
      expect(sha256).toBe(e.sha256);
      expect(table.name).toBe(e.name);
      expect(table.droppedRows).toBe(0);
      expect(table.n).toBe(e.rows);
      expect(table.columns.length).toBe(e.attributes);
      expect(table.classLabels.length).toBe(e.classes);
      let missing = 0;
      for (const c of table.columns) {
        expect(c.type).toBe(e.columnTypes![c.name]);
        if (c.type === 'numeric') for (const k of c.ids) missing += k < 0 ? 1 : 0;
        else for (const k of c.codes) missing += k < 0 ? 1 : 0;
      }
      expect(missing, e.name).toBe(byName.get(e.name)!.missing_values);
    }
  });

  it('caches by path and hash', () => {
    const a = loadDataset(reg.get('iris'));
    expect(loadDataset(reg.get('iris')).table).toBe(a.table);
    clearDatasetCache();
    expect(loadDataset(reg.get('iris')).table).not.toBe(a.table);
  });

  it('rejects a file whose hash differs from the registry', () => {
    const e = { ...reg.get('iris'), sha256: 'deadbeef'.repeat(8) };
    expect(userError(() => loadDataset(e))).toBe(
      "data/uci/iris.csv: sha256 mismatch for data set 'iris': registry expects deadbeefdead..., file has 5c38242d49a8... (file modified or corrupt)",
    );
  });

  it('hashes user files and dispatches on the extension', () => {
    const csv = userFileEntry('test/fixtures/datasets/tiny.csv', ROOT);
    const loaded = loadDataset(csv);
    expect(loaded.sha256).toBe(sha256Hex(readFileSync(`${ROOT}/test/fixtures/datasets/tiny.csv`)));
    expect(loaded.table.n).toBe(14);
    expect(loaded.table.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'outlook:categorical',
      'temperature:numeric',
      'humidity:numeric',
      'windy:categorical',
    ]);
    const arff = loadDataset(userFileEntry('test/fixtures/datasets/weather.arff', ROOT));
    expect(arff.table.name).toBe('weather');
    expect(arff.table.className).toBe('play');
    // A plain handle (as sent to workers) with an empty hash works too.
    const handle = { name: 'tiny', file: `${ROOT}/test/fixtures/datasets/tiny.csv`, sha256: '' };
    expect(loadDataset(handle).sha256).toBe(loaded.sha256);
  });

  it('ships Syncon as UCI documents it: 600 charts of 60 values, each class a block of 100 rows', () => {
    const t = loadDataset(reg.get('syncon')).table;
    expect([t.n, t.columns.length]).toEqual([600, 60]);
    expect(t.columns.every((c) => c.type === 'numeric')).toBe(true);
    const labels = t.classLabels;
    const blocks = Array.from(
      { length: 6 },
      (_, b) => new Set(Array.from({ length: 100 }, (_, i) => labels[t.classColumn[b * 100 + i]])),
    );
    expect(blocks.map((s) => [...s])).toEqual([
      ['normal'],
      ['cyclic'],
      ['increasing-trend'],
      ['decreasing-trend'],
      ['upward-shift'],
      ['downward-shift'],
    ]);
    // The first value of UCI's file, written as it is there.
    expect(readFileSync(`${ROOT}/data/uci/syncon.csv`, 'utf8').split('\n')[1].startsWith('28.7812,34.4632,')).toBe(
      true,
    );
    expect(reg.group('hdp68').map((e) => e.name)).toContain('syncon');
  });

  it('reports reader errors with the file name', () => {
    expect(userError(() => loadDataset(userFileEntry('test/fixtures/datasets/ragged.csv', ROOT)))).toBe(
      `${ROOT}/test/fixtures/datasets/ragged.csv:3: row has 2 fields, header has 3`,
    );
    expect(userError(() => loadDataset(userFileEntry('test/fixtures/datasets/sparse.arff', ROOT)))).toMatch(
      /sparse\.arff:6: sparse ARFF/,
    );
    expect(userError(() => loadDataset({ name: 'gone', file: 'data/uci/gone.csv' }))).toBe(
      "data/uci/gone.csv: cannot read data set 'gone' (ENOENT)",
    );
  });
});
