/** Importing this module registers every parameter estimator. */
export * from './mle.js';
export * from './dirichlet.js';
export * from './eap.js';
