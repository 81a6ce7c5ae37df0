import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomNetwork, sampleRows, writeSyntheticCsv } from '../../src/datasets/synthetic.js';
import { loadDataset } from '../../src/datasets/load.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'bnclab-synth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opts = { attributes: 6, cards: [2, 3, 4, 2, 3, 5], classCard: 3, maxParents: 2, seed: 's1' };

describe('synthetic data from a known random network', () => {
  it('draws a DAG in column order: parents are earlier attributes, at most maxParents', () => {
    const net = randomNetwork(opts);
    net.parents.forEach((ps, i) => {
      expect(ps.length).toBe(Math.min(i, 2));
      for (const p of ps) expect(p).toBeLessThan(i);
      expect(new Set(ps).size).toBe(ps.length);
    });
    // Every conditional distribution sums to one.
    net.cpts.forEach((cpt, i) => {
      const k = net.cards[i];
      for (let q = 0; q < cpt.length / k; q++) {
        let s = 0;
        for (let j = 0; j < k; j++) s += cpt[q * k + j];
        expect(s).toBeCloseTo(1, 12);
      }
    });
  });

  it('samples the network: frequencies match the conditional tables within 4 standard errors', () => {
    const net = randomNetwork(opts);
    const n = 40_000;
    const classCount = new Float64Array(3);
    // Attribute 0 has the class as its only parent.
    const a0 = new Float64Array(3 * 2);
    sampleRows(net, n, 'rows', (codes, cls) => {
      classCount[cls]++;
      a0[cls * 2 + codes[0]]++;
    });
    for (let c = 0; c < 3; c++) {
      const p = net.classPrior[c];
      expect(Math.abs(classCount[c] / n - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n));
      const nc = classCount[c];
      const q = net.cpts[0][c * 2];
      expect(Math.abs(a0[c * 2] / nc - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / nc) + 1e-9);
    }
  });

  it('is reproducible from the seed, and numeric columns keep the sampled categories', () => {
    const net = randomNetwork(opts);
    const a = join(dir, 'a.csv');
    const b = join(dir, 'b.csv');
    const c = join(dir, 'c.csv');
    writeSyntheticCsv(net, 500, 'r', a);
    writeSyntheticCsv(randomNetwork(opts), 500, 'r', b);
    writeSyntheticCsv(net, 500, 'r', c, new Set([1, 4]));
    const ta = readFileSync(a, 'utf8');
    expect(readFileSync(b, 'utf8')).toBe(ta);
    expect(randomNetwork({ ...opts, seed: 's2' }).classPrior).not.toEqual(net.classPrior);
    const ra = ta.trim().split('\n');
    const rc = readFileSync(c, 'utf8').trim().split('\n');
    expect(ra[0]).toBe('a1,a2,a3,a4,a5,a6,class');
    expect(ra).toHaveLength(501);
    for (let r = 1; r < ra.length; r++) {
      const x = ra[r].split(',');
      const y = rc[r].split(',');
      expect(`v${Math.floor(Number(y[1]))}`).toBe(x[1]);
      expect(`v${Math.floor(Number(y[4]))}`).toBe(x[4]);
      expect(y[0]).toBe(x[0]);
      expect(y[6]).toBe(x[6]);
    }
  });

  it('bnclab synth writes the rows and the network; the file loads with the numeric column typed numeric', () => {
    const out = join(dir, 'cli.csv');
    const r = cli([
      'synth',
      out,
      '--rows',
      '300',
      '--attributes',
      '4',
      '--cards',
      '3',
      '--classes',
      '3',
      '--numeric',
      '2',
      '--seed',
      'x',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const net = JSON.parse(readFileSync(join(dir, 'cli.network.json'), 'utf8')) as {
      cards: number[];
      numeric: string[];
      classPrior: number[];
    };
    expect(net.cards).toEqual([3, 3, 3, 3]);
    expect(net.numeric).toEqual(['a2']);
    expect(net.classPrior).toHaveLength(3);
    const { table } = loadDataset({ name: 'cli', file: out });
    expect(table.n).toBe(300);
    expect(table.columns.map((c) => c.type)).toEqual(['categorical', 'numeric', 'categorical', 'categorical']);
    const bad = cli(['synth', out, '--rows', '10', '--cards', '1-3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--cards/);
  });
});
