/** Importing this module registers the K-best structure averaging learners. */
export * from './kb.js';
