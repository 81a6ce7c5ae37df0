/**
 * The resampling methods, each declared once: its id, its parameters (JSON Schema with defaults, and so its
 * TypeScript type), its documentation, how it splits a dataset, and what the plan and the cost model need
 * (test folds per repeat, known before any data is read). The spec's `resampling:` section (its schema, its
 * defaults, its type), the plan's split, `plan`'s summary line and the report's settings line all read them.
 * docs/extending.md ("Adding a resampling method") says what a new one touches.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXCLUDED, holdout, parseFoldFile, plainKFold, stratifiedKFold, type SplitInstance } from '../folds/split.js';
import { UserError } from '../util/errors.js';
import { canonicalJson } from '../util/hash.js';
import { Rng } from '../util/rng.js';
import { defineSection, type Filled, type SchemaDecl, type SchemaValue } from './section.js';

/** A method's parameters once their defaults are filled in. */
type FilledParams<P> = Filled<{ readonly type: 'object'; readonly properties: P }>;

interface ResamplingMethod<
  Id extends string = string,
  P extends Record<string, SchemaDecl> = Record<string, SchemaDecl>,
> {
  readonly id: Id;
  /** One line for docs/spec.md. */
  readonly title: string;
  /** Its parameters, as JSON Schema with `default`s; a parameter two methods share is declared alike in both. */
  readonly params: P;
  /**
   * Parameters of another method that a spec may give with this one, without effect (specs always could).
   * Any other parameter of another method is an error naming it ("holdout has no folds").
   */
  readonly ignores?: readonly string[];
  /** What to write instead of another method's parameter, added to that error: {folds: 'use test_fraction'}. */
  readonly insteadOf?: Readonly<Record<string, string>>;
  /**
   * Test folds per repeat, known from the spec alone: the jobs of a dataset are repeats × this per method (the
   * grid bound and the cost model); a split made from data has as many (folds from a file count 1 here).
   */
  foldsPerRepeat(params: FilledParams<P>): number;
  /** One repeat's fold of every row (0..foldsPerRepeat − 1, −1 for a training-only row), from `rng` alone. */
  split(data: { classes: ArrayLike<number>; classCard: number }, params: FilledParams<P>, rng: Rng): Int32Array;
  /** `plan`'s resampling line, after "resampling: ". */
  planLine(params: FilledParams<P>): string;
  /** The report's resampling setting. */
  reportLine(params: FilledParams<P>): string;
}

function defineResampling<const Id extends string, const P extends Record<string, SchemaDecl>>(
  method: ResamplingMethod<Id, P>,
): ResamplingMethod<Id, P> {
  return method;
}

const REPEATS = { type: 'integer', minimum: 1, default: 1 } as const;
const STRATIFIED = { type: 'boolean', default: true } as const;
const repeatsText = (repeats: number): string => `${repeats} repeat(s)`;

const CV = defineResampling({
  id: 'cv',
  title: 'k-fold cross-validation (repeated when repeats > 1), stratified by class unless `stratified: false`',
  params: {
    folds: {
      description:
        'Number of folds, or {file: path} with one test-fold number per row (one column per repeat); {dataset} in the path is replaced by the dataset name.',
      anyOf: [
        { type: 'integer', minimum: 2 },
        {
          type: 'object',
          required: ['file'],
          additionalProperties: false,
          properties: { file: { type: 'string', minLength: 1 } },
        },
      ],
      default: 10,
    },
    repeats: REPEATS,
    stratified: STRATIFIED,
  },
  ignores: ['test_fraction'],
  foldsPerRepeat: (p) => (typeof p.folds === 'number' ? p.folds : 1),
  split: ({ classes, classCard }, p, rng) => {
    const k = typeof p.folds === 'number' ? p.folds : 1;
    return p.stratified ? stratifiedKFold(classes, classCard, k, rng) : plainKFold(classes.length, k, rng);
  },
  planLine: (p) =>
    `cv${typeof p.folds === 'number' ? `, ${p.folds} folds` : `, folds from ${p.folds.file}`}, ${repeatsText(p.repeats)}${p.stratified ? ', stratified' : ''}`,
  reportLine: (p) =>
    typeof p.folds === 'number'
      ? `${p.repeats > 1 ? `${p.repeats} × ` : ''}${p.folds}-fold ${p.stratified ? 'stratified ' : ''}cross-validation`
      : `folds from ${p.folds.file}`,
});

const HOLDOUT = defineResampling({
  id: 'holdout',
  title: 'one random train/test split per repeat, stratified by class unless `stratified: false`',
  params: {
    repeats: REPEATS,
    stratified: STRATIFIED,
    test_fraction: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, default: 1 / 3 },
  },
  insteadOf: { folds: 'use test_fraction' },
  foldsPerRepeat: () => 1,
  split: ({ classes, classCard }, p, rng) => holdout(classes, classCard, p.test_fraction, p.stratified, rng),
  planLine: (p) =>
    `holdout, ${repeatsText(p.repeats)}${p.stratified ? ', stratified' : ''}, test fraction ${p.test_fraction}`,
  reportLine: (p) => `holdout, test fraction ${p.test_fraction}, ${repeatsText(p.repeats)}`,
});

/** Every resampling method, the default first. */
export const RESAMPLINGS = [CV, HOLDOUT] as const;

/**
 * The `resampling:` section: `method` and the parameters of every method. Filled in, it holds every
 * parameter whatever the method, and the split's seed hashes that whole object (instantiateSplit), so a
 * parameter added for a new method must not get a default that lands in the existing methods' objects:
 * give it none, or fill it in only for its own method, so that every existing job key stays as it was.
 */
export const RESAMPLING = defineSection({
  type: 'object',
  additionalProperties: false,
  properties: {
    method: { type: 'string', enum: [CV.id, HOLDOUT.id], default: CV.id },
    ...CV.params,
    ...HOLDOUT.params,
  },
});

/** The spec's `resampling:` section with its defaults filled in. */
export type ResamplingSpec = Filled<typeof RESAMPLING.schema>;
type ResamplingSection = SchemaValue<typeof RESAMPLING.schema>;
type ResamplingId = (typeof RESAMPLINGS)[number]['id'];

export const defaultResampling: ResamplingSpec = RESAMPLING.fill(undefined);

function resamplingMethod(id: ResamplingId): (typeof RESAMPLINGS)[number] {
  const method = RESAMPLINGS.find((m) => m.id === id);
  if (!method) throw new UserError(`resampling.method: unknown method '${id}'`);
  return method;
}

/**
 * The section as a spec gives it, checked against its method: a parameter of another method is an error
 * (unless the method ignores it), which `where(parameter)` locates.
 */
export function parseResampling(
  given: ResamplingSection | undefined,
  where: (parameter: string) => string,
): ResamplingSpec {
  const resampling = RESAMPLING.fill(given);
  const method = resamplingMethod(resampling.method);
  for (const parameter of Object.keys(given ?? {})) {
    if (parameter === 'method' || parameter in method.params || method.ignores?.includes(parameter)) continue;
    const instead = method.insteadOf?.[parameter];
    throw new UserError(
      `${where(parameter)}: resampling.${parameter}: ${method.id} has no ${parameter}${instead !== undefined ? ` (${instead})` : ''}`,
    );
  }
  return resampling;
}

/** Test folds per repeat, from the spec alone (folds from a file count 1). */
export function foldsPerRepeat(spec: ResamplingSpec): number {
  return resamplingMethod(spec.method).foldsPerRepeat(spec);
}

/** `plan`'s resampling line and the report's resampling setting. */
export function resamplingPlanLine(spec: ResamplingSpec): string {
  return resamplingMethod(spec.method).planLine(spec);
}
export function resamplingReportLine(spec: ResamplingSpec): string {
  return resamplingMethod(spec.method).reportLine(spec);
}

/** The rows of docs/spec.md's table for the `resampling:` section. */
export function resamplingDocRows(): string[] {
  return RESAMPLINGS.map(
    (m) =>
      `| \`${m.id}\` | ${Object.keys(m.params)
        .map((p) => `\`${p}\``)
        .join(', ')} | ${m.title} |`,
  );
}

/** The fold file path for a dataset, relative paths resolved against the spec's folder. */
export function foldFilePath(spec: ResamplingSpec, datasetName: string, specDir: string): string | undefined {
  if (typeof spec.folds === 'number') return undefined;
  return resolve(specDir, spec.folds.file.replaceAll('{dataset}', datasetName));
}

/**
 * Instantiate the split for one dataset. The seed derives from the experiment seed, the dataset's content
 * hash and the resampling settings (never from the dataset's position in the spec), and repeat r uses its
 * own derived stream, so adding repeats keeps the earlier ones unchanged.
 *
 * `keep` (ascending row indices; `missing: remove-rows` passes the complete rows) splits only those rows,
 * exactly as if they were the whole data set, and marks every other row EXCLUDED. Folds from a file fix
 * the fold of every row of the file, so they cannot be combined with `keep` (a UserError).
 */
export function instantiateSplit(
  spec: ResamplingSpec,
  dataset: { name: string; sha256: string; classes: ArrayLike<number>; classCard: number; keep?: Int32Array },
  experimentSeed: string,
  specDir: string,
): SplitInstance {
  const file = foldFilePath(spec, dataset.name, specDir);
  const keep = dataset.keep;
  if (file !== undefined && keep !== undefined) {
    throw new UserError(
      `resampling.folds.file: dataset ${dataset.name}: folds from a file cannot be combined with preprocessing.missing: remove-rows (the file assigns every row of the data set); remove the incomplete rows from both files, or use missing: drop-rows`,
    );
  }
  if (keep !== undefined) {
    const n = dataset.classes.length;
    if (keep.length === 0)
      throw new UserError(
        `dataset ${dataset.name}: missing: remove-rows leaves no rows (every row has a missing value)`,
      );
    const inner = instantiateSplit(
      spec,
      { ...dataset, keep: undefined, classes: keep.map((r) => dataset.classes[r]) },
      experimentSeed,
      specDir,
    );
    const assignment = inner.assignment.map((a) => {
      const full = new Int32Array(n).fill(EXCLUDED);
      for (let i = 0; i < keep.length; i++) full[keep[i]] = a[i];
      return full;
    });
    return { repeats: inner.repeats, folds: inner.folds, assignment };
  }
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new UserError(`resampling.folds.file: cannot read '${file}' for dataset ${dataset.name}`);
    }
    return parseFoldFile(text, file, dataset.classes.length);
  }
  const method = resamplingMethod(spec.method);
  const base = new Rng(`split/${experimentSeed}/${dataset.sha256}/${canonicalJson(spec)}`);
  const assignment: Int32Array[] = [];
  for (let r = 0; r < spec.repeats; r++) {
    assignment.push(method.split(dataset, spec, base.derive(`repeat ${r}`)));
  }
  return { repeats: spec.repeats, folds: method.foldsPerRepeat(spec), assignment };
}
