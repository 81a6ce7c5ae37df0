/**
 * AODE prediction through GatedMixtureModel's fused joint path (dense CptModel members' joints summed
 * from their tables into one buffer, streaming log-sum-exp) against the computation it replaced, here as the
 * reference: every member's logJoint from its own NetworkInference, combined by pairwise log-add-exp
 * (a + log1p(exp(b − a))), renormalised per row; naive Bayes for rows without a qualifying super-parent.
 * Posteriors must agree to 1e-12 on real data: tic-tac-toe and car (complete), house-votes-84 (203 of 435 rows
 * with a missing vote, which the fused path hands to the members' exact marginalisation), with the frequency
 * limit at Weka's 1, at the paper's 30, and high enough that some rows fall back to naive Bayes.
 */
import { describe, expect, it } from 'vitest';
import '../../src/structures/index.js';
import '../../src/estimators/index.js';
import { aode } from '../../src/structures/aode.js';
import { CptModel, fitModel, GatedMixtureModel, smoothedLogProbs } from '../../src/bn/cpt.js';
import { normalizeLogRows, type JointModel } from '../../src/bn/inference.js';
import { selectRows, type DiscreteData } from '../../src/bn/data.js';
import type { Model } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';
import { shipped } from './catalog-data.js';

/** The pre-fusion GatedMixtureModel 'joint' posterior, verbatim in its arithmetic. */
function referencePosterior(g: GatedMixtureModel, data: DiscreteData): Float64Array {
  const n = data.n;
  const C = data.classCard;
  const wsum = new Float64Array(n);
  const acc = new Float64Array(n * C).fill(-Infinity);
  for (const { weight, model, gate } of g.members) {
    const lj = (model as JointModel).logJoint(data);
    const lw = Math.log(weight);
    for (let r = 0; r < n; r++) {
      const v = gate ? data.columns[gate.attribute][r] : 0;
      if (gate && (v < 0 || !gate.values.includes(v))) continue;
      wsum[r] += weight;
      for (let c = 0; c < C; c++) {
        const i = r * C + c;
        const a = acc[i];
        const b = lj[i] + lw;
        if (b === -Infinity) continue;
        acc[i] = a >= b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
      }
    }
  }
  const out = normalizeLogRows(acc, C);
  const fb = g.fallback!.posterior(data);
  for (let r = 0; r < n; r++) if (wsum[r] === 0) for (let c = 0; c < C; c++) out[r * C + c] = fb[r * C + c];
  return out;
}

function fitAode(data: DiscreteData, frequencyLimit: number): Model {
  const s = aode.learn(data, { frequencyLimit }, { rng: new Rng('aode-fused') });
  return fitModel(data, s, (fc) => smoothedLogProbs(fc, 1)); // Dirichlet α = 1, as the dirichlet estimator
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('AODE fused joint path', () => {
  for (const name of ['tic-tac-toe', 'car', 'house-votes-84']) {
    it(`${name}: posteriors equal the per-member log-add-exp to 1e-12`, () => {
      const data = shipped(name);
      for (const limit of [1, 30]) {
        const model = fitAode(data, limit);
        expect(model).toBeInstanceOf(GatedMixtureModel);
        const g = model as GatedMixtureModel;
        // The fused path applies: every member is a dense CptModel.
        expect(g.members.every((m) => m.model instanceof CptModel)).toBe(true);
        const p = g.posterior(data);
        expect(maxDiff(p, referencePosterior(g, data))).toBeLessThan(1e-12);
        for (let r = 0; r < data.n; r++) {
          let s = 0;
          for (let c = 0; c < data.classCard; c++) s += p[r * data.classCard + c];
          expect(Math.abs(s - 1)).toBeLessThan(1e-12);
        }
      }
    });
  }

  it('house-votes-84 has rows with missing votes, and rows without a frequent super-parent fall back to naive Bayes', () => {
    const data = shipped('house-votes-84');
    let incomplete = 0;
    for (let r = 0; r < data.n; r++) if (data.columns.some((col) => col[r] < 0)) incomplete++;
    expect(incomplete).toBe(203); // rows of the 435 with at least one '?' vote
    // Limit 250: each vote's rarer value occurs in fewer than 250 rows, so rows where every observed vote
    // is the rarer one (or missing) have no qualifying super-parent.
    const g = fitAode(data, 250) as GatedMixtureModel;
    const p = g.posterior(data);
    expect(maxDiff(p, referencePosterior(g, data))).toBeLessThan(1e-12);
    const nb = g.fallback!.posterior(data);
    let fellBack = 0;
    for (let r = 0; r < data.n; r++) {
      const open = g.members.some(({ gate }) => gate!.values.includes(data.columns[gate!.attribute][r]));
      if (open) continue;
      fellBack++;
      for (let c = 0; c < data.classCard; c++) expect(p[r * data.classCard + c]).toBe(nb[r * data.classCard + c]);
    }
    expect(fellBack).toBeGreaterThan(0);
  });

  it('mushroom (8,124 rows, 2,480 with a missing value): summed in blocks of rows, each row gets its posterior bit for bit', () => {
    const data = shipped('mushroom');
    const g = fitAode(data, 1) as GatedMixtureModel;
    const whole = g.posterior(data);
    expect(data.n).toBeGreaterThan(4096); // more than one block
    let incomplete = 0;
    for (let r = 0; r < data.n; r++) if (data.columns.some((col) => col[r] < 0)) incomplete++;
    expect(incomplete).toBe(2480); // stalk-root '?': these rows go through the members' own logJoint
    // Pieces of fewer rows than a block, each summed on its own: the same numbers for every row.
    const pieced = new Float64Array(whole.length);
    for (let r0 = 0; r0 < data.n; r0 += 1000) {
      const rows = Array.from({ length: Math.min(1000, data.n - r0) }, (_, i) => r0 + i);
      pieced.set(g.posterior(selectRows(data, rows)), r0 * data.classCard);
    }
    expect(pieced).toEqual(whole);
    expect(maxDiff(whole, referencePosterior(g, data))).toBeLessThan(1e-12);
  });
});
