/** Metrics of the predicted class (the argmax of the posterior, the lowest class index on ties). */
import { accuracy as accuracyOf } from './index.js';
import { defineMetric } from './registry.js';

export const accuracy = defineMetric({
  id: 'accuracy',
  title: 'Accuracy',
  description: 'The share of test rows whose predicted class (argmax, lowest index on ties) is the true one.',
  column: 'DOUBLE',
  firstSchema: true,
  direction: 'higher',
  digits: 4,
  aliases: ['acc'],
  weka: { name: 'Percent_correct', scale: 100 },
  compute: (s) => s.shared(accuracyOf),
});

export const zeroOneLoss = defineMetric({
  id: 'zero_one_loss',
  title: '0-1 loss',
  description: 'The error rate, 1 − accuracy.',
  column: 'DOUBLE',
  firstSchema: true,
  direction: 'lower',
  digits: 4,
  name: '0-1 loss',
  aliases: ['error', 'error rate'],
  weka: { name: 'Percent_incorrect', scale: 100 },
  compute: (s) => 1 - s.shared(accuracyOf),
});
