/**
 * AODE, averaged one-dependence estimators (Webb, Boughton & Wang 2005):
 *   P(y, x) ∝ Σ_{i: F(x_i) ≥ m} P(y, x_i) Π_{j≠i} P(x_j | y, x_i),
 * one SPODE per super-parent X_i, equal weights. F(x_i) is the number of training rows in which X_i takes
 * the test row's value x_i and m is the frequency limit (`frequencyLimit`, default 1 as Weka's -F 1; the
 * paper used 30). A super-parent whose value is missing in the test row does not qualify. A row for which
 * no super-parent qualifies is classified by naive Bayes, as in the paper.
 *
 * Representation: Structure.members, one SPODE each (class → every attribute, X_i → every other attribute;
 * parent order class first, then X_i), with combine 'joint' (the JOINTS P_i(y, x_obs) are averaged, not the
 * posteriors), a gate per member listing the values of X_i with F ≥ m in the training data, and naive Bayes
 * as the fallback structure. The estimator fits every member's CPTs: with Dirichlet α = 1 the SPODE factor
 * is P(y) P(x_i | y) rather than the paper's directly smoothed joint (F(y, x_i) + 1)/(N + k v_i); the
 * conditional tables are the same (F(y, x_i, x_j) + 1)/(F(y, x_i) + v_j).
 * With one attribute the only SPODE is naive Bayes. With missing values F counts the rows where X_i is observed.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount } from '../bn/data.js';
import { valueCounts } from '../bn/counts.js';
import { naiveBayesStructure, type Structure, type StructureMember } from '../bn/structure.js';
import { UserError } from '../util/errors.js';

/** The SPODE with super-parent sp over m attributes. */
export function spodeStructure(m: number, sp: number): Structure {
  const parents: number[][] = [];
  for (let a = 0; a < m; a++) parents.push(a === sp ? [m] : [m, sp]);
  parents.push([]);
  return { m, parents };
}

/** Quadratic in the number of attributes (m SPODEs of m families each). */
const AODE_MAX_ATTRIBUTES = 500;

export const aode = registerStructure({
  id: 'aode',
  revision: 1,
  title: 'Averaged one-dependence estimators (AODE)',
  citation:
    'Webb, Boughton & Wang (2005), Not so naive Bayes: aggregating one-dependence estimators, Machine Learning 58:5–24',
  notes:
    'Frequency limit: `frequencyLimit` defaults to 1, as Weka (a super-parent value must occur in at least one ' +
    "training row); bnclassify's aode has no frequency limit, so set `frequencyLimit: 0` to reproduce it (with " +
    'that setting nb, aode and manb agree with bnclassify 0.4.8 to 2e-14 in every posterior on identical data and folds).',
  params: defineParams({
    frequencyLimit: {
      type: 'integer',
      minimum: 0,
      default: 1,
      description: 'A super-parent qualifies for a row when its value there occurs in at least this many training rows',
    },
  }),
  maxAttributes: AODE_MAX_ATTRIBUTES,
  learn(train, params) {
    const limit = params.frequencyLimit;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new UserError(`aode: frequencyLimit must be an integer >= 0, got ${String(limit)}`);
    }
    const m = attributeCount(train);
    const nb = naiveBayesStructure(m);
    if (m === 0) return { ...nb, info: { members: 0, frequencyLimit: limit } };
    const members: StructureMember[] = [];
    let gatedValues = 0;
    for (let i = 0; i < m; i++) {
      const card = train.cards[i];
      const freq = valueCounts(train, i);
      const values: number[] = [];
      for (let v = 0; v < card; v++) if (freq[v] >= limit) values.push(v);
      gatedValues += card - values.length;
      // A super-parent with no frequent value never qualifies; it would only cost a fit.
      if (values.length > 0)
        members.push({ weight: 1, structure: spodeStructure(m, i), gate: { attribute: i, values } });
    }
    const info = { members: members.length, frequencyLimit: limit, infrequentValues: gatedValues };
    // No super-parent value is frequent enough: every row falls back to naive Bayes.
    if (members.length === 0) return { ...nb, info };
    return { m, parents: nb.parents, members, combine: 'joint', fallback: nb, info };
  },
});
