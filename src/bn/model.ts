import type { DiscreteData } from './data.js';

/** A fitted classifier: class posteriors for every row of data, row-major n × classCard, rows summing to 1. */
export interface Model {
  posterior(data: DiscreteData): Float64Array;
}
