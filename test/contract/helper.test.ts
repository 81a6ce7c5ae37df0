/**
 * The contract checks as a user's learner outside src/ runs them (`bnclab/contract`, docs/extending.md):
 * a correct learner passes with no failure, and each kind of broken learner is reported by the check that
 * should catch it (a cycle, a learner that remembers its last call, one that depends on the column order).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Structure } from '../../src/bn/structure.js';
import { type CheckedStructureLearner, checkLearner, checkStructureLearner } from '../../src/contract/index.js';

const ROOT = join(__dirname, '..', '..');

/** Naive Bayes written as a user would: every attribute's parent is the class (node m). */
const naiveBayes: CheckedStructureLearner = {
  id: 'my-nb',
  learn: (train) => ({ m: train.names.length, parents: [...train.names.map(() => [train.names.length]), []] }),
};

/** Each attribute also depends on the one before it in column order: a position-dependent structure. */
const chain: CheckedStructureLearner = {
  id: 'my-chain',
  learn: (train): Structure => {
    const m = train.names.length;
    return { m, parents: [...train.names.map((_, a) => (a === 0 ? [m] : [m, a - 1])), []] };
  },
};

describe('bnclab/contract', () => {
  it('a correct learner passes every check', () => {
    expect(checkLearner(naiveBayes, 'mle')).toEqual([]);
    expect(checkLearner(naiveBayes, 'dirichlet', { estimatorParams: { alpha: 2 } })).toEqual([]);
  });

  it('a cycle fails the DAG check', () => {
    const cyclic: CheckedStructureLearner = {
      learn: (train) => {
        const m = train.names.length;
        return { m, parents: [...train.names.map((_, a) => [m, (a + 1) % m]), []] };
      },
    };
    const failures = checkLearner(cyclic, 'mle');
    expect(failures.filter((f) => f.check === 'valid').length).toBeGreaterThan(0);
    expect(failures.find((f) => f.check === 'valid')?.message).toMatch(/not a DAG/);
  });

  it('a learner whose output depends on an earlier call fails the determinism check', () => {
    let calls = 0;
    const forgetful: CheckedStructureLearner = {
      learn: (train) => {
        const m = train.names.length;
        calls++;
        return { m, parents: [...train.names.map((_, a) => (a === 0 && calls % 2 === 0 ? [m, 1] : [m])), []] };
      },
    };
    expect(checkLearner(forgetful, 'mle').map((f) => f.check)).toContain('deterministic');
  });

  it('a position-dependent learner fails the column check unless it declares it', () => {
    const checks = (s: CheckedStructureLearner) => checkLearner(s, 'mle').map((f) => f.check);
    expect(checks(chain)).toEqual(['columns-reordered']);
    expect(checks({ ...chain, orderDependence: { columns: 'each attribute depends on the one before it' } })).toEqual(
      [],
    );
  });

  it('checkStructureLearner pairs a learner with every estimator that applies to it', () => {
    const failures = checkStructureLearner(chain);
    expect(failures.length).toBeGreaterThan(0);
    expect(new Set(failures.map((f) => f.check))).toEqual(new Set(['columns-reordered']));
    expect(new Set(failures.map((f) => f.estimator))).toContain('mle');
  });

  it('is importable from the built package as bnclab/contract', () => {
    const script = `import { checkLearner } from 'bnclab/contract';
const nb = { learn: (t) => ({ m: t.names.length, parents: [...t.names.map(() => [t.names.length]), []] }) };
console.log(JSON.stringify(checkLearner(nb, 'mle')));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([]);
  });
});
