/**
 * Bootstrap arc strengths of a method's structure on a dataset, with the semantics of bnlearn's
 * boot.strength (Friedman, Goldszmidt & Wyner 1999; Scutari & Nagarajan 2013): R samples of n rows drawn
 * with replacement from the dataset (preprocessed on all its rows, as `bnclab fit` does), the structure
 * learned on each, and for every pair of nodes joined in at least one sample
 *   strength(a, b)   = the share of the R structures with an arc between a and b, either way;
 *   direction(a → b) = among those, the share where it points from a to b.
 * Each pair is listed both ways, as boot.strength does. Seeds derive from the content (dataset, method,
 * preprocessing, spec seed) and the replicate number, so the numbers are the same on every machine.
 */
import { arcs } from '../bn/structure.js';
import { getStructure, type StructureLearner } from '../registry.js';
import type { ExperimentSpec } from '../spec/load.js';
import { UserError } from '../util/errors.js';
import { sha256Hex } from '../util/hash.js';
import { Rng } from '../util/rng.js';
import { fullDataOf } from './fit.js';
import '../methods.js';

interface ArcStrength {
  readonly from: string;
  readonly to: string;
  readonly strength: number;
  readonly direction: number;
}

interface BootResult {
  readonly dataset: string;
  readonly method: string;
  readonly replicates: number;
  readonly rows: number;
  /** Sorted by strength (descending), then direction (descending), then names. */
  readonly arcs: readonly ArcStrength[];
}

export function bootStrength(
  spec: ExperimentSpec,
  dataset: string,
  methodLabel: string,
  replicates: number,
): BootResult {
  const { method, table, pre, key } = fullDataOf(spec, dataset, methodLabel);
  if (method.kind === 'baseline') throw new UserError(`--method: ${method.label} is a baseline; it learns no network`);
  const learner = getStructure(method.structure.id) as StructureLearner | undefined;
  if (!learner) throw new Error(`unknown structure '${method.structure.id}'`);
  const rows = pre.trainRows();
  const n = rows.length;
  const counts = new Map<string, number>(); // "a b" (a < b) → structures with the arc either way
  const forward = new Map<string, number>(); // "a b" → structures with a → b
  let names: string[] = [];
  for (let r = 0; r < replicates; r++) {
    const rng = new Rng(sha256Hex(`boot/${key}/${r}`));
    const draw = rng.derive('rows');
    const sample = new Int32Array(n);
    for (let i = 0; i < n; i++) sample[i] = rows[draw.int(n)];
    sample.sort();
    const data = pre.transform(table, sample);
    names = [...data.names, data.className];
    const s = learner.learn(data, method.structure.params, { rng: rng.derive('structure') });
    if (s.members)
      throw new UserError(`--method: ${method.label} learns an ensemble of structures; it has no single set of arcs`);
    for (const [a, b] of arcs(s)) {
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      const k = `${lo} ${hi}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
      if (a === lo) forward.set(k, (forward.get(k) ?? 0) + 1);
    }
  }
  const out: ArcStrength[] = [];
  for (const [k, c] of counts) {
    const [lo, hi] = k.split(' ').map(Number) as [number, number];
    const f = forward.get(k) ?? 0;
    out.push({ from: names[lo], to: names[hi], strength: c / replicates, direction: f / c });
    out.push({ from: names[hi], to: names[lo], strength: c / replicates, direction: (c - f) / c });
  }
  out.sort(
    (x, y) =>
      y.strength - x.strength ||
      y.direction - x.direction ||
      (x.from < y.from ? -1 : x.from > y.from ? 1 : 0) ||
      (x.to < y.to ? -1 : x.to > y.to ? 1 : 0),
  );
  return { dataset, method: method.label, replicates, rows: n, arcs: out };
}

export function bootCsv(b: BootResult): string {
  const q = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return (
    ['from,to,strength,direction', ...b.arcs.map((a) => `${q(a.from)},${q(a.to)},${a.strength},${a.direction}`)].join(
      '\n',
    ) + '\n'
  );
}
