/**
 * Paired fold scores for the per-dataset tests. W2_A/W2_B: 10 folds; Weka 3.6.14's PairedStatsCorrected
 * gives p = 0.001684995278458656 with ratio 1/9 (A larger). FIVE_BY_TWO_A/B: 5 repeats × 2 folds; numpy/scipy
 * from Dietterich's and Alpaydin's formulas give t = 0.6720460402294592 (p 0.5313521528247362) and
 * F = 2.3814250664485717 (p 0.17522030709078593).
 */
export const W2_A = [0.8449, 0.8455, 0.8314, 0.8722, 0.8707, 0.8579, 0.8167, 0.8601, 0.8162, 0.8322];
export const W2_B = [0.835, 0.8273, 0.8143, 0.8615, 0.8582, 0.8447, 0.8102, 0.8501, 0.7837, 0.8125];
export const FIVE_BY_TWO_A = [
  [0.7755, 0.8076],
  [0.8199, 0.7897],
  [0.7734, 0.7987],
  [0.8096, 0.822],
  [0.7757, 0.7741],
];
export const FIVE_BY_TWO_B = [
  [0.7661, 0.7947],
  [0.8229, 0.7844],
  [0.7519, 0.7746],
  [0.8282, 0.7977],
  [0.7439, 0.737],
];
