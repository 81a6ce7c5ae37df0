/** Importing this module registers every structure learner. */
export * from './nb.js';
export * from './tan.js';
