/** From a spec's `resampling:` section to a concrete, seeded SplitInstance. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';
import { canonicalJson } from '../util/hash.js';
import { EXCLUDED, holdout, parseFoldFile, plainKFold, stratifiedKFold, type SplitInstance } from './split.js';

export interface ResamplingSpec {
  /** cv: k-fold (repeated when repeats > 1); holdout: one train/test split per repeat. */
  readonly method: 'cv' | 'holdout';
  /** Number of folds, or folds given as data: {file} (may contain {dataset}, replaced by the dataset name). */
  readonly folds: number | { readonly file: string };
  readonly repeats: number;
  readonly stratified: boolean;
  /** holdout only. */
  readonly test_fraction: number;
}

export const defaultResampling: ResamplingSpec = {
  method: 'cv',
  folds: 10,
  repeats: 1,
  stratified: true,
  test_fraction: 1 / 3,
};

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
      { ...dataset, keep: undefined, classes: keep.map((r) => dataset.classes[r]!) },
      experimentSeed,
      specDir,
    );
    const assignment = inner.assignment.map((a) => {
      const full = new Int32Array(n).fill(EXCLUDED);
      for (let i = 0; i < keep.length; i++) full[keep[i]!] = a[i]!;
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
  const base = new Rng(`split/${experimentSeed}/${dataset.sha256}/${canonicalJson(spec)}`);
  const assignment: Int32Array[] = [];
  const k = spec.folds as number;
  for (let r = 0; r < spec.repeats; r++) {
    const rng = base.derive(`repeat ${r}`);
    if (spec.method === 'holdout') {
      assignment.push(holdout(dataset.classes, dataset.classCard, spec.test_fraction, spec.stratified, rng));
    } else if (spec.stratified) {
      assignment.push(stratifiedKFold(dataset.classes, dataset.classCard, k, rng));
    } else {
      assignment.push(plainKFold(dataset.classes.length, k, rng));
    }
  }
  return { repeats: spec.repeats, folds: spec.method === 'holdout' ? 1 : k, assignment };
}
