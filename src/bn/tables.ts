/**
 * The node tables a CptModel holds and NetworkInference reads (layout in src/bn/cpt.ts). A module of their
 * own so that the inference engine needs no import from cpt.ts (cpt → inference, never back).
 */
import type { ConfigIndex } from './counts.js';

interface CptShape {
  readonly parents: readonly number[];
  readonly card: number;
  readonly parentCards: Int32Array;
  /** Number of parent configurations of the full table (product of parentCards). */
  readonly configs: number;
}

/** A full table. */
export interface DenseNodeCpt extends CptShape {
  /** log θ[config * card + value]; -Infinity is a zero probability. */
  readonly logp: Float64Array;
  readonly index?: undefined;
}

/** A table holding only the rows of the indexed parent configurations and a shared default row. */
export interface SparseNodeCpt extends CptShape {
  readonly logp?: undefined;
  /** The configurations with a row of their own (ids 0..index.size-1). */
  readonly index: ConfigIndex;
  /** rows[id * card + value] = log θ(value | configuration index.key(id)); row index.size is the default row. */
  readonly rows: Float64Array;
}

export type NodeCpt = DenseNodeCpt | SparseNodeCpt;

/**
 * Where configuration cfg's row starts: cpt.logp for a dense table, cpt.rows (its own row, or the default
 * row when it is not indexed) for a sparse one.
 */
export function cptRowOffset(cpt: NodeCpt, cfg: number): number {
  if (!cpt.index) return cfg * cpt.card;
  const id = cpt.index.get(cfg);
  return (id < 0 ? cpt.index.size : id) * cpt.card;
}

/** The array cptRowOffset indexes into. */
export function cptTable(cpt: NodeCpt): Float64Array {
  return cpt.index ? cpt.rows : cpt.logp;
}
