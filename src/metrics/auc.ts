/** Ranking metrics: both multi-class AUCs, from one pass over the posteriors sorted per class. */
import { aucs } from './classification.js';
import { defineMetric, type Scoring } from './registry.js';

const twoClasses = {
  when: (s: Scoring) => s.classesPresent >= 2,
  otherwise: 'the test rows hold fewer than two classes',
};

export const auc = defineMetric({
  id: 'auc',
  title: 'AUC (Hand & Till)',
  description:
    'Hand & Till (2001) M: the mean over class pairs of (A(i|j) + A(j|i)) / 2, ties counting ½ (sklearn `roc_auc_score(multi_class="ovo")`); with two classes the usual AUC. A class pair without test rows on one side is left out.',
  column: 'DOUBLE',
  direction: 'higher',
  digits: 4,
  aliases: ['AUC (Hand & Till)'],
  weka: { name: 'Area_under_ROC', scale: 1 },
  applies: twoClasses,
  compute: (s) => s.shared(aucs).handTill,
});

export const aucOvr = defineMetric({
  id: 'auc_ovr',
  title: 'AUC (one-vs-rest, weighted)',
  description:
    'The AUC of each class against the rest, averaged weighted by class prevalence (Provost & Domingos 2000; sklearn `roc_auc_score(multi_class="ovr", average="weighted")`).',
  column: 'DOUBLE',
  direction: 'higher',
  digits: 4,
  applies: twoClasses,
  compute: (s) => s.shared(aucs).ovr,
});
