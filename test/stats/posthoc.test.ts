import { describe, it, expect } from 'vitest';
import {
  posthocAllPairs,
  posthocAllPairsFromRanks,
  posthocVsControl,
  posthocVsControlFromRanks,
} from '../../src/stats/posthoc.js';
import { bonferroniDunnCD, nemenyiCD } from '../../src/stats/cd.js';
import { GH2008_MEAN_RANKS, GH2008_N, GH2010 } from './fixtures.js';

describe('posthocVsControl (Demšar 2006 z from mean ranks)', () => {
  // Provenance: reference §2.2 vector A (García & Herrera 2008, scmamp::data.gh.2008), recomputed in R 4.2.2:
  //   r <- c(63, 97.5, 66, 130, 93.5)/30; se <- sqrt(5*6/(6*30)); z <- (r[-1] - r[1])/se; p <- 2*pnorm(-abs(z))
  //   p.adjust(p, "hommel"); p.adjust(p, "holm")
  it('GH2008, control C4.5, Hommel and Holm', () => {
    const r = posthocVsControlFromRanks(GH2008_MEAN_RANKS, GH2008_N, 0);
    expect(r.se).toBeCloseTo(0.408248290463863, 12);
    expect(r.settings.adjust).toBe('hommel');
    expect(r.comparisons.map((c) => c.method)).toEqual([1, 2, 3, 4]);
    const z = [2.81691320420065461, 0.24494897427831802, 5.47052709221576361, 2.49031457182956428];
    const p = [4.8487627216789479e-3, 8.0649594050733997e-1, 4.4869910705653059e-8, 1.2763007532641236e-2];
    const hommel = [1.4546288165036843e-2, 8.0649594050733997e-1, 1.7947964282261223e-7, 2.5526015065282473e-2];
    r.comparisons.forEach((c, idx) => {
      expect(c.z).toBeCloseTo(z[idx], 12);
      expect(c.p / p[idx]).toBeCloseTo(1, 10);
      expect(c.pAdjusted / hommel[idx]).toBeCloseTo(1, 10);
    });
    const holm = posthocVsControlFromRanks(GH2008_MEAN_RANKS, GH2008_N, 0, { adjust: 'holm' });
    const holmExpected = [1.4546288165036843e-2, 8.0649594050733997e-1, 1.7947964282261223e-7, 2.5526015065282473e-2];
    holm.comparisons.forEach((c, idx) => expect(c.pAdjusted / holmExpected[idx]).toBeCloseTo(1, 10));
    expect(holm.settings.adjust).toBe('holm');
  });

  // Provenance: reference §2.2 vector B (García et al. 2010, scmamp::data.gh.2010), control PDFC:
  // z = 1.900658, 1.900658, 4.024922; raw p 5.734685e-02, 5.734685e-02, 5.699412e-05;
  // Holm 1.146937e-01, 1.146937e-01, 1.709823e-04; Hommel (R) 5.734685e-02, 5.734685e-02, 1.7098236e-04.
  // This vector separates Holm from Hommel.
  it('GH2010, control PDFC, computed from the accuracy matrix', () => {
    const r = posthocVsControl(GH2010, 0);
    expect(r.settings).toEqual({ adjust: 'hommel', higherIsBetter: true, digits: null });
    expect(r.controlMeanRank).toBeCloseTo(1.77083333333333, 12);
    const [nnep, ischc, fhgbml] = r.comparisons;
    expect(nnep.method).toBe(1);
    expect(nnep.z).toBeCloseTo(1.900658, 6);
    expect(ischc.z).toBeCloseTo(1.900658, 6);
    expect(fhgbml.z).toBeCloseTo(4.024922, 6);
    expect(nnep.p).toBeCloseTo(5.734685e-2, 8);
    expect(fhgbml.p / 5.699412e-5).toBeCloseTo(1, 6);
    expect(nnep.pAdjusted).toBeCloseTo(5.734685e-2, 8);
    expect(ischc.pAdjusted).toBeCloseTo(5.734685e-2, 8);
    expect(fhgbml.pAdjusted / 1.7098236e-4).toBeCloseTo(1, 6);
    const holm = posthocVsControl(GH2010, 0, { adjust: 'holm' });
    expect(holm.comparisons[0].pAdjusted).toBeCloseTo(1.146937e-1, 7);
    expect(holm.comparisons[1].pAdjusted).toBeCloseTo(1.146937e-1, 7);
    expect(holm.comparisons[2].pAdjusted / 1.709823e-4).toBeCloseTo(1, 6);
  });

  // Provenance: Demšar (2006) §3.2.2 example (rounded published ranks 3.143 2.000 2.893 1.964, N = 14), control
  // C4.5: z = 2.3425, 0.5123, 2.4162; raw p 0.01916, 0.6084, 0.01568; Hommel 0.03831, 0.6084, 0.03136 (±0.01).
  it('Demšar 2006 example (loose)', () => {
    const r = posthocVsControlFromRanks([3.143, 2.0, 2.893, 1.964], 14, 0);
    const z = [2.3425, 0.5123, 2.4162];
    const p = [0.01916, 0.6084, 0.01568];
    const h = [0.03831, 0.6084, 0.03136];
    r.comparisons.forEach((c, idx) => {
      expect(Math.abs(Math.abs(c.z) - z[idx])).toBeLessThan(0.01);
      expect(Math.abs(c.p - p[idx])).toBeLessThan(0.01);
      expect(Math.abs(c.pAdjusted - h[idx])).toBeLessThan(0.01);
    });
  });

  it("control 'best' picks the lowest mean rank", () => {
    expect(posthocVsControl(GH2010, 'best').control).toBe(0);
    expect(posthocVsControlFromRanks(GH2008_MEAN_RANKS, GH2008_N, 'best').control).toBe(0);
    expect(posthocVsControlFromRanks([3, 1.5, 1.5], 2, 'best').control).toBe(1);
  });

  it('rejects a bad control index and NaN scores', () => {
    expect(() => posthocVsControl(GH2010, 4)).toThrow(/control must be a column index in 0..3/);
    expect(() => posthocVsControl(GH2010, -1)).toThrow(/control/);
    expect(() => posthocVsControl([[1, NaN]], 0)).toThrow(/finite number/);
  });

  it('k = 2, N = 1', () => {
    const r = posthocVsControl([[0.9, 0.8]], 0);
    expect(r.comparisons).toHaveLength(1);
    expect(r.comparisons[0].z).toBeCloseTo(1, 14); // (2 − 1)/sqrt(2·3/6)
    expect(r.comparisons[0].pAdjusted).toBe(r.comparisons[0].p);
  });
});

describe('posthocAllPairs', () => {
  // Provenance: reference §2.2 vector A, all 10 pairs with Hommel; R 4.2.2:
  //   for (i in 1:4) for (j in (i+1):5) p <- c(p, 2*pnorm(-abs((r[j]-r[i])/se))); p.adjust(p, "hommel")
  it('GH2008 all pairs, Hommel', () => {
    const r = posthocAllPairsFromRanks(GH2008_MEAN_RANKS, GH2008_N);
    expect(r.comparisons.map((c) => [c.i, c.j])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 3],
      [2, 4],
      [3, 4],
    ]);
    const raw = [
      4.8487627216789479e-3, 8.0649594050733997e-1, 4.4869910705653059e-8, 1.2763007532641236e-2, 1.0112333921333478e-2,
      7.9634892065500069e-3, 7.4397147807505704e-1, 1.7361180256593435e-7, 2.4744672046398977e-2, 2.8804846690270989e-3,
    ];
    const hommel = [
      2.5526015065282473e-2, 8.0649594050733997e-1, 4.4869910705653059e-7, 4.9489344092797954e-2, 4.0449335685333911e-2,
      3.1907518831603088e-2, 8.0649594050733997e-1, 1.5625062230934092e-6, 7.4234016139196932e-2, 2.0163392683189691e-2,
    ];
    r.comparisons.forEach((c, idx) => {
      expect(c.p / raw[idx]).toBeCloseTo(1, 10);
      expect(c.pAdjusted / hommel[idx]).toBeCloseTo(1, 10);
    });
  });
  it('matrix form carries settings', () => {
    const r = posthocAllPairs(GH2010, { adjust: 'bonferroni' });
    expect(r.comparisons).toHaveLength(6);
    expect(r.settings).toEqual({ adjust: 'bonferroni', higherIsBetter: true, digits: null });
    const fh = r.comparisons.find((c) => c.i === 0 && c.j === 3);
    expect(fh?.pAdjusted).toBeCloseTo(Math.min(1, 6 * 5.699412e-5), 8);
  });
});

describe('post-hoc input checks and options', () => {
  it('the FromRanks forms reject too few or non-finite ranks and a bad N, naming the argument', () => {
    for (const f of [
      (r: number[], n: number) => posthocVsControlFromRanks(r, n, 0),
      (r: number[], n: number) => posthocAllPairsFromRanks(r, n),
    ]) {
      expect(() => f([1], 3)).toThrow(/^meanRanks must have at least 2 element/);
      expect(() => f([1, NaN], 3)).toThrow(/^meanRanks\[1\] must be a finite number/);
      expect(() => f([1, 2], 0)).toThrow(/^nDatasets must be an integer >= 1/);
      expect(() => f([1, 2], 2.5)).toThrow(/^nDatasets must be an integer >= 1/);
    }
  });

  it('the matrix forms reject a single method with their own message', () => {
    expect(() => posthocVsControl([[0.5], [0.7]], 0)).toThrow(/^post-hoc comparisons need at least 2 methods$/);
    expect(() => posthocAllPairs([[0.5], [0.7]])).toThrow(/^post-hoc comparisons need at least 2 methods$/);
  });

  // k = 2, N = 2: ranks (1, 2) and (2, 1) give mean ranks 1.5, 1.5, so z = 0 and p = 1.
  it('all pairs with exactly two methods', () => {
    const r = posthocAllPairs([
      [0.9, 0.8],
      [0.7, 0.8],
    ]);
    expect(r.comparisons).toHaveLength(1);
    expect(r.comparisons[0]).toMatchObject({ i: 0, j: 1, rankDifference: 0, z: 0, p: 1, pAdjusted: 1 });
  });

  // Worked by hand: with digits = 2 the first row rounds to (0.80, 0.80, 0.70), ranks (1.5, 1.5, 3); unrounded
  // it ranks (2, 1, 3). Second row (0.9, 0.8, 0.7): ranks (1, 2, 3). Lower-is-better reverses every rank r to
  // k + 1 − r.
  it('higherIsBetter and digits reach the ranking (both matrix forms)', () => {
    const m = [
      [0.801, 0.804, 0.7],
      [0.9, 0.8, 0.7],
    ];
    expect(posthocAllPairs(m).meanRanks).toEqual([1.5, 1.5, 3]);
    expect(posthocVsControl(m, 0).meanRanks).toEqual([1.5, 1.5, 3]);
    const rounded = posthocAllPairs(m, { digits: 2 });
    expect(rounded.meanRanks).toEqual([1.25, 1.75, 3]);
    expect(rounded.settings).toEqual({ adjust: 'hommel', higherIsBetter: true, digits: 2 });
    expect(posthocVsControl(m, 0, { digits: 2 }).meanRanks).toEqual([1.25, 1.75, 3]);
    const low = posthocAllPairs(m, { higherIsBetter: false });
    expect(low.meanRanks).toEqual([2.5, 2.5, 1]);
    expect(low.settings.higherIsBetter).toBe(false);
    const lowC = posthocVsControl(m, 'best', { higherIsBetter: false });
    expect(lowC.control).toBe(2);
    expect(lowC.settings).toEqual({ adjust: 'hommel', higherIsBetter: false, digits: null });
  });

  it("results hold a copy of the mean ranks, not the caller's array", () => {
    const ranks = [1.5, 2.5, 2];
    const a = posthocVsControlFromRanks(ranks, 4, 0);
    const b = posthocAllPairsFromRanks(ranks, 4);
    expect(a.meanRanks).toEqual(ranks);
    expect(a.meanRanks).not.toBe(ranks);
    expect(b.meanRanks).toEqual(ranks);
    expect(b.meanRanks).not.toBe(ranks);
  });
});

describe('critical differences', () => {
  // Provenance: R 4.2.2 qtukey(1 - alpha, k, Inf)/sqrt(2), k = 2..10 (reference §2.5 table; equals Orange's
  // compute_CD table and Demšar's Table 5).
  const nem05 = [
    1.95996398476621, 2.34370058790214, 2.56903177742073, 2.72777438251855, 2.84970544327129, 2.94832006072218,
    3.0308785225952, 3.10173045750856, 3.16368375350279,
  ];
  const nem10 = [
    1.64485362698205, 2.0522927305492, 2.2913414969963, 2.45951576442952, 2.58852060214144, 2.69273210125968,
    2.77988360852991, 2.85460643167261, 2.91988884064709,
  ];
  // Provenance: R 4.2.2 qnorm(1 - alpha/(2*(k - 1))), k = 2..10.
  const bd05 = [
    1.9599639845400536, 2.2414027276049464, 2.3939797998185104, 2.4977054744123737, 2.5758293035488999,
    2.6382572734767509, 2.690109527158866, 2.7343687865331758, 2.7729212946086621,
  ];
  const bd10 = [
    1.6448536269514715, 1.9599639845400536, 2.128045234184984, 2.2414027276049464, 2.3263478740408408,
    2.3939797998185104, 2.4499976606027292, 2.4977054744123737, 2.5391848136513131,
  ];

  it('Nemenyi q for alpha 0.05 and 0.10, k = 2..10', () => {
    for (let k = 2; k <= 10; k++) {
      expect(nemenyiCD(k, 10, 0.05).q).toBeCloseTo(nem05[k - 2], 9);
      expect(nemenyiCD(k, 10, 0.1).q).toBeCloseTo(nem10[k - 2], 9);
    }
  });
  it('Bonferroni–Dunn q for alpha 0.05 and 0.10, k = 2..10', () => {
    for (let k = 2; k <= 10; k++) {
      expect(bonferroniDunnCD(k, 10, 0.05).q).toBeCloseTo(bd05[k - 2], 12);
      expect(bonferroniDunnCD(k, 10, 0.1).q).toBeCloseTo(bd10[k - 2], 12);
    }
  });
  // Provenance: reference §2.2 vector A; R 4.2.2 qtukey(0.95, 5, Inf)/sqrt(2)*se = 1.1136092284343193 and
  // scmamp's getNemenyiCD convention qtukey(0.95, 5, 5*29)/sqrt(2)*se = 1.1277474726151389.
  it('GH2008 Nemenyi CD, Demšar (df = ∞) and scmamp (df = k(N − 1)) conventions', () => {
    const d = nemenyiCD(5, 30);
    expect(d.cd).toBeCloseTo(1.1136092284343193, 9);
    expect(d.df).toBe(Infinity);
    expect(d.alpha).toBe(0.05);
    expect(d.procedure).toBe('nemenyi');
    const s = nemenyiCD(5, 30, 0.05, { df: 'scmamp' });
    expect(s.df).toBe(145);
    expect(s.cd).toBeCloseTo(1.1277474726151389, 9);
    expect(nemenyiCD(5, 30, 0.05, { df: 145 }).cd).toBeCloseTo(s.cd, 14);
  });
  // Provenance: reference §2.2 vector B: Nemenyi CD 0.957422, Bonferroni–Dunn CD 0.892184 (q = 2.393980);
  // R 4.2.2: 0.9574216151116427 and 0.89218359485925469.
  it('GH2010 Nemenyi and Bonferroni–Dunn CD', () => {
    expect(nemenyiCD(4, 24).cd).toBeCloseTo(0.9574216151116427, 9);
    const bd = bonferroniDunnCD(4, 24);
    expect(bd.cd).toBeCloseTo(0.89218359485925469, 12);
    expect(bd.q).toBeCloseTo(2.39398, 5);
    expect(bd.df).toBeNull();
    expect(bd.procedure).toBe('bonferroni-dunn');
  });
  // Provenance: Demšar (2006) §3.2.2: k = 4, N = 14: Nemenyi CD_0.05 = 2.569·0.48795 = 1.25; Bonferroni–Dunn
  // CD_0.05 = 1.168 and CD_0.10 = 1.038.
  it('Demšar 2006 example', () => {
    expect(nemenyiCD(4, 14).cd).toBeCloseTo(1.25, 2);
    expect(bonferroniDunnCD(4, 14, 0.05).cd).toBeCloseTo(1.168, 3);
    expect(bonferroniDunnCD(4, 14, 0.1).cd).toBeCloseTo(1.038, 3);
  });
  it('invalid arguments', () => {
    expect(() => nemenyiCD(1, 10)).toThrow(/k \(number of methods\)/);
    expect(() => nemenyiCD(3, 0)).toThrow(/N \(number of datasets\)/);
    expect(() => nemenyiCD(3, 10, 1.2)).toThrow(/alpha/);
    expect(() => nemenyiCD(3, 10, 0.05, { df: 1 })).toThrow(/df/);
    expect(() => bonferroniDunnCD(3, 10, NaN)).toThrow(/alpha/);
  });
});
