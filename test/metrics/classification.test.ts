import { describe, it, expect } from 'vitest';
import { computeMetrics as accuracyMetrics } from '../../src/metrics/index.js';
import { Rng } from '../../src/util/rng.js';
import {
  classificationMetrics as computeMetrics,
  aucHandTill,
  aucOneVsRestWeighted,
  balancedAccuracy,
  brierScore,
  confusionMatrix,
  macroF1,
} from '../../src/metrics/classification.js';

// Expected values from scikit-learn 1.2.1 (Debian python3-sklearn), computed outside the repository:
//   roc_auc_score(y, P, multi_class='ovo', average='macro')      -> auc (Hand & Till M)
//   roc_auc_score(y, P, multi_class='ovr', average='weighted')   -> auc_ovr (binary: roc_auc_score(y, P[:, 1]))
//   ((P - onehot(y))**2).sum(1).mean()                           -> brier (binary: 2 * brier_score_loss(y, P[:, 1]))
//   balanced_accuracy_score(y, argmax P), f1_score(y, argmax P, average='macro'), confusion_matrix(y, argmax P)

// Three classes with tied scores (rows 3, 4: p0 = p1) so mid-ranks matter.
const PA = Float64Array.from([
  0.7, 0.2, 0.1, 0.2, 0.5, 0.3, 0.1, 0.3, 0.6, 0.4, 0.4, 0.2, 0.3, 0.3, 0.4, 0.5, 0.25, 0.25, 0.2, 0.2, 0.6, 0.6, 0.3,
  0.1, 0.25, 0.5, 0.25, 0.1, 0.1, 0.8,
]);
const YA = Int32Array.from([0, 1, 2, 1, 0, 0, 2, 1, 1, 2]);
// Two classes, tied scores across classes (rows 2 and 3).
const PB = Float64Array.from([0.9, 0.1, 0.3, 0.7, 0.6, 0.4, 0.6, 0.4, 0.2, 0.8, 0.55, 0.45, 0.5, 0.5]);
const YB = Int32Array.from([0, 1, 1, 0, 1, 0, 0]);
// Four classes, 25 rows of random posteriors (numpy default_rng(7)); class 3 is never predicted.
const PC = Float64Array.from([
  0.2667886285166103, 0.3829278122060546, 0.33106002605415524, 0.019223533223179868, 0.2234659174823942,
  0.6503376027161599, 0.003919880995023743, 0.12227659880642198, 0.4908903511219051, 0.28818663094795866,
  0.1866282773328282, 0.034294740597308124, 0.19378864314310826, 0.3384112408468021, 0.3836304025271454,
  0.08416971348294434, 0.38169069876274037, 0.3039192322311896, 0.23855344774164655, 0.07583662126442352,
  0.21598933723534322, 0.16071849996611426, 0.6144759791012319, 0.008816183697310687, 0.02972839590117125,
  0.4289994142490149, 0.38843747214884183, 0.15283471770097204, 0.3723848537015736, 0.3042619777034311,
  0.2940566135417857, 0.029296555053209657, 0.012595749599344747, 0.20548109034374196, 0.7390744812206931,
  0.04284867883622021, 0.299411089924229, 0.0030256119649809425, 0.6725333569090097, 0.02502994120178036,
  0.14645703150936867, 0.4818055645714447, 0.2790083809290676, 0.09272902299011898, 0.40457381506929063,
  0.4691152865508615, 0.05786420611369206, 0.06844669226615589, 0.2729939934665664, 0.4684588858996943,
  0.1942266849499038, 0.06432043568383554, 0.07406828083210508, 0.4845641397871385, 0.4038157571077976,
  0.037551822272958696, 0.35608603872226013, 0.16551412154298195, 0.42692905725864083, 0.051470782476117166,
  0.31033926022811464, 0.32723467554736846, 0.3469579347658853, 0.015468129458631701, 0.3996613001988442,
  0.2174460960210716, 0.36533743602102303, 0.017555167759061203, 0.5054773698223127, 0.11229233869183056,
  0.3508496030540053, 0.03138068843185143, 0.4758377408803122, 0.360502284857811, 0.07165017565354871,
  0.09200979860832814, 0.3860593204858627, 0.36929591662561423, 0.23275920712543716, 0.011885555763085899,
  0.1126303841110021, 0.5430140074550458, 0.3232236038885208, 0.02113200454543136, 0.4072905465511412,
  0.29557610170476206, 0.26246171930867523, 0.03467163243542147, 0.4757828105919135, 0.2772682470903138,
  0.04406076186784892, 0.2028881804499238, 0.3143784072615554, 0.36808543793014603, 0.21653762054691764,
  0.1009985342613809, 0.055706977503202644, 0.822852836327781, 0.06710052132160645, 0.05433966484740993,
]);
const YC = Int32Array.from(Array.from({ length: 25 }, (_, i) => i % 4));

describe('metrics pinned to scikit-learn', () => {
  // [case, posteriors, truth, classes, sklearn values]
  const CASES = [
    [
      'three classes with ties',
      PA,
      YA,
      3,
      {
        auc: 0.9444444444444445,
        aucOvr: 0.9404761904761905,
        brier: 0.399,
        balancedAccuracy: 0.7222222222222222,
        macroF1: 0.6984126984126985,
        confusion: [
          [2, 0, 1],
          [2, 2, 0],
          [0, 0, 3],
        ],
      },
    ],
    // Two classes: both AUCs are the binary AUC; Brier is twice sklearn's binary brier_score_loss (0.15892857142857147).
    [
      'two classes',
      PB,
      YB,
      2,
      {
        auc: 0.7916666666666666,
        aucOvr: 0.7916666666666666,
        brier: 2 * 0.15892857142857147,
        balancedAccuracy: 0.8333333333333333,
        macroF1: 0.8444444444444446,
        confusion: [
          [4, 0],
          [1, 2],
        ],
      },
    ],
    [
      'four classes, one never predicted',
      PC,
      YC,
      4,
      {
        auc: 0.3726851851851852,
        aucOvr: 0.3707602339181287,
        brier: 0.9940783534690709,
        balancedAccuracy: 0.19642857142857142,
        macroF1: 0.16666666666666666,
        confusion: [
          [2, 4, 1, 0],
          [2, 2, 2, 0],
          [3, 2, 1, 0],
          [2, 2, 2, 0],
        ],
      },
    ],
  ] as const;
  it.each(CASES)('%s', (_name, P, Y, C, want) => {
    const m = computeMetrics(P, Y, C);
    for (const k of ['auc', 'aucOvr', 'brier', 'balancedAccuracy', 'macroF1'] as const)
      expect(m[k], k).toBeCloseTo(want[k], 14);
    expect(m.confusion).toEqual(want.confusion);
  });

  it('Brier = C · RMSE² (the Monash RMSE is the per-class root of the same sum)', () => {
    const m = computeMetrics(PC, YC, 4);
    expect(m.brier).toBeCloseTo(4 * accuracyMetrics(PC, YC, 4).rmse ** 2, 14);
  });
});

describe('metrics by hand where sklearn refuses (a class absent from the test rows)', () => {
  // Three classes, no row of class 2. Hand & Till keeps only the pair {0, 1}:
  //   A(0|1) on p0: class-0 scores {0.6, 0.3} vs class-1 scores {0.3, 0.1}: pairs (0.6>0.3, 0.6>0.1, 0.3=0.3 -> 1/2, 0.3>0.1) = 3.5/4
  //   A(1|0) on p1: class-1 scores {0.5, 0.2} vs class-0 scores {0.3, 0.2}: (0.5>0.3, 0.5>0.2, 0.2<0.3 -> 0, 0.2=0.2 -> 1/2) = 2.5/4
  //   M = (0.875 + 0.625) / 2 = 0.75
  const P = Float64Array.from([0.6, 0.3, 0.1, 0.3, 0.2, 0.5, 0.3, 0.5, 0.2, 0.1, 0.2, 0.7]);
  const Y = Int32Array.from([0, 0, 1, 1]);
  it('Hand & Till averages over the pairs present; one-vs-rest over the classes present', () => {
    expect(aucHandTill(P, Y, 3)).toBeCloseTo(0.75, 15);
    // OvR: class 0 on p0 vs rows of class 1 = 3.5/4; class 1 on p1 vs class 0 = 2.5/4; equal weights 2, 2.
    expect(aucOneVsRestWeighted(P, Y, 3)).toBeCloseTo(0.75, 15);
  });
  it('recall over present classes; F1 over true or predicted classes', () => {
    // predictions: row0 -> 0, row1 -> 2 (0.5), row2 -> 1, row3 -> 2 (0.7)
    const cm = confusionMatrix(P, Y, 3);
    expect([...cm]).toEqual([1, 0, 1, 0, 1, 1, 0, 0, 0]);
    expect(balancedAccuracy(cm, 3)).toBe(0.5);
    // F1: class 0: 2·1/(2+1) = 2/3; class 1: 2/3; class 2 (predicted twice, never true): 0.
    expect(macroF1(cm, 3)).toBeCloseTo((2 / 3 + 2 / 3 + 0) / 3, 15);
    // Brier by hand: row0 0.16+0.09+0.01, row1 0.49+0.04+0.25, row2 0.09+0.25+0.04, row3 0.01+0.64+0.49
    expect(brierScore(P, Y, 3)).toBeCloseTo((0.26 + 0.78 + 0.38 + 1.14) / 4, 14);
  });
  it('one-vs-rest with a NaN score walks the other classes sorted together, as it always did', () => {
    // Rows of classes 0, 1, 2. Class 0's scores p0: own [0.5], the others [0.75, NaN] sorted together, so
    // 0.5 is below both (NaN sorts last and is taken last): U = 0. Summing U over the other classes, as
    // without NaN, would meet the NaN first in class 2's run and count it below 0.5 (U = 1, A = ½).
    // Class 1: [0.125] below [0.25, 0.5]: A = 0. Class 2: [0.5] above [0.25, 0.125]: A = 1. Mean: 1/3.
    const p = Float64Array.from([0.5, 0.25, 0.25, 0.75, 0.125, 0.125, Number.NaN, 0.5, 0.5]);
    expect(aucOneVsRestWeighted(p, Int32Array.from([0, 1, 2]), 3)).toBe(1 / 3);
  });
  it('a test fold of one class has no AUC (NaN), but balanced accuracy and F1', () => {
    const y = Int32Array.from([1, 1, 1, 1]);
    expect(aucHandTill(P, y, 3)).toBeNaN();
    expect(aucOneVsRestWeighted(P, y, 3)).toBeNaN();
    expect(balancedAccuracy(confusionMatrix(P, y, 3), 3)).toBe(0.25);
  });
});

describe('AUC against the pairwise definition', () => {
  // U counts every (positive, negative) pair: 1 when the positive scores higher, ½ on a tie. Whole and half
  // counts are exact in doubles, so the sorted walk must give the very same numbers.
  function pairwise(p: Float64Array, y: number[], C: number, c: number, pos: number, neg: number): number {
    let u = 0;
    let np = 0;
    let nn = 0;
    for (let a = 0; a < y.length; a++) if (y[a] === pos) np++;
    for (let b = 0; b < y.length; b++) if (neg < 0 ? y[b] !== pos : y[b] === neg) nn++;
    for (let a = 0; a < y.length; a++) {
      if (y[a] !== pos) continue;
      for (let b = 0; b < y.length; b++) {
        if (neg < 0 ? y[b] === pos : y[b] !== neg) continue;
        const d = p[a * C + c] - p[b * C + c];
        u += d > 0 ? 1 : d === 0 ? 0.5 : 0;
      }
    }
    return np === 0 || nn === 0 ? NaN : u / (np * nn);
  }

  it('Hand & Till and one-vs-rest equal the pairwise counts on random posteriors with many ties', () => {
    const rng = new Rng('auc-pairwise');
    // up to 8 classes: one-vs-rest sums U over the other classes, which must equal the walk over them all
    for (let trial = 0; trial < 200; trial++) {
      const C = 2 + rng.int(7);
      const n = 1 + rng.int(120);
      const y = Array.from({ length: n }, () => rng.int(C));
      const p = new Float64Array(n * C);
      for (let r = 0; r < n; r++) {
        // Scores on a coarse grid, so ties are common.
        const w = Array.from({ length: C }, () => 1 + rng.int(4));
        const s = w.reduce((a, b) => a + b, 0);
        for (let c = 0; c < C; c++) p[r * C + c] = w[c] / s;
      }
      const counts = Array.from({ length: C }, (_, k) => y.filter((v) => v === k).length);
      let sum = 0;
      let pairs = 0;
      for (let i = 0; i < C; i++) {
        for (let j = i + 1; j < C; j++) {
          if (counts[i] === 0 || counts[j] === 0) continue;
          sum += (pairwise(p, y, C, i, i, j) + pairwise(p, y, C, j, j, i)) / 2;
          pairs++;
        }
      }
      expect(aucHandTill(p, y, C), `trial ${trial}`).toBe(pairs === 0 ? NaN : sum / pairs);
      let ovr = 0;
      let weight = 0;
      for (let c = 0; c < C; c++) {
        if (counts[c] === 0 || counts[c] === n) continue;
        ovr += counts[c] * pairwise(p, y, C, c, c, -1);
        weight += counts[c];
      }
      expect(aucOneVsRestWeighted(p, y, C), `trial ${trial}`).toBe(weight === 0 ? NaN : ovr / weight);
    }
  });
});
