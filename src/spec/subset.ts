/**
 * A subset of a plan's jobs by its grid's axes: `run --only dataset=car,method=tan/dirichlet,fold=0` and
 * `debug --job …`. Axes: dataset, method (a label as the report prints it), structure, estimator, repeat,
 * fold (both 0-based, as `plan --jobs` and the results database number them; `fold=0-2` is a range) and job
 * (a job key or a prefix of one, as `plan --jobs` lists them), and seed (a master seed of a multi-seed
 * experiment, `seeds:` or `--seeds N`; a single-seed spec's one seed matches every job). An axis named twice takes either value
 * (`dataset=car,dataset=iris`); different axes must all match. Commas inside parentheses belong to a
 * method label (`method=kdb(k=2,…)/dirichlet`).
 */
import { UserError } from '../util/errors.js';
import { closest } from '../util/text.js';
import type { PlannedJobOf, PlannedDatasetSummary, PlanOf } from './plan.js';

const SUBSET_AXES = ['dataset', 'method', 'structure', 'estimator', 'repeat', 'fold', 'job', 'seed'] as const;
type SubsetAxis = (typeof SUBSET_AXES)[number];

export type JobSubset = ReadonlyMap<SubsetAxis, readonly string[]>;

/** Split on commas outside parentheses and brackets. */
function topLevelParts(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter((p) => p !== '');
}

/** `dataset=car,method=nb/dirichlet,fold=0-2` → axis → accepted values. `option` names the flag in errors. */
export function parseSubset(text: string, option: string): JobSubset {
  const out = new Map<SubsetAxis, string[]>();
  const parts = topLevelParts(text);
  if (parts.length === 0)
    throw new UserError(`${option}: empty; expected axis=value,… (axes: ${SUBSET_AXES.join(', ')})`);
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) {
      throw new UserError(
        `${option}: '${part}' is not axis=value (axes: ${SUBSET_AXES.join(', ')}; e.g. dataset=car,method=nb/dirichlet,fold=0)`,
      );
    }
    const axis = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    const a = SUBSET_AXES.find((known) => known === axis);
    if (a === undefined) {
      const near = closest(axis, SUBSET_AXES);
      throw new UserError(
        `${option}: unknown axis '${axis}'${near ? ` (did you mean '${near}'?)` : ''}; axes: ${SUBSET_AXES.join(', ')}`,
      );
    }
    if (value === '') throw new UserError(`${option}: ${axis}= has no value`);
    if ((axis === 'fold' || axis === 'repeat') && !/^\d+(-\d+)?$/.test(value)) {
      throw new UserError(`${option}: ${axis}=${value}: expected a number (0-based) or a range such as 0-2`);
    }
    out.set(a, [...(out.get(a) ?? []), value]);
  }
  return out;
}

function inRange(n: number, spec: string): boolean {
  const [lo, hi] = spec.split('-').map(Number);
  return hi === undefined ? n === lo : n >= lo && n <= hi;
}

function matches<D extends PlannedDatasetSummary>(j: PlannedJobOf<D>, subset: JobSubset, specSeed: string): boolean {
  for (const [axis, values] of subset) {
    const ok = values.some((v) => {
      switch (axis) {
        case 'dataset':
          return j.dataset.handle.name === v;
        case 'method':
          return j.method.label === v;
        case 'structure':
          return j.method.structure.id === v;
        case 'estimator':
          return (j.method.estimator?.id ?? '') === v;
        case 'repeat':
          return inRange(j.repeat, v);
        case 'fold':
          return inRange(j.fold, v);
        case 'job':
          return j.key.startsWith(v);
        case 'seed':
          return (j.specSeed ?? specSeed) === v;
      }
    });
    if (!ok) return false;
  }
  return true;
}

/**
 * The plan's jobs in the subset, in plan order. A dataset, method, structure or estimator the plan does not
 * have is an error naming the ones it has (a typo would otherwise select nothing in silence); so is an
 * empty selection.
 */
export function selectJobs<D extends PlannedDatasetSummary>(
  plan: PlanOf<D>,
  subset: JobSubset,
  option: string,
): PlannedJobOf<D>[] {
  const known: Partial<Record<SubsetAxis, string[]>> = {
    dataset: plan.datasets.map((d) => d.handle.name),
    method: plan.spec.methods.map((m) => m.label),
    structure: [...new Set(plan.spec.methods.map((m) => m.structure.id))],
    estimator: [...new Set(plan.spec.methods.flatMap((m) => (m.estimator ? [m.estimator.id] : [])))],
    seed: plan.spec.seeds ? [...plan.spec.seeds] : [plan.spec.seed],
  };
  for (const [axis, values] of subset) {
    const names = known[axis];
    if (!names) continue;
    for (const v of values) {
      if (names.includes(v)) continue;
      // A near miss of a seed is another seed, not a typo.
      const near = axis === 'seed' ? undefined : closest(v, names);
      throw new UserError(
        `${option}: the spec has no ${axis} '${v}'${near ? ` (did you mean '${near}'?)` : ''}; ${axis === 'dataset' ? 'datasets' : `${axis}s`}: ${names.join(', ')}`,
      );
    }
  }
  const jobs = plan.jobs.filter((j) => matches(j, subset, plan.spec.seed));
  if (jobs.length === 0) {
    const folds = Math.max(...plan.datasets.map((d) => d.folds));
    const repeats = Math.max(...plan.datasets.map((d) => d.repeats));
    throw new UserError(
      `${option}: no job of the plan matches (folds are numbered 0-${folds - 1}, repeats 0-${repeats - 1}; 'bnclab plan <spec> --jobs' lists the jobs)`,
    );
  }
  return jobs;
}
