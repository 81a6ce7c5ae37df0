/**
 * `bnclab/contract`: the contract checks for a structure learner or an estimator written outside this
 * repository (docs/extending.md, "The check: the contract suite"). Importing it registers bnclab's own
 * learners and estimators, so a new learner can be checked against every estimator that applies to it.
 * No test framework is needed: each function returns the failures, an empty list when all pass.
 */
import '../methods.js';
import { getEstimator, listEstimators, listStructures, type StructureTrait } from '../registry.js';
import {
  type CheckedEstimator,
  type CheckedStructureLearner,
  type ContractFailure,
  type ContractOptions,
  checkPair,
} from './checks.js';

export {
  CONTRACT_CHECKS,
  type CheckedEstimator,
  type CheckedStructureLearner,
  type ContractCheckId,
  type ContractFailure,
  type ContractOptions,
  INVARIANCE_TOLERANCE,
  synthetic,
} from './checks.js';

/** A failure of one pair, named by the pair. */
export interface PairFailure extends ContractFailure {
  readonly structure: string;
  readonly estimator: string;
}

/**
 * The contract checks of one structure learner × estimator: the estimator as an object or a registered id
 * (`'dirichlet'`, `'mle'`, …). The failures, none when the pair passes.
 */
export function checkLearner(
  structure: CheckedStructureLearner,
  estimator: CheckedEstimator | string,
  options: ContractOptions = {},
): ContractFailure[] {
  const e = typeof estimator === 'string' ? getEstimator(estimator) : estimator;
  if (!e) throw new Error(`checkLearner: no registered estimator '${String(estimator)}'`);
  return checkPair(structure, e, options);
}

/** Whether an estimator can fit structures with these traits (its `requires` and `rejects`). */
function accepts(e: CheckedEstimator, traits: readonly StructureTrait[]): boolean {
  return (e.requires ?? []).every((t) => traits.includes(t)) && !(e.rejects ?? []).some((t) => traits.includes(t));
}

/** A structure learner against every registered estimator that applies to its traits. */
export function checkStructureLearner(
  structure: CheckedStructureLearner,
  options: Pick<ContractOptions, 'structureParams'> = {},
): PairFailure[] {
  return listEstimators()
    .filter((e) => accepts(e, structure.traits ?? []))
    .flatMap((e) =>
      checkPair(structure, e, options).map((f) => ({ ...f, structure: structure.id ?? 'structure', estimator: e.id })),
    );
}

/** An estimator against every registered structure learner whose structures it applies to. */
export function checkEstimator(
  estimator: CheckedEstimator,
  options: Pick<ContractOptions, 'estimatorParams'> = {},
): PairFailure[] {
  return listStructures()
    .filter((s) => accepts(estimator, s.traits ?? []))
    .flatMap((s) =>
      checkPair(s, estimator, options).map((f) => ({ ...f, structure: s.id, estimator: estimator.id ?? 'estimator' })),
    );
}
