/** Importing this module registers every structure learner and estimator (each file registers itself). */
import './structures/index.js';
import './estimators/index.js';
import './baselines/index.js';
