/**
 * Learners register themselves when their file is imported, and src/methods.ts imports the index files. A
 * learner file left out of its index would silently not exist: this test finds every file that calls
 * registerStructure / registerEstimator / registerBaseline and requires it to be reachable from src/methods.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compatible, incompatibility, listEstimators, listStructures } from '../../src/registry.js';
import { importGraph, reachable, SRC } from './graph.js';

describe('explicit registration', () => {
  // Imported here, not at the top: a learner file that throws while loading (e.g. a registration that cannot
  // be built) then fails these tests, whereas a failing static import only fails the file's collection, which
  // a runner that counts failed tests (the mutation tests) does not see.
  beforeAll(async () => {
    await import('../../src/methods.js');
  });

  const graph = importGraph();
  const registering = [...graph.keys()]
    .filter((f) => f !== 'registry.ts')
    .filter((f) => /\bregister(Structure|Estimator|Baseline)\s*[(<]/.test(readFileSync(join(SRC, f), 'utf8')))
    .sort();

  it('finds the learner files (the check is not vacuous)', () => {
    expect(registering).toContain('structures/nb.ts');
    expect(registering).toContain('estimators/mle.ts');
    expect(registering).toContain('baselines/decision-tree.ts');
    expect(registering.length).toBeGreaterThan(25);
  });

  it('every file that registers a method is imported, directly or not, by src/methods.ts', () => {
    const fromMethods = reachable(graph, 'methods.ts');
    expect(registering.filter((f) => !fromMethods.has(f))).toEqual([]);
  });

  it('an index file registers only what lives in or below its own folder', () => {
    // e.g. structures/exact/index.ts pulling in ../ensembles/* hid the ensembles under "exact".
    const strays = [...graph]
      .filter(([f]) => f.endsWith('/index.ts'))
      .flatMap(([f, targets]) => {
        const dir = f.slice(0, f.lastIndexOf('/') + 1);
        return targets.filter((t) => registering.includes(t) && !t.startsWith(dir)).map((t) => `${f} → ${t}`);
      });
    expect(strays).toEqual([]);
  });

  it('estimators state what they need as structure traits, and the registry applies them', () => {
    const fits = (e: string) =>
      listStructures()
        .filter((s) => compatible(listEstimators().find((x) => x.id === e)!, s.id))
        .map((s) => s.id);
    for (const e of ['manb', 'wanbia', 'awnb']) expect(fits(e), e).toEqual(['nb']);
    const all = listStructures().map((s) => s.id);
    expect(fits('hdp')).toEqual(all.filter((id) => id !== 'ban-mix'));
    expect(fits('mle')).toEqual(all);
    const hdp = listEstimators().find((x) => x.id === 'hdp')!;
    expect(incompatibility(hdp, 'ban-mix')).toBe('cannot fit members fitted on row weights (fractional counts)');
    const manb = listEstimators().find((x) => x.id === 'manb')!;
    expect(incompatibility(manb, 'tan')).toMatch(/^needs a naive Bayes structure/);
  });
});
