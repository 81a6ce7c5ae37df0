/**
 * `select:` on a method: choose parameters by inner cross-validation on each outer training fold, then learn
 * on the whole training fold with the chosen values (as Sugahara et al. 2022, Table 9, choose SubbKB's ESS
 * α from {1, 4, …, 1024} by 10-fold CV). The grid is the product of the listed parameters; a key joining
 * several parameters with `+` (`structure.ess+estimator.alpha`) gives them the same value. The inner folds
 * are stratified and seeded from the job's own seed, so the choice is reproducible; they reuse the outer
 * fold's preprocessing (its cut points were fitted on the whole training fold, which the inner test rows
 * belong to: the usual nested CV of a fixed discretization). The best mean metric wins; ties go to the
 * first candidate in the grid's order, which the spec controls. The choice and every candidate's score go
 * to the job's structure info (`select.<target>`, `selection`).
 */
import { selectRows, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { stratifiedKFold } from '../folds/split.js';
import { computeMetrics } from '../metrics/index.js';
import type { Model, Params } from '../registry.js';
import { applyCandidate as apply, candidates, type SelectSpec } from '../spec/select.js';
import { UserError } from '../util/errors.js';
import type { StreamSource } from '../util/rng.js';

interface Learned {
  readonly model: Model;
  readonly structure: Structure;
}

type Fit = (train: DiscreteData, structureParams: Params, estimatorParams: Params) => Learned;

/**
 * Inner CV over the grid on train, then the final fit with the winner. `fit` learns structure and estimator
 * with the job's own random streams (the caller's), so the final model is the one the chosen parameters
 * give without `select:`.
 */
export function selectAndFit(
  train: DiscreteData,
  select: SelectSpec,
  structureParams: Params,
  estimatorParams: Params,
  rng: StreamSource,
  fit: Fit,
  signal?: AbortSignal,
): Learned {
  if (train.n < select.folds) {
    throw new UserError(
      `select: ${select.folds}-fold inner cross-validation needs at least ${select.folds} training rows, the fold has ${train.n}`,
    );
  }
  const grid = candidates(select);
  const assignment = stratifiedKFold(train.classColumn, train.classCard, select.folds, rng.derive('select/folds'));
  const parts = Array.from({ length: select.folds }, (_, f) => {
    const trainIdx: number[] = [];
    const testIdx: number[] = [];
    for (let r = 0; r < train.n; r++) (assignment[r] === f ? testIdx : trainIdx).push(r);
    return { inner: selectRows(train, trainIdx), held: selectRows(train, testIdx) };
  });
  const scores = grid.map((c) => {
    let sum = 0;
    for (const { inner, held } of parts) {
      signal?.throwIfAborted();
      if (held.n === 0) continue;
      const { model } = fit(inner, apply(c, 'structure', structureParams), apply(c, 'estimator', estimatorParams));
      const m = computeMetrics(model.posterior(held), held.classColumn, held.classCard);
      sum += (select.metric === 'accuracy' ? m.accuracy : -m.logLoss) * held.n;
    }
    return sum / train.n;
  });
  let best = 0;
  for (let i = 1; i < grid.length; i++) if (scores[i] > scores[best]) best = i;
  const chosen = grid[best];
  const learned = fit(train, apply(chosen, 'structure', structureParams), apply(chosen, 'estimator', estimatorParams));
  // Structure info holds scalars: one `select.<target>` entry per chosen value (averaged over folds by the
  // report's diagnostics), and the whole grid with its inner-CV scores as a JSON string.
  const selection = grid.map((c, i) => ({
    ...c,
    [select.metric]: select.metric === 'accuracy' ? scores[i] : -scores[i],
  }));
  const info: Record<string, number | string | boolean> = {
    ...(learned.structure.info ?? {}),
    selection: JSON.stringify(selection),
  };
  for (const [target, v] of Object.entries(chosen))
    info[`select.${target}`] = typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
  return { model: learned.model, structure: { ...learned.structure, info } };
}
