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
  '`tie: first` (default) takes tied edges in increasing (i, j) column order. `tie: bnclassify` takes them in ' +
  "the order bnclassify 0.4.8's Boost Kruskal pops them: the edges (i < j, in (i, j) order, negative weights " +
  'dropped) are pushed one by one into a libstdc++ binary heap on the negated weight, whose pop order among ' +
  'equal keys this reproduces (bn/mst.ts). With no ties both rules give the same tree; with ties the trees ' +
  'have equal weight but may differ in arcs and hence in posteriors. Given the same weights, `tie: bnclassify` ' +
  "returns bnclassify's tree; but bnclassify computes I as H(X,C) + H(Y,C) − H(X,Y,C) − H(C) in floating point, " +
  'so weights that are equal or 0 in exact arithmetic (a column constant in a training fold) come out there as ' +
  '0 or ±2e-16, the negative ones are dropped and the rest ordered by that noise: bnclab computes them exactly ' +
  "and cannot follow bnclassify's tree in those cases.";

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
