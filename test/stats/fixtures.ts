/**
 * Published data sets used as golden inputs for the statistics tests.
 */

/**
 * García, Fernández, Luengo & Herrera (2010), Information Sciences 180:2044-2064 — accuracy of
 * PDFC, NNEP, IS-CHC+1NN, FH-GBML on 24 datasets (shipped with scmamp as `data.gh.2010`; three decimals as
 * printed in the paper). Rows: datasets; columns: methods.
 */
export const GH2010_METHODS = ['PDFC', 'NNEP', 'IS-CHC+1NN', 'FH-GBML'] as const;
export const GH2010: number[][] = [
  [0.752, 0.773, 0.785, 0.795],
  [0.727, 0.748, 0.724, 0.713],
  [0.736, 0.716, 0.585, 0.638],
  [0.994, 0.861, 0.88, 0.791],
  [0.508, 0.553, 0.575, 0.515],
  [0.535, 0.536, 0.513, 0.471],
  [0.967, 0.871, 0.954, 0.532],
  [0.831, 0.807, 0.819, 0.768],
  [0.745, 0.702, 0.719, 0.705],
  [0.709, 0.572, 0.669, 0.607],
  [0.722, 0.728, 0.725, 0.732],
  [0.967, 0.947, 0.953, 0.96],
  [0.832, 0.752, 0.802, 0.691],
  [0.998, 0.992, 0.482, 0.91],
  [0.963, 0.963, 0.954, 0.926],
  [0.982, 0.953, 0.932, 0.63],
  [0.978, 0.773, 0.834, 0.849],
  [0.854, 0.787, 0.841, 0.779],
  [0.965, 0.984, 0.995, 0.947],
  [0.924, 0.887, 0.861, 0.804],
  [0.929, 0.942, 0.931, 0.921],
  [0.837, 0.643, 0.602, 0.554],
  [0.972, 0.956, 0.944, 0.922],
  [0.958, 0.959, 0.964, 0.964],
];

/**
 * García & Herrera (2008), JMLR 9:2677-2694 — mean Friedman ranks of C4.5, 1-NN, NaiveBayes, Kernel, CN2
 * over N = 30 datasets (`colMeans(rankMatrix(data.gh.2008))` in scmamp). The rank sums are
 * 63, 97.5, 66, 130, 93.5, so the means are exact in these fractions. The raw accuracy table is not
 * reproduced here; only rank-based procedures are tested on it.
 */
export const GH2008_METHODS = ['C4.5', 'k-NN', 'NaiveBayes', 'Kernel', 'CN2'] as const;
export const GH2008_MEAN_RANKS = [63 / 30, 97.5 / 30, 66 / 30, 130 / 30, 93.5 / 30];
export const GH2008_N = 30;

/** Demšar (2006), JMLR 7:1-30, Table 2: AUC of C4.5 and C4.5+m on 14 datasets. */
export const DEMSAR_C45 = [
  0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775, 1.0, 0.94, 0.619, 0.972, 0.957,
];
export const DEMSAR_C45M = [
  0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1.0, 0.962, 0.666, 0.981, 0.978,
];

/** Bortz, Lienert & Boehnke example discussed on r-help (2006-08): paired scores with zeros and ties. */
export const BORTZ_X1 = [9, 14, 8, 11, 14, 10, 8, 14, 12, 14, 13, 9, 15, 12, 9];
export const BORTZ_X2 = [13, 15, 9, 12, 16, 10, 8, 13, 12, 16, 9, 10, 16, 12, 9];

/** x_i = (i %% 3 == 0 ? -1 : 1) * 1.01 * i, i = 1..n (the R exact/asymptotic n = 50 boundary case). */
export function boundarySeries(n: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= n; i++) out.push((i % 3 === 0 ? -1 : 1) * 1.01 * i);
  return out;
}
