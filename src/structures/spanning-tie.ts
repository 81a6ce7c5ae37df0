/**
 * The `tie` parameter shared by the spanning-tree learners (tan, cl-ode): which of the tie rules of
 * bn/mst.ts orders equal-weight edges in Kruskal. Its own module so that tan and cl-ode (which import each
 * other's helpers) both read it at registration without an import cycle.
 */
import { TIE_RULES, type TieRule } from '../bn/mst.js';
import { UserError } from '../util/errors.js';
import { paramDecls } from '../registry.js';

/** The tie rules for docs/methods.md (tan and cl-ode). */
export const TIE_NOTES =
  'Ties: Kruskal takes edges by weight, largest first; weights equal within 1e-12 (relative) are tied. ' +
  '`tie: first` (default) takes tied edges in increasing (i, j) column order. `tie: bnclassify` reproduces ' +
  "bnclassify 0.4.8's tree: the weights are computed as bnclassify computes them, I = H(X,C) + H(Y,C) − " +
  "H(X,Y,C) − H(C) with the entropy package's ML entropies, R's long-double sum() and glibc's log, to the " +
  'last bit (bn/bnclassify-cmi.ts), so that weights equal or 0 in exact arithmetic (a column constant in a ' +
  'training fold) carry the same ±1e-16 noise; the negative ones are dropped (the result may then be a forest), ' +
  'ties are exact, and the edges (i < j, in (i, j) order) are pushed one by one into a libstdc++ binary heap on ' +
  "the negated weight and popped in that heap's order, as Boost's Kruskal does (bn/mst.ts). On 35 UCI datasets × " +
  "10 folds it gives bnclassify's arcs on all 350 folds (bench/bnclassify.ts). With no ties both rules give the " +
  'same tree; with ties the trees have equal weight but may differ in arcs and hence in posteriors.';

/**
 * The `tie` parameter of the spanning-tree learners (tan, cl-ode), spread into their declarations. Its default
 * stays out of job keys (`inKey: false`): it was added after results existed, and `first` is what they used.
 */
export const TIE_PARAM = paramDecls({
  tie: {
    enum: TIE_RULES,
    default: 'first',
    inKey: false,
    description:
      "Order among equal-weight edges: first (default; increasing column pair) or bnclassify (bnclassify's Boost Kruskal heap order)",
  },
});

export function checkTie(id: string, tie: unknown): TieRule {
  if (!TIE_RULES.includes(tie as TieRule))
    throw new UserError(`${id}: tie must be ${TIE_RULES.join(' or ')}, got '${String(tie)}'`);
  return tie as TieRule;
}
