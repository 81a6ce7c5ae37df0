
export * from './decision-tree.js';
export * from './random-forest.js';
