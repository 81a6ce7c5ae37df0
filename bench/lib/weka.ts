/**
 * Weka 3.6 command lines for the methods with a Weka counterpart. BayesNet gets Laplace estimates (-A 1;
 * SimpleEstimator's default is 0.5) and no ADTree (-D, BayesNet's default). TAN with the ENTROPY
 * (log-likelihood) score adds parent X_j to X_i by N·I(X_i; X_j | C), Friedman et al.'s Chow–Liu weight.
 * HillClimber as our hill-climb defaults: empty start (-N), add/delete/reverse (-R), MDL = BIC (-S MDL),
 * at most 3 parents counting the class (-P 3). AODE and RandomForest at their defaults (-F 1; -I 100 -K 0).
 */
export const WEKA: Record<string, string[]> = {
  nb: ['weka.classifiers.bayes.NaiveBayes'],
  aode: ['weka.classifiers.bayes.AODE', '-F', '1'],
  tan: [
    'weka.classifiers.bayes.BayesNet',
    '-D',
    '-Q',
    'weka.classifiers.bayes.net.search.local.TAN',
    '--',
    '-S',
    'ENTROPY',
    '-E',
    'weka.classifiers.bayes.net.estimate.SimpleEstimator',
    '--',
    '-A',
    '1',
  ],
  'hill-climb': [
    'weka.classifiers.bayes.BayesNet',
    '-D',
    '-Q',
    'weka.classifiers.bayes.net.search.local.HillClimber',
    '--',
    '-P',
    '3',
    '-N',
    '-R',
    '-S',
    'MDL',
    '-E',
    'weka.classifiers.bayes.net.estimate.SimpleEstimator',
    '--',
    '-A',
    '1',
  ],
  'random-forest': ['weka.classifiers.trees.RandomForest', '-I', '100', '-K', '0', '-S', '1'],
};
