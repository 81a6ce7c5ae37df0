/** Metrics of the posterior probabilities themselves: squared and logarithmic scores. */
import { brierScore } from './classification.js';
import { logLoss as logLossOf, rmse as rmseOf } from './index.js';
import { defineMetric } from './registry.js';

export const rmse = defineMetric({
  id: 'rmse',
  title: 'RMSE',
  description:
    'sqrt(Σ_rows Σ_classes (p_c − [c = true])² / (N · C)): the root mean squared error averaged over the classes, as the Monash BNC papers and Weka report it.',
  column: 'DOUBLE',
  firstSchema: true,
  direction: 'lower',
  digits: 4,
  weka: { name: 'Root_mean_squared_error', scale: 1 },
  compute: (s) => rmseOf(s.posteriors, s.truth, s.classCard),
});

export const logLoss = defineMetric({
  id: 'log_loss',
  title: 'Log loss',
  description: '−(1/N) Σ ln p_true, natural logarithm, p_true clamped to [1e-15, 1] (as sklearn `log_loss`).',
  column: 'DOUBLE',
  firstSchema: true,
  direction: 'lower',
  digits: 4,
  name: 'log loss',
  compute: (s) => logLossOf(s.posteriors, s.truth, s.classCard),
});

export const brier = defineMetric({
  id: 'brier',
  title: 'Brier score',
  description:
    '(1/N) Σ_rows Σ_classes (p_c − [c = true])², from 0 to 2 (Brier 1950); C · RMSE². With two classes it is twice sklearn `brier_score_loss`, which scores the positive class only.',
  column: 'DOUBLE',
  direction: 'lower',
  digits: 4,
  aliases: ['Brier score'],
  compute: (s) => brierScore(s.posteriors, s.truth, s.classCard),
});
