/**
 * `bnclab fit`: one method of a spec fitted on all rows of one dataset (preprocessing fitted on all rows
 * too), for inspection and export. The learner's seed derives from the content, as a job's does
 * (`fullDataKey` in src/spec/job-key.ts).
 */
import { loadDataset } from '../datasets/load.js';
import { fitPreprocessor, type PreprocessSummary } from '../datasets/preprocess.js';
import type { DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import type { Model } from '../registry.js';
import type { ExperimentSpec, MethodSpec } from '../spec/load.js';
import { fullDataKey, learnerSeed } from '../spec/job-key.js';
import { buildPlan } from '../spec/plan.js';
import { UserError } from '../util/errors.js';
import { RootStream } from '../util/rng.js';
import { closest } from '../util/text.js';
import { learn } from './execute.js';
import { jobMethod } from './job.js';

interface FullDataFit {
  readonly dataset: string;
  readonly datasetSha256: string;
  /** The data file read (an output must never overwrite it). */
  readonly datasetFile: string;
  readonly method: MethodSpec;
  readonly seed: string;
  readonly data: DiscreteData;
  readonly model: Model;
  readonly structure?: Structure;
  /** The preprocessing as fitted on all rows (cut points, attributes given a missing state): `fit` stores it. */
  readonly preprocess: PreprocessSummary;
}

/** A spec's method and dataset by name, the dataset's rows preprocessed on all of them, and the content key. */
export function fullDataOf(spec: ExperimentSpec, datasetName: string, methodLabel: string) {
  const method = spec.methods.find((m) => m.label === methodLabel);
  if (!method) {
    const labels = spec.methods.map((m) => m.label);
    const near = closest(methodLabel, labels);
    throw new UserError(
      `--method: the spec has no method '${methodLabel}'${near ? ` (did you mean '${near}'?)` : ''}; methods: ${labels.join(', ')}`,
    );
  }
  const plan = buildPlan(spec);
  const d = plan.datasets.find((x) => x.handle.name === datasetName);
  if (!d) {
    const names = plan.datasets.map((x) => x.handle.name);
    const near = closest(datasetName, names);
    throw new UserError(
      `--dataset: the spec has no dataset '${datasetName}'${near ? ` (did you mean '${near}'?)` : ''}; datasets: ${names.join(', ')}`,
    );
  }
  const { table } = loadDataset(d.handle);
  const all = Int32Array.from({ length: table.n }, (_, i) => i);
  const pre = fitPreprocessor(table, all, spec.preprocessing);
  const data = pre.transform(table, pre.trainRows());
  const key = fullDataKey(spec, d.handle, method);
  return { method, handle: d.handle, table, pre, data, key };
}

export function fitOnFullData(spec: ExperimentSpec, datasetName: string, methodLabel: string): FullDataFit {
  const { method, handle, pre, data, key } = fullDataOf(spec, datasetName, methodLabel);
  const seed = learnerSeed(key);
  // `select:` is not applied: the method is fitted once, with the parameters the spec gives it.
  const { model, structure } = learn(
    { ...jobMethod({ ...method, select: undefined }), dataset: handle, preprocessing: spec.preprocessing },
    data,
    new RootStream(seed),
  );
  return {
    dataset: datasetName,
    datasetSha256: handle.sha256,
    datasetFile: handle.file,
    method,
    seed,
    data,
    model,
    structure,
    preprocess: pre.describe(),
  };
}
