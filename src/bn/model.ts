import type { DiscreteData } from './data.js';

/** A fitted classifier: class posteriors for every row of data, row-major n × classCard, rows summing to 1. */
export interface Model {
  posterior(data: DiscreteData): Float64Array;
  /**
   * The model learns when it first sees the test rows (an external program is given the training and the
   * test file in one call): the job's whole learning-and-predicting time is then its training time.
   */
  readonly learnsAtPrediction?: boolean;
}
