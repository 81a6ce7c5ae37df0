/** From a spec's `resampling:` section to a concrete, seeded SplitInstance. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';
import { canonicalJson } from '../util/hash.js';
import { holdout, parseFoldFile, plainKFold, stratifiedKFold, type SplitInstance } from './split.js';

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
 */
export function instantiateSplit(
  spec: ResamplingSpec,
  dataset: { name: string; sha256: string; classes: Int32Array; classCard: number },
  experimentSeed: string,
  specDir: string,
): SplitInstance {
  const file = foldFilePath(spec, dataset.name, specDir);
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
