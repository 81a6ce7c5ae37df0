/**
 * Entry points of the exact learners: DiscreteData → the best network, or the K best networks / classes,
 * as Structure parent lists (nodes 0..m-1 attributes, m the class; the class first in every parent list
 * that holds it, then the attributes in increasing order).
 */
import type { DiscreteData } from '../data.js';
import {
  checkMemory,
  completeRows,
  LocalScores,
  DEFAULT_MEMORY_LIMIT_MB,
  type ExactConstraint,
  type ExactScore,
} from './localscores.js';
import { bestNetwork, bestNetworkBytes, type ExactNetwork } from './dp.js';
import { kBestBytes, kBestNetworks, kBestWhat, type KBestMode } from './kbest.js';
import { members } from './bits.js';
import { releaseGarbage } from '../../util/gc.js';

interface ExactOptions {
  readonly score: ExactScore;
  readonly ess: number;
  readonly constraint: ExactConstraint;
  readonly memoryLimitMB?: number;
  readonly signal?: AbortSignal;
}

interface ScoredDag {
  readonly parents: number[][];
  /** Total score (natural log; BDeu = log marginal likelihood). */
  readonly score: number;
}

/** Structure parent lists of a DP result. */
function dagFromNetwork(ls: LocalScores, net: ExactNetwork): number[][] {
  const m = ls.m;
  const parents: number[][] = [];
  if (ls.constraint === 'anb') {
    for (let a = 0; a < m; a++) parents.push([m, ...members(net.parents[a])]);
    parents.push([]);
    return parents;
  }
  for (let v = 0; v <= m; v++) {
    const ps = members(net.parents[v]);
    parents.push(ps.includes(m) ? [m, ...ps.filter((p) => p !== m)] : ps);
  }
  return parents;
}

// A search allocates up to gigabytes of typed arrays; back-to-back searches (SubbKB's ten subsamples,
// bagging, the jobs of one worker) stacked up their garbage (6 GB measured for SubbKB10 on german-credit),
// so before a large search the previous ones' arrays are collected (releaseGarbage, util/gc.ts).

/** DP variables of a problem: the attributes and the class, or the attributes only under 'anb'. */
function variables(data: DiscreteData, constraint: ExactConstraint): number {
  return data.columns.length + (constraint === 'anb' ? 0 : 1);
}

function exactLocalScores(data: DiscreteData, opts: ExactOptions): LocalScores {
  return new LocalScores(data, { score: opts.score, ess: opts.ess, constraint: opts.constraint, signal: opts.signal });
}

/** The highest-scoring DAG (with the ANB constraint when asked). */
export function learnBestDag(data: DiscreteData, opts: ExactOptions): ScoredDag & { rows: number } {
  const limit = opts.memoryLimitMB ?? DEFAULT_MEMORY_LIMIT_MB;
  const n = variables(data, opts.constraint);
  const bytes = bestNetworkBytes(n, completeRows(data).length);
  checkMemory(bytes, limit, `exact search over ${n} variables`);
  releaseGarbage(bytes);
  const ls = exactLocalScores(data, opts);
  const net = bestNetwork(ls, limit, opts.signal);
  return { parents: dagFromNetwork(ls, net), score: net.score, rows: ls.rows };
}

/** The K best DAGs ('dag') or one representative DAG of each of the K best equivalence classes ('ec'). */
export function learnKBest(
  data: DiscreteData,
  K: number,
  mode: KBestMode,
  opts: ExactOptions,
): { dags: ScoredDag[]; rows: number } {
  const limit = opts.memoryLimitMB ?? DEFAULT_MEMORY_LIMIT_MB;
  const n = variables(data, opts.constraint);
  const bytes = kBestBytes(n, completeRows(data).length, K);
  checkMemory(bytes, limit, kBestWhat(n, K, mode));
  releaseGarbage(bytes);
  const ls = exactLocalScores(data, opts);
  const nets = kBestNetworks(ls, K, mode, limit, opts.signal);
  return { dags: nets.map((net) => ({ parents: dagFromNetwork(ls, net), score: net.score })), rows: ls.rows };
}
