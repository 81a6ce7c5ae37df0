/**
 * Bootstrap arc strengths (bnlearn's boot.strength semantics): naive Bayes's fixed arcs have strength 1 and
 * direction 1 (their reverse 0); every pair is listed both ways with directions summing to 1; strengths are
 * multiples of 1/R; TAN's tree arcs on the full data are found in most samples; the numbers repeat exactly.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { bootCsv, bootStrength } from '../../src/runner/boot.js';
import { fitOnFullData } from '../../src/runner/fit.js';
import { arcs } from '../../src/bn/structure.js';

const dir = tempDir('bnclab-boot-');
writeFileSync(
  join(dir, 's.yaml'),
  'name: b\nseed: 1\ndatasets: [car]\nstructures: [nb, tan]\nestimators: [dirichlet]\n',
);
const { spec } = loadSpecFile(join(dir, 's.yaml'));

describe('bootstrap arc strengths', () => {
  it('naive Bayes: each class → attribute arc in every sample, nothing else', () => {
    const b = bootStrength(spec, 'car', 'nb/dirichlet', 5);
    expect(b.arcs).toHaveLength(12);
    for (const a of b.arcs) {
      expect(a.strength).toBe(1);
      expect(a.direction).toBe(a.from === 'class' ? 1 : 0);
    }
  });

  it('TAN: pairs both ways, directions summing to 1, strengths k/R; the full-data tree is strong', () => {
    const R = 20;
    const b = bootStrength(spec, 'car', 'tan/dirichlet', R);
    const key = (x: string, y: string): string => [x, y].sort().join(' ');
    const pairs = new Map<string, number>();
    for (const a of b.arcs) {
      expect(Number.isInteger(Math.round(a.strength * R * 1e9) / 1e9)).toBe(true);
      pairs.set(key(a.from, a.to), (pairs.get(key(a.from, a.to)) ?? 0) + a.direction);
    }
    for (const sum of pairs.values()) expect(sum).toBeCloseTo(1, 12);
    // A TAN has m - 1 = 5 tree arcs per sample: the strengths of the attribute pairs add up to 5.
    const treeTotal = [...pairs.keys()]
      .filter((k) => !k.split(' ').includes('class'))
      .reduce((s, k) => s + b.arcs.find((a) => key(a.from, a.to) === k)!.strength, 0);
    expect(treeTotal).toBeCloseTo(5, 12);
    const fit = fitOnFullData(spec, 'car', 'tan/dirichlet');
    const names = [...fit.data.names, fit.data.className];
    for (const [p, c] of arcs(fit.structure!)) {
      const s = b.arcs.find((a) => a.from === names[p] && a.to === names[c])!;
      expect(s.strength).toBeGreaterThanOrEqual(0.5);
    }
    expect(bootCsv(bootStrength(spec, 'car', 'tan/dirichlet', R))).toBe(bootCsv(b));
  });
});
