/** Importing this module registers every parameter estimator. */
export * from './mle.js';
export * from './dirichlet.js';
export * from './eap.js';
export * from './hdp/index.js';
export * from './manb.js';
export * from './wanbia.js';
export * from './awnb.js';
export * from './m-estimate.js';
