/**
 * The contract checks every structure learner × estimator must pass, as plain functions that return what
 * failed (no test framework): test/contract/ runs them for every registered pair, and a learner written
 * outside src/ runs them through `checkLearner` (src/contract/index.ts, `bnclab/contract`; docs/extending.md).
 *
 * Each check fits the pair on small synthetic data and returns one line per failure, an empty list when the
 * pair passes: a valid DAG and finite posteriors summing to 1; the same numbers under the same seed; test
 * values never seen in training; a single-class training set; a single attribute; missing values (an
 * all-missing row included); and the two invariance checks after mlr3's autotest (columns reordered, classes
 * relabelled), each skipped for a method that declares that `orderDependence`.
 */
import { isDeepStrictEqual } from 'node:util';
import { type DiscreteData, MISSING } from '../bn/data.js';
import { assertDag, type Structure } from '../bn/structure.js';
import type { Estimator, Params, StructureLearner } from '../registry.js';
import { Rng } from '../util/rng.js';

/** What the checks use of a structure learner: `learn`, and its defaults and declarations when it has them. */
export type CheckedStructureLearner = Pick<StructureLearner, 'learn'> &
  Partial<Pick<StructureLearner, 'id' | 'defaults' | 'presets' | 'orderDependence' | 'traits'>>;
/** What the checks use of an estimator: `fit`, and its defaults and declarations when it has them. */
export type CheckedEstimator = Pick<Estimator, 'fit'> &
  Partial<Pick<Estimator, 'id' | 'defaults' | 'presets' | 'orderDependence' | 'requires' | 'rejects'>>;

/** Parameters for the pair (over each method's defaults, as a spec's would be). */
export interface ContractOptions {
  readonly structureParams?: Params;
  readonly estimatorParams?: Params;
}

export type ContractCheckId =
  | 'valid'
  | 'deterministic'
  | 'unseen-values'
  | 'single-class'
  | 'single-attribute'
  | 'missing-values'
  | 'columns-reordered'
  | 'classes-relabelled';

export interface ContractFailure {
  readonly check: ContractCheckId;
  readonly message: string;
}

/** Posteriors may differ by this much under a reordering of the columns or a relabelling of the classes. */
export const INVARIANCE_TOLERANCE = 1e-9;
/** At most this many failures are listed per check (the rest are counted). */
const MAX_LISTED = 5;

interface SyntheticOptions {
  n: number;
  cards: number[];
  classCard: number;
  /** Probability that an attribute takes its class-determined value. */
  signal?: number;
  /** Otherwise, probability that it copies the previous attribute (else uniform noise). */
  chain?: number;
  /** Probability that an attribute value is MISSING. */
  missing?: number;
  /** Only these class values occur (default: all). */
  classes?: number[];
  /** Attribute values at or above this code never occur (default: none). */
  maxCode?: number;
}

/**
 * Synthetic data: the class is uniform over `classes`; attribute a takes (c + a) mod card_a with probability
 * `signal` (class information), else copies x_{a-1} with probability `chain` (a dependency chain TAN
 * can find), else a uniform value.
 */
export function synthetic(seed: string, o: SyntheticOptions): DiscreteData {
  const rng = new Rng(seed);
  const m = o.cards.length;
  const classes = o.classes ?? Array.from({ length: o.classCard }, (_, c) => c);
  const columns = o.cards.map(() => new Int32Array(o.n));
  const classColumn = new Int32Array(o.n);
  for (let r = 0; r < o.n; r++) {
    const c = classes[rng.int(classes.length)];
    classColumn[r] = c;
    let prev = 0;
    for (let a = 0; a < m; a++) {
      const card = Math.min(o.cards[a], o.maxCode ?? Infinity);
      const u = rng.next();
      const sig = o.signal ?? 0.5;
      let v = u < sig ? (c + a) % card : u < sig + (1 - sig) * (o.chain ?? 0.5) ? prev % card : rng.int(card);
      prev = v;
      if (rng.next() < (o.missing ?? 0)) v = MISSING;
      columns[a][r] = v;
    }
  }
  return {
    n: o.n,
    names: o.cards.map((_, a) => `A${a}`),
    labels: o.cards.map((k) => Array.from({ length: k }, (_, v) => `v${v}`)),
    cards: Int32Array.from(o.cards),
    columns,
    className: 'class',
    classLabels: Array.from({ length: o.classCard }, (_, c) => `c${c}`),
    classCard: o.classCard,
    classColumn,
  };
}

/** A method's complete parameters: its defaults, its presets, then the given values (as the registry fills them). */
function paramsOf(m: CheckedStructureLearner | CheckedEstimator, params: Params | undefined): Params {
  return { ...m.defaults, ...m.presets?.(params ?? {}), ...(params ?? {}) };
}

/** Learn the structure and fit the estimator on `train` under `seed`; the structure and the test posteriors. */
function fitPair(
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  train: DiscreteData,
  test: DiscreteData,
  seed = 'contract',
  options: ContractOptions = {},
): { structure: Structure; posterior: Float64Array } {
  const rng = new Rng(seed);
  const structure = s.learn(train, paramsOf(s, options.structureParams), { rng: rng.derive('structure') });
  const model = e.fit(train, structure, paramsOf(e, options.estimatorParams), { rng: rng.derive('estimator') });
  return { structure, posterior: model.posterior(test) };
}

/** What is wrong with a structure over m attributes: not a DAG, the wrong size, or a negative member weight. */
function structureFailures(st: Structure, m: number, where = 'structure'): string[] {
  const out: string[] = [];
  if (st.m !== m) out.push(`${where} has m = ${st.m}, expected ${m}`);
  if (st.members && st.members.length > 0) {
    st.members.forEach((mem, k) => {
      if (!(mem.weight >= 0)) out.push(`${where}: member ${k} has weight ${mem.weight}, expected >= 0`);
      out.push(...structureFailures(mem.structure, m, `${where}, member ${k}`));
    });
  } else {
    try {
      assertDag(st);
    } catch (err) {
      out.push(`${where} is not a DAG: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

/** What is wrong with n × C posteriors: the wrong length, a value not finite or negative, a row not summing to 1. */
export function posteriorFailures(p: Float64Array, n: number, C: number): string[] {
  if (p.length !== n * C) return [`posteriors have ${p.length} values, expected ${n} rows × ${C} classes`];
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let c = 0; c < C; c++) {
      const v = p[r * C + c];
      if (!Number.isFinite(v) || !(v >= 0)) out.push(`row ${r}, class ${c}: posterior ${v}, expected finite and >= 0`);
      s += v;
    }
    if (!(Math.abs(s - 1) <= 1e-9)) out.push(`row ${r}: posteriors sum to ${s}, expected 1 (to 1e-9)`);
  }
  return out;
}

const CARDS = [3, 2, 4, 2, 3];

/** The structure's failures, then (only for a valid structure, which an estimator can fit) the posteriors'. */
function validFailures(
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  train: DiscreteData,
  test: DiscreteData,
  o: ContractOptions,
): string[] {
  const rng = new Rng('contract');
  const structure = s.learn(train, paramsOf(s, o.structureParams), { rng: rng.derive('structure') });
  const bad = structureFailures(structure, train.names.length);
  if (bad.length > 0) return bad;
  const model = e.fit(train, structure, paramsOf(e, o.estimatorParams), { rng: rng.derive('estimator') });
  return posteriorFailures(model.posterior(test), test.n, test.classCard);
}

/** The checks on one pair, in order; invariance last. */
export const CONTRACT_CHECKS: readonly {
  readonly id: ContractCheckId;
  readonly title: string;
  readonly run: (s: CheckedStructureLearner, e: CheckedEstimator, o: ContractOptions) => string[];
}[] = [
  {
    id: 'valid',
    title: 'gives a valid DAG and posteriors that are finite and sum to 1',
    run: (s, e, o) => {
      const train = synthetic('train', { n: 200, cards: CARDS, classCard: 3 });
      const test = synthetic('test', { n: 50, cards: CARDS, classCard: 3 });
      return validFailures(s, e, train, test, o);
    },
  },
  {
    id: 'deterministic',
    title: 'is deterministic under the same seed',
    run: (s, e, o) => {
      const train = synthetic('train', { n: 150, cards: CARDS, classCard: 3, missing: 0.1 });
      const test = synthetic('test', { n: 40, cards: CARDS, classCard: 3, missing: 0.1 });
      const a = fitPair(s, e, train, test, 'same-seed', o);
      const b = fitPair(s, e, train, test, 'same-seed', o);
      const out: string[] = [];
      if (!isDeepStrictEqual(a.structure, b.structure)) out.push('two fits under one seed gave different structures');
      const same =
        a.posterior.length === b.posterior.length && a.posterior.every((v, i) => Object.is(v, b.posterior[i]));
      if (!same) out.push('two fits under one seed gave different posteriors');
      return out;
    },
  },
  {
    id: 'unseen-values',
    title: 'handles test values never seen in training',
    run: (s, e, o) => {
      // Training uses only codes 0..1 of every attribute; the test rows use all codes.
      const train = synthetic('train', { n: 120, cards: CARDS, classCard: 3, maxCode: 2 });
      const test = synthetic('test', { n: 60, cards: CARDS, classCard: 3, signal: 0 });
      return posteriorFailures(fitPair(s, e, train, test, 'contract', o).posterior, test.n, 3);
    },
  },
  {
    id: 'single-class',
    title: 'handles a training set with a single class',
    run: (s, e, o) => {
      const train = synthetic('train', { n: 80, cards: CARDS, classCard: 3, classes: [1] });
      const test = synthetic('test', { n: 40, cards: CARDS, classCard: 3 });
      const { posterior } = fitPair(s, e, train, test, 'contract', o);
      const out = posteriorFailures(posterior, test.n, 3);
      let mean = 0;
      for (let r = 0; r < test.n; r++) mean += posterior[r * 3 + 1] / test.n;
      if (!(mean > 1 / 3)) out.push(`mean posterior of the only training class is ${mean}, expected > 1/3`);
      return out;
    },
  },
  {
    id: 'single-attribute',
    title: 'handles a single attribute',
    run: (s, e, o) => {
      const train = synthetic('train', { n: 100, cards: [4], classCard: 2 });
      const test = synthetic('test', { n: 30, cards: [4], classCard: 2, missing: 0.2 });
      return validFailures(s, e, train, test, o);
    },
  },
  {
    id: 'missing-values',
    title: 'handles missing values in training and test data (including all-missing rows)',
    run: (s, e, o) => {
      const train = synthetic('train', { n: 200, cards: CARDS, classCard: 3, missing: 0.25 });
      const test = synthetic('test', { n: 60, cards: CARDS, classCard: 3, missing: 0.4 });
      for (let a = 0; a < CARDS.length; a++) test.columns[a][0] = MISSING;
      return posteriorFailures(fitPair(s, e, train, test, 'contract', o).posterior, test.n, 3);
    },
  },
  {
    id: 'columns-reordered',
    title: 'gives the same posteriors with the columns reordered',
    run: (s, e, o) => invarianceFailures(s, e, 'columns', o),
  },
  {
    id: 'classes-relabelled',
    title: 'gives the same posteriors, permuted, with the classes relabelled',
    run: (s, e, o) => invarianceFailures(s, e, 'classes', o),
  },
];

/** Run one check; a throw is a failure too. */
export function runCheck(
  id: ContractCheckId,
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  options: ContractOptions = {},
): string[] {
  const check = CONTRACT_CHECKS.find((c) => c.id === id);
  if (!check) throw new Error(`no contract check '${id}'`);
  try {
    return check.run(s, e, options);
  } catch (err) {
    return [`threw: ${err instanceof Error ? err.message : String(err)}`];
  }
}

/**
 * Every contract check on a structure learner × estimator; the failures, none when the pair passes. The
 * invariance checks are skipped where either method declares the `orderDependence` they test.
 */
export function checkPair(
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  options: ContractOptions = {},
): ContractFailure[] {
  return CONTRACT_CHECKS.flatMap(({ id }) => {
    const messages = runCheck(id, s, e, options);
    const listed = messages.slice(0, MAX_LISTED);
    if (messages.length > MAX_LISTED) listed.push(`… and ${messages.length - MAX_LISTED} more`);
    return listed.map((message) => ({ check: id, message }));
  });
}

// ---------------------------------------------------------------------------------------------------------
// Invariance (after mlr3's autotest): a learner must not care how the user happened to order the attribute
// columns or name the classes. Two data sets (with and without missing values), since a tie that depends on
// order shows on some data only.
// ---------------------------------------------------------------------------------------------------------

/** Class-dependent attributes with a dependency chain, so structure learners have arcs to find. */
function invarianceSynth(seed: string, n: number, cards: readonly number[], classCard: number, missing = 0) {
  const rng = new Rng(seed);
  const columns = cards.map(() => new Int32Array(n));
  const classColumn = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const c = rng.int(classCard);
    classColumn[r] = c;
    let previous = 0;
    cards.forEach((card, a) => {
      const u = rng.next();
      const v = u < 0.4 ? (c + a) % card : u < 0.7 ? previous % card : rng.int(card);
      previous = v;
      columns[a][r] = rng.next() < missing ? MISSING : v;
    });
  }
  const d: DiscreteData = {
    n,
    names: cards.map((_, a) => `A${a}`),
    labels: cards.map((k) => Array.from({ length: k }, (_, v) => `v${v}`)),
    cards: Int32Array.from(cards),
    columns,
    className: 'class',
    classLabels: Array.from({ length: classCard }, (_, c) => `c${c}`),
    classCard,
    classColumn,
  };
  return d;
}

/** The attributes in the order `order` (new column j is old column order[j]). */
function reorderColumns(d: DiscreteData, order: readonly number[]): DiscreteData {
  return {
    ...d,
    names: order.map((a) => d.names[a]),
    labels: order.map((a) => d.labels[a]),
    cards: Int32Array.from(order, (a) => d.cards[a]),
    columns: order.map((a) => d.columns[a]),
  };
}

/** The classes renamed: old class c gets code code[c] (its label moves with it). */
function relabelClasses(d: DiscreteData, code: readonly number[]): DiscreteData {
  const labels = new Array<string>(d.classCard);
  code.forEach((to, from) => (labels[to] = d.classLabels[from]));
  return { ...d, classLabels: labels, classColumn: Int32Array.from(d.classColumn, (c) => code[c]) };
}

const INV_CARDS = [3, 2, 4, 2, 3, 3];
const ORDER = [3, 0, 5, 1, 4, 2];
const CODE = [2, 0, 1];
let invarianceData: { train: DiscreteData; test: DiscreteData }[] | undefined;
const dataSets = () =>
  (invarianceData ??= [
    {
      train: invarianceSynth('invariance-train', 250, INV_CARDS, 3),
      test: invarianceSynth('invariance-test', 40, INV_CARDS, 3),
    },
    {
      train: invarianceSynth('invariance-train-2', 250, INV_CARDS, 3, 0.1),
      test: invarianceSynth('invariance-test-2', 40, INV_CARDS, 3, 0.1),
    },
  ]);

/** Largest |a − b| with b's class columns taken through `code` (identity when absent). */
function largestDifference(a: Float64Array, b: Float64Array, C: number, code?: readonly number[]): number {
  let worst = 0;
  for (let r = 0; r < a.length / C; r++) {
    for (let c = 0; c < C; c++) worst = Math.max(worst, Math.abs(a[r * C + c] - b[r * C + (code ? code[c] : c)]));
  }
  return worst;
}

/** Whether the structure learner or the estimator declares that its output depends on `what`'s order. */
export function declaresOrderDependence(
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  what: 'columns' | 'classes',
): boolean {
  return s.orderDependence?.[what] !== undefined || e.orderDependence?.[what] !== undefined;
}

/** The largest change reordering the columns (or relabelling the classes) makes to the pair's posteriors. */
export function invarianceEffect(
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  what: 'columns' | 'classes',
  options: ContractOptions = {},
): number {
  const posterior = (tr: DiscreteData, te: DiscreteData) => fitPair(s, e, tr, te, 'invariance', options).posterior;
  let worst = 0;
  for (const { train, test } of dataSets()) {
    const base = posterior(train, test);
    const changed =
      what === 'columns'
        ? posterior(reorderColumns(train, ORDER), reorderColumns(test, ORDER))
        : posterior(relabelClasses(train, CODE), relabelClasses(test, CODE));
    worst = Math.max(worst, largestDifference(base, changed, 3, what === 'classes' ? CODE : undefined));
  }
  return worst;
}

function invarianceFailures(
  s: CheckedStructureLearner,
  e: CheckedEstimator,
  what: 'columns' | 'classes',
  options: ContractOptions,
): string[] {
  if (declaresOrderDependence(s, e, what)) return [];
  const effect = invarianceEffect(s, e, what, options);
  if (effect <= INVARIANCE_TOLERANCE) return [];
  const how = what === 'columns' ? 'reordering the columns' : 'relabelling the classes';
  return [
    `${how} changed a posterior by ${effect} (allowed ${INVARIANCE_TOLERANCE}; or declare orderDependence.${what})`,
  ];
}
