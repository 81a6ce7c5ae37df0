/**
 * The `select:` section of a method: parameters chosen by inner cross-validation on every training fold
 * (run by src/runner/select.ts). Written as
 *
 *     select: { by: cv, folds: 10, metric: accuracy, ess: [1, 4, 16, 64, 256, 1024] }
 *
 * Every other key names a parameter and lists its candidate values: `structure.<param>`,
 * `estimator.<param>`, or a bare name that only one of the two takes; `a+b` joins several parameters that
 * take the same value in every candidate (a BDeu ESS and the matching EAP prior). Several keys give the
 * product of their lists, in the order written.
 */
import type { MethodInfo, Params } from '../registry.js';
import { UserError } from '../util/errors.js';
import { isRecord, propertiesOf } from './section.js';

/** The part of a spec's method choice (spec/load.ts's MethodChoice) that selection reads; declared here so load → select runs one way. */
interface ChosenLearner {
  readonly id: string;
  readonly params: Params;
}

export interface SelectSpec {
  readonly by: 'cv';
  readonly folds: number;
  readonly metric: 'accuracy' | 'log_loss';
  /** Each axis sets every target ("structure.<param>" or "estimator.<param>") to each of its values. */
  readonly axes: readonly { readonly targets: readonly string[]; readonly values: readonly unknown[] }[];
}

const SELECT_METRICS = ['accuracy', 'log_loss'] as const;

/** The grid's candidates in order: the first axis varies slowest. */
export function candidates(select: SelectSpec): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const axis of select.axes) {
    out = out.flatMap((c) =>
      axis.values.map((v) => ({ ...c, ...Object.fromEntries(axis.targets.map((t) => [t, v])) })),
    );
  }
  return out;
}

/** Parameters of one side with a candidate's values set. */
export function applyCandidate(
  candidate: Record<string, unknown>,
  side: 'structure' | 'estimator',
  params: Params,
): Params {
  const out = { ...params };
  for (const [target, v] of Object.entries(candidate))
    if (target.startsWith(`${side}.`)) out[target.slice(side.length + 1)] = v;
  return out;
}

/**
 * Check a `select:` section against the method's structure learner and estimator. `valid(side, params)`
 * returns an error message when the side's parameters with a candidate's values break its schema.
 */
export function parseSelect(
  raw: unknown,
  sides: {
    structure: { choice: ChosenLearner; info: MethodInfo };
    estimator: { choice: ChosenLearner; info: MethodInfo };
  },
  valid: (info: MethodInfo, params: Params) => string | undefined,
  where: string,
): SelectSpec {
  if (!isRecord(raw)) throw new UserError(`${where}: must be a mapping, e.g. {ess: [1, 4, 16], by: cv, folds: 10}`);
  const o = raw;
  const by = o['by'] ?? 'cv';
  if (by !== 'cv') throw new UserError(`${where}.by: '${String(by)}' is not a selection method (known: cv)`);
  const folds = o['folds'] ?? 10;
  if (typeof folds !== 'number' || !Number.isInteger(folds) || folds < 2)
    throw new UserError(`${where}.folds: must be an integer >= 2, got ${JSON.stringify(folds)}`);
  const given = o['metric'] ?? 'accuracy';
  const metric = SELECT_METRICS.find((m) => m === given);
  if (metric === undefined)
    throw new UserError(`${where}.metric: '${String(given)}' is not one of ${SELECT_METRICS.join(', ')}`);
  const props = (info: MethodInfo) => Object.keys(propertiesOf(info.params));
  const axes: { targets: string[]; values: unknown[] }[] = [];
  for (const [key, values] of Object.entries(o)) {
    if (key === 'by' || key === 'folds' || key === 'metric') continue;
    if (!Array.isArray(values) || values.length === 0)
      throw new UserError(`${where}.${key}: give a non-empty list of candidate values`);
    const targets = key.split('+').map((part) => {
      const [side, name] = part.includes('.') ? part.split('.', 2) : [undefined, part];
      if (side !== undefined && side !== 'structure' && side !== 'estimator') {
        throw new UserError(`${where}.${key}: '${side}' is neither structure nor estimator`);
      }
      const owners = (['structure', 'estimator'] as const).filter(
        (s) => (side === undefined || side === s) && props(sides[s].info).includes(name),
      );
      if (owners.length === 0) {
        const known = [
          ...props(sides.structure.info).map((p) => `structure.${p}`),
          ...props(sides.estimator.info).map((p) => `estimator.${p}`),
        ];
        throw new UserError(
          `${where}.${key}: no parameter '${part}' of structure '${sides.structure.choice.id}' or estimator '${sides.estimator.choice.id}' (known: ${known.join(', ')})`,
        );
      }
      if (owners.length > 1)
        throw new UserError(
          `${where}.${key}: both the structure and the estimator take '${name}'; write structure.${name} or estimator.${name}`,
        );
      return `${owners[0]}.${name}`;
    });
    axes.push({ targets, values });
  }
  if (axes.length === 0) throw new UserError(`${where}: names no parameter to select (e.g. ess: [1, 4, 16])`);
  const spec: SelectSpec = { by: 'cv', folds, metric, axes };
  for (const c of candidates(spec)) {
    for (const side of ['structure', 'estimator'] as const) {
      const why = valid(sides[side].info, applyCandidate(c, side, sides[side].choice.params));
      if (why)
        throw new UserError(`${where}: candidate ${JSON.stringify(c)}: ${side} '${sides[side].choice.id}': ${why}`);
    }
  }
  return spec;
}
