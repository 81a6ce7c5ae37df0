/** Importing this module registers the exact structure learners (Silander–Myllymäki DP over all DAGs). */
export * from './ebn.js';
export * from './eanb.js';
