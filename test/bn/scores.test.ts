import { describe, it, expect } from 'vitest';
import { discreteFromArrays } from '../../src/bn/data.js';
import { familyCounts } from '../../src/bn/counts.js';
import { bdeuFromCounts, lgamma, localScore, networkScore, scoreFromCounts } from '../../src/bn/scores.js';
import { Rng } from '../../src/util/rng.js';

describe('lgamma', () => {
  // Reference values: CPython 3 math.lgamma (the C library's lgamma, correctly rounded to ~1 ulp).
  it.each([
    [0.5, 0.5723649429247004],
    [1, 0],
    [2, 0],
    [10, 12.801827480081467],
    [0.1, 2.2527126517342055],
    [0.25, 1.2880225246980772],
    [2.5, 0.2846828704729196],
    [3.25, 0.9358019311087249],
    [100, 359.1342053695754],
    [1e-8, 18.42068073818021],
    [1e6, 12815504.569147611],
  ])('lgamma(%d)', (x, ref) => {
    expect(Math.abs(lgamma(x) - ref)).toBeLessThanOrEqual(1e-13 * Math.max(1, Math.abs(ref)));
  });

  it('satisfies ln Γ(x + 1) = ln Γ(x) + ln x', () => {
    for (const x of [0.01, 0.3, 1.7, 4.2, 37.5, 1234.5]) {
      expect(lgamma(x + 1)).toBeCloseTo(lgamma(x) + Math.log(x), 11);
    }
  });
});

/**
 * A 2 × 2 family: child X0 (r = 2) with parent X1 (q = 2).
 *   X1 = 0: X0 = 0 three times, X0 = 1 once
 *   X1 = 1: X0 = 1 twice
 * N = 6, d = q (r − 1) = 2.
 */
const rows2x2 = [
  [0, 0],
  [0, 0],
  [0, 0],
  [1, 0],
  [1, 1],
  [1, 1],
];
const data2x2 = discreteFromArrays({ cards: [2, 2], rows: rows2x2, classes: [0, 1, 0, 1, 0, 1], classCard: 2 });

describe('local scores of a 2 × 2 family (worked by hand)', () => {
  // LL = 3 ln(3/4) + 1 ln(1/4) + 2 ln(2/2).
  const LL = 3 * Math.log(3 / 4) + Math.log(1 / 4);

  it('log-likelihood', () => {
    expect(localScore(data2x2, 0, [1], 'loglik')).toBeCloseTo(LL, 14);
    expect(LL).toBeCloseTo(-2.249340578475233, 14);
  });

  it('AIC = LL − d and BIC = LL − (ln N / 2) d', () => {
    expect(localScore(data2x2, 0, [1], 'aic')).toBeCloseTo(LL - 2, 14);
    expect(localScore(data2x2, 0, [1], 'bic')).toBeCloseTo(LL - Math.log(6), 14);
  });

  it('BDeu with ess 1 is ln(5/448)', () => {
    // α_jk = 1/(r q) = 1/4, α_j = 1/q = 1/2; Γ(a + N)/Γ(a) = a (a + 1) ... (a + N − 1) for integer N:
    //   j = 0: Γ(1/2)/Γ(9/2) · Γ(13/4)/Γ(1/4) · Γ(5/4)/Γ(1/4) = (16/105) · (45/64) · (1/4) = 3/112
    //   j = 1: Γ(1/2)/Γ(5/2) · Γ(1/4)/Γ(1/4) · Γ(9/4)/Γ(1/4) = (4/3) · 1 · (5/16)        = 5/12
    //   product 15/1344 = 5/448, ln = −4.4953553199808844
    expect(localScore(data2x2, 0, [1], 'bdeu', 1)).toBeCloseTo(Math.log(5 / 448), 13);
    expect(Math.log(5 / 448)).toBeCloseTo(-4.4953553199808844, 14);
  });

  it('BDeu with ess 2 against the lgamma formula term by term', () => {
    // α_jk = 1/2, α_j = 1: [lnΓ(1) − lnΓ(5) + lnΓ(3.5) − lnΓ(.5) + lnΓ(1.5) − lnΓ(.5)] + [lnΓ(1) − lnΓ(3) + lnΓ(2.5) − lnΓ(.5)]
    // = ln(1/24 · 15/8 · 1/2) + ln(1/2 · 3/4) = ln(15/384) + ln(3/8) = ln(45/3072)
    expect(localScore(data2x2, 0, [1], 'bdeu', 2)).toBeCloseTo(Math.log(45 / 3072), 13);
  });

  it('a family without parents', () => {
    // X0 = (3, 3): LL = 6 ln(1/2); BDeu(ess 1): Γ(1)/Γ(7) · (Γ(3.5)/Γ(.5))² = 1.875² / 720
    expect(localScore(data2x2, 0, [], 'loglik')).toBeCloseTo(6 * Math.log(0.5), 14);
    expect(localScore(data2x2, 0, [], 'bdeu', 1)).toBeCloseTo(Math.log((1.875 * 1.875) / 720), 13);
    expect(localScore(data2x2, 0, [], 'bic')).toBeCloseTo(6 * Math.log(0.5) - 0.5 * Math.log(6), 14);
  });

  it('does not depend on the parent order', () => {
    const d = discreteFromArrays({
      cards: [3, 2, 2],
      rows: [
        [0, 0, 1],
        [1, 1, 0],
        [2, 0, 0],
        [0, 1, 1],
        [1, 1, 1],
        [2, 0, 1],
        [0, 0, 0],
      ],
      classes: [0, 1, 0, 1, 1, 0, 0],
      classCard: 2,
    });
    for (const s of ['loglik', 'aic', 'bic', 'bdeu'] as const) {
      expect(localScore(d, 0, [1, 3], s)).toBeCloseTo(localScore(d, 0, [3, 1], s), 12);
    }
  });
});

describe('score equivalence (two nodes: X → Y and Y → X are Markov equivalent)', () => {
  // BDeu, BIC, AIC and LL all give Markov-equivalent DAGs the same score; this fails if a count, a
  // penalty or a Dirichlet split is off.
  const d = discreteFromArrays({
    cards: [3, 2],
    rows: [
      [0, 0],
      [0, 1],
      [1, 1],
      [2, 0],
      [2, 0],
      [1, 1],
      [0, 0],
      [2, 1],
      [1, 1],
      [0, 0],
    ],
    classes: [0, 0, 1, 1, 0, 1, 0, 1, 1, 0],
    classCard: 2,
  });
  it.each(['loglik', 'aic', 'bic', 'bdeu'] as const)('%s', (s) => {
    const xy = localScore(d, 0, [], s, 3) + localScore(d, 1, [0], s, 3);
    const yx = localScore(d, 1, [], s, 3) + localScore(d, 0, [1], s, 3);
    expect(xy).toBeCloseTo(yx, 11);
    expect(networkScore(d, [[], [0], []], s, 3)).toBeCloseTo(xy + localScore(d, 2, [], s, 3), 11);
  });
});

describe('missing values', () => {
  // The 2 × 2 rows plus two rows that each miss a member of the family X0 | X1: n = 8, the family is
  // counted on N = 6 rows and X0 alone on 7 (counts (3, 4)).
  const d = discreteFromArrays({
    cards: [2, 2],
    rows: [...rows2x2, [-1, 0], [1, -1]],
    classes: [0, 1, 0, 1, 0, 1, 0, 1],
    classCard: 2,
  });
  const LL = 3 * Math.log(3 / 4) + Math.log(1 / 4);

  it('count each family on the rows where it is observed', () => {
    const fc = familyCounts(d, 0, [1]);
    expect(scoreFromCounts(fc.counts, 2, 2, 'bic')).toBeCloseTo(LL - Math.log(6), 14);
    expect(scoreFromCounts(fc.counts, 2, 2, 'bdeu', 1)).toBeCloseTo(Math.log(5 / 448), 13);
  });

  it('rescale a family counted on N < n rows to n rows (node-average likelihood)', () => {
    // (n/N)·LL − (ln n / 2)·d with n = 8, N = 6, d = 2
    expect(localScore(d, 0, [1], 'bic')).toBeCloseTo((8 / 6) * LL - Math.log(8), 14);
    expect(localScore(d, 0, [1], 'aic')).toBeCloseTo((8 / 6) * LL - 2, 14);
    expect(localScore(d, 0, [1], 'bdeu', 1)).toBeCloseTo((8 / 6) * Math.log(5 / 448), 13);
    expect(localScore(d, 0, [], 'loglik')).toBeCloseTo((8 / 7) * (3 * Math.log(3 / 7) + 4 * Math.log(4 / 7)), 14);
  });

  it('so that a parent with missing values gains nothing from the rows it removes', () => {
    // X2 is independent noise, missing in half the rows. Raw available-case LL would rise by dropping
    // those rows; the rescaled score of X0 | X2 stays within sampling noise of X0 alone, and BIC prefers X0 alone.
    const rng = new Rng('noise-parent');
    const rows: number[][] = [];
    for (let r = 0; r < 2000; r++) rows.push([rng.int(2), 0, rng.next() < 0.5 ? -1 : rng.int(2)]);
    const dn = discreteFromArrays({ cards: [2, 1, 2], rows, classes: rows.map(() => 0), classCard: 1 });
    const raw = familyCounts(dn, 0, [2]);
    const alone = familyCounts(dn, 0, []);
    expect(scoreFromCounts(raw.counts, 2, 2, 'loglik')).toBeGreaterThan(
      scoreFromCounts(alone.counts, 2, 1, 'loglik') + 500,
    );
    expect(Math.abs(localScore(dn, 0, [2], 'loglik') - localScore(dn, 0, [], 'loglik'))).toBeLessThan(5);
    expect(localScore(dn, 0, [2], 'bic')).toBeLessThan(localScore(dn, 0, [], 'bic'));
  });

  it('an empty family scores 0', () => {
    expect(scoreFromCounts(new Float64Array(4), 2, 2, 'bic')).toBe(0);
    expect(bdeuFromCounts(new Float64Array(4), 2, 2, 1)).toBe(0);
  });

  it('scoreFromCounts reads familyCounts directly', () => {
    const fc = familyCounts(data2x2, 0, [1]);
    expect(scoreFromCounts(fc.counts, 2, 2, 'bdeu', 1)).toBeCloseTo(Math.log(5 / 448), 13);
  });
});
