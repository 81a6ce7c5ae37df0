/** Importing this module registers the exact learners, the K-best model averaging and the ensembles built on them. */
export * from './ebn.js';
export * from './eanb.js';
export * from '../kbest/kb.js';
export * from '../ensembles/subbkb.js';
export * from '../ensembles/bagging.js';
export * from '../ensembles/adaboost.js';
export * from '../ensembles/ban-mix.js';
export * from '../acll-tan.js';
export * from '../ensembles/brai.js';
