/** Importing this module registers every baseline classifier (each file registers itself). */
export * from './decision-tree.js';
export * from './random-forest.js';
export * from './external.js';
