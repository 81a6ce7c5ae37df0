/**
 * k-dependence Bayesian classifier (Sahami 1996), as the Monash group implements it for kDB-HDP
 * (Petitjean et al. 2018; Petal `kdb.cpp`, Martínez et al. 2016):
 *  1. order the attributes by decreasing I(Xi; C);
 *  2. the attribute at position u takes as parents the min(u, k) attributes among positions < u with the
 *     largest I(Xu; Xj | C), listed in decreasing CMI order; every attribute also has the class as a parent.
 * Sahami's optional CMI threshold is not used (neither does the group's code).
 * Parent order: the class first, then the attribute parents in decreasing CMI (what HDP and the m-estimate
 * back-off branch on).
 * Measures: empirical, in nats, available case (bn/information.ts); the order does not depend on the base.
 * Ties (deterministic): values within a relative 1e-12 of each other (bn/mst.ts WEIGHT_TIE_TOLERANCE) count
 * as equal; equal MI goes to the lower attribute index, equal CMI to the parent earlier in the MI order
 * (Petal's rule). The group's code sorts float32 values with an unstable sort, so its ties are arbitrary.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { mutualInformation, pairwiseCmi } from '../bn/information.js';
import { WEIGHT_TIE_TOLERANCE } from '../bn/mst.js';
import { UserError } from '../util/errors.js';

/**
 * Items sorted by decreasing value; values within WEIGHT_TIE_TOLERANCE (relative, anchored at the largest
 * value of each run, as in bn/mst.ts) are tied and kept in the order of `items`.
 */
export function rankDescending(items: readonly number[], value: (item: number) => number): number[] {
  const pos = new Map(items.map((it, x) => [it, x] as const));
  const out = [...items].sort((a, b) => value(b) - value(a) || pos.get(a)! - pos.get(b)!);
  for (let s = 0; s < out.length; ) {
    const lead = value(out[s]);
    let t = s + 1;
    while (t < out.length) {
      const w = value(out[t]);
      if (Math.abs(lead - w) > WEIGHT_TIE_TOLERANCE * Math.max(1, Math.abs(lead), Math.abs(w))) break;
      t++;
    }
    if (t - s > 1) {
      const run = out.slice(s, t).sort((a, b) => pos.get(a)! - pos.get(b)!);
      for (let x = s; x < t; x++) out[x] = run[x - s];
    }
    s = t;
  }
  return out;
}

/** Attributes in decreasing I(X; C) order (ties to the lower index). */
export function miOrder(data: DiscreteData): number[] {
  const m = attributeCount(data);
  const mi = Array.from({ length: m }, (_, a) => mutualInformation(data, a));
  return rankDescending(
    Array.from({ length: m }, (_, a) => a),
    (a) => mi[a],
  );
}

/** a > b by more than the tie tolerance (relative, as in bn/mst.ts). */
function clearlyGreater(a: number, b: number): boolean {
  return a - b > WEIGHT_TIE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Attribute parents of every attribute for kDB with k parents: parentsOf[a] lists up to k attributes in
 * decreasing CMI order (no class). `cmi` is m × m row-major (pairwiseCmi). Petal's insertion: candidates
 * come in MI order and a candidate moves ahead of a chosen parent only with a clearly larger CMI, so ties
 * stay with the attribute earlier in the MI order. O(m·k) per attribute.
 */
export function kdbAttributeParents(order: readonly number[], cmi: Float64Array, m: number, k: number): number[][] {
  const parentsOf: number[][] = Array.from({ length: m }, () => []);
  for (let u = 1; u < order.length; u++) {
    const a = order[u];
    const row = a * m;
    const chosen: number[] = [];
    for (let t = 0; t < u; t++) {
      const j = order[t];
      const w = cmi[row + j];
      let at = chosen.length;
      while (at > 0 && clearlyGreater(w, cmi[row + chosen[at - 1]])) at--;
      if (at >= k) continue;
      chosen.splice(at, 0, j);
      if (chosen.length > k) chosen.pop();
    }
    parentsOf[a] = chosen;
  }
  return parentsOf;
}

/** kDB structure (class first in every attribute's parent list) from the attribute parents. */
function kdbStructure(m: number, parentsOf: readonly (readonly number[])[]): Structure {
  const parents: number[][] = [];
  for (let a = 0; a < m; a++) parents.push([m, ...parentsOf[a]]);
  parents.push([]);
  return { m, parents };
}

export function kdbIntParam(id: string, name: string, k: unknown, min: number, max: number): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < min || k > max) {
    throw new UserError(`${id}: ${name} must be an integer from ${min} to ${max}, got ${String(k)}`);
  }
  return k;
}

export const kdb = registerStructure({
  id: 'kdb',
  revision: 1,
  title: 'k-dependence Bayesian classifier (attributes ordered by MI, parents by CMI)',
  citation:
    'Sahami (1996), Learning limited dependence Bayesian classifiers, KDD-96, 335–338; ordering and ties as in ' +
    'Martínez, Webb, Chen & Zaidi (2016), Scalable learning of Bayesian network classifiers, JMLR 17(44)',
  params: defineParams({
    k: {
      type: 'integer',
      minimum: 1,
      maximum: 5,
      default: 1,
      description: 'Maximum number of attribute parents per attribute',
    },
  }),
  learn(train, params, ctx) {
    const k = kdbIntParam('kdb', 'k', params.k, 1, 5);
    const m = attributeCount(train);
    if (m === 0) return { m, parents: [[]], info: { k, arcs: 0, first: '' } };
    const order = miOrder(train);
    const { cmi } = pairwiseCmi(train, ctx.signal);
    const parentsOf = kdbAttributeParents(order, cmi, m, k);
    const s = kdbStructure(m, parentsOf);
    let arcs = 0;
    for (const ps of parentsOf) arcs += ps.length;
    return { ...s, info: { k, arcs, first: train.names[order[0]] ?? '' } };
  },
});
