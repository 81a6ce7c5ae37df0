/** Metrics of the confusion matrix (true class × predicted class, predicted = argmax as accuracy). */
import {
  balancedAccuracy as balancedAccuracyOf,
  confusionMatrix,
  confusionRows,
  macroF1 as macroF1Of,
} from './classification.js';
import { defineMetric } from './registry.js';

export const balancedAccuracy = defineMetric({
  id: 'balanced_accuracy',
  title: 'Balanced accuracy',
  description: 'The mean recall over the classes present in the test rows (sklearn `balanced_accuracy_score`).',
  column: 'DOUBLE',
  direction: 'higher',
  digits: 4,
  name: 'balanced accuracy',
  compute: (s) => balancedAccuracyOf(s.shared(confusionMatrix), s.classCard),
});

export const macroF1 = defineMetric({
  id: 'macro_f1',
  title: 'Macro F1',
  description:
    'The mean of 2TP / (2TP + FP + FN) over the classes true or predicted in the test rows (sklearn `f1_score(average="macro")`; a class never predicted has F1 0).',
  column: 'DOUBLE',
  direction: 'higher',
  digits: 4,
  name: 'macro F1',
  compute: (s) => macroF1Of(s.shared(confusionMatrix), s.classCard),
});

export const confusion = defineMetric({
  id: 'confusion',
  title: 'Confusion matrix',
  description:
    'counts[true][predicted], classes in the order of the job’s `class_labels`; stored with each job, shown by `bnclab ui`, not compared.',
  column: 'INTEGER[][]',
  compute: (s) => confusionRows(s.shared(confusionMatrix), s.classCard),
});
