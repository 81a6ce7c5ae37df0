import { describe, expect, it } from 'vitest';
import { methodDetail } from '../../src/cli/methods.js';
import { getStructure, listEstimators } from '../../src/registry.js';
import { cli } from '../helpers/cli.js';
import '../../src/methods.js';

describe('bnclab methods <id>', () => {
  it('kdb: citation, the parameter k with its default and range, and the estimators it pairs with', () => {
    const t = methodDetail('kdb');
    expect(t).toContain('(structure learner)');
    expect(t).toContain(`Citation: ${getStructure('kdb')!.citation}`);
    expect(t).toMatch(/^\s+k\s+integer \(≥ 1, ≤ 5\)\s+1\s+Maximum number of attribute parents/m);
    const pairs = /Estimators it pairs with: (.*)/.exec(t)![1].split(', ');
    const not = /Not with: (.*)/.exec(t)![1].split(', ');
    // The registry's compatibility rule decides: MANB and WANBIA apply to naive Bayes only.
    expect(pairs).toContain('dirichlet');
    expect(pairs).toContain('hdp');
    expect(not).toContain('manb');
    expect([...pairs, ...not].sort()).toEqual(
      listEstimators()
        .map((e) => e.id)
        .sort(),
    );
  });

  it('an estimator lists the structures it applies to', () => {
    const t = methodDetail('manb');
    expect(t).toContain('(parameter estimator)');
    expect(/Structures it pairs with: (.*)/.exec(t)![1]).toBe('nb');
  });

  it('a typo gets a suggestion and exit 2 from the CLI', () => {
    const r = cli(['methods', 'kbd']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("bnclab: methods: no method 'kbd' (did you mean 'kdb'?); 'bnclab methods' lists them\n");
    const ok = cli(['methods', 'tan']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('tan: ');
  });
});
