/** Importing this module registers the ensembles of structures (bagging, boosting, subsampling, mixtures). */
export * from './subbkb.js';
export * from './bagging.js';
export * from './adaboost.js';
export * from './ban-mix.js';
export * from './brai.js';
