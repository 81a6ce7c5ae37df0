/**
 * ExperimentSpec → Plan: datasets resolved and loaded once (checksums verified), one split instance per
 * dataset shared by every method, and the sorted list of jobs with content keys and derived seeds.
 */
import { loadRegistry, userFileEntry, type DatasetEntry } from '../datasets/registry.js';
import { loadDataset } from '../datasets/load.js';
import { completeRows } from '../datasets/preprocess.js';
import { instantiateSplit } from '../folds/resampling.js';
import { testRows, type SplitInstance } from '../folds/split.js';
import { canonicalJson, contentKey, sha256Hex } from '../util/hash.js';
import { UserError } from '../util/errors.js';
import { RESULTS_VERSION } from '../version.js';
import type { ExperimentSpec, MethodSpec } from './load.js';
import type { DatasetHandle } from '../runner/job.js';

export interface PlannedDataset {
  readonly handle: DatasetHandle;
  readonly rows: number;
  readonly attributes: number;
  readonly classes: number;
  readonly splitKey: string;
  readonly split: SplitInstance;
}

export interface PlannedJob {
  readonly key: string;
  readonly seed: string;
  readonly dataset: PlannedDataset;
  readonly repeat: number;
  readonly fold: number;
  readonly method: MethodSpec;
}

export interface Plan {
  readonly spec: ExperimentSpec;
  readonly datasets: readonly PlannedDataset[];
  readonly jobs: readonly PlannedJob[];
}

export function buildPlan(spec: ExperimentSpec): Plan {
  const registry = loadRegistry();
  const handles = new Map<string, { handle: DatasetHandle; where: string }>();
  for (const ref of spec.datasets) {
    const entries: DatasetEntry[] = ref.file
      ? [userFileEntry(ref.file, spec.dir, ref.where)].map((e) => ({
          ...e,
          name: ref.name ?? e.name,
          classColumn: ref.classColumn ?? e.classColumn,
        }))
      : registry.resolve(ref.ref, { where: ref.where, baseDir: spec.dir });
    for (const e of entries) {
      const file = e.path;
      const handle: DatasetHandle = {
        name: e.name,
        file,
        sha256: e.sha256 ?? '',
        classColumn: e.classColumn,
        columnTypes: e.columnTypes,
      };
      const prev = handles.get(e.name);
      if (prev && prev.handle.file !== file) {
        throw new UserError(`${ref.where}: datasets: two different datasets are named '${e.name}' (give one a name:)`);
      }
      handles.set(e.name, { handle, where: ref.where });
    }
  }

  const datasets: PlannedDataset[] = [];
  for (const { handle, where } of [...handles.values()].sort((a, b) => a.handle.name.localeCompare(b.handle.name))) {
    let loaded;
    try {
      loaded = loadDataset(handle);
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`${where}: ${e.message}`);
      throw e;
    }
    const { table, sha256 } = loaded;
    if (spec.preprocessing.discretize.method === 'none') {
      const numeric = table.columns.find((c) => c.type === 'numeric');
      if (numeric) {
        throw new UserError(
          `${where}: dataset ${handle.name}: column '${numeric.name}' is numeric; set preprocessing.discretize to mdl, median or equal-frequency`,
        );
      }
    }
    // missing: remove-rows splits only the complete rows; the others are EXCLUDED from every fold.
    const keep = spec.preprocessing.missing === 'remove-rows' ? completeRows(table) : undefined;
    let split;
    try {
      split = instantiateSplit(
        spec.resampling,
        { name: handle.name, sha256, classes: table.classColumn, classCard: table.classLabels.length, keep },
        spec.seed,
        spec.dir,
      );
    } catch (e) {
      if (e instanceof UserError && keep !== undefined) throw new UserError(`${where}: ${e.message}`);
      throw e;
    }
    const splitKey = splitContentKey(split);
    datasets.push({
      handle: { ...handle, sha256 },
      rows: table.n,
      attributes: table.columns.length,
      classes: table.classLabels.length,
      splitKey,
      split,
    });
  }

  const jobs: PlannedJob[] = [];
  for (const d of datasets) {
    for (let r = 0; r < d.split.repeats; r++) {
      for (let f = 0; f < d.split.folds; f++) {
        if (testRows(d.split, r, f).length === 0) continue; // a fold file may leave a fold empty in one repeat
        for (const m of spec.methods) {
          const content = {
            v: RESULTS_VERSION,
            dataset: d.handle.sha256,
            classColumn: d.handle.classColumn ?? null,
            preprocessing: spec.preprocessing,
            split: d.splitKey,
            repeat: r,
            fold: f,
            kind: m.kind,
            structure: { id: m.structure.id, params: m.structure.params },
            estimator: m.estimator ? { id: m.estimator.id, params: m.estimator.params } : null,
            seed: spec.seed,
            select: m.select, // absent (and so not in the key) unless the method has a select: section
          };
          const key = contentKey(content, 24);
          jobs.push({ key, seed: sha256Hex(`learn/${key}`), dataset: d, repeat: r, fold: f, method: m });
        }
      }
    }
  }
  return { spec, datasets, jobs };
}

/** The split's identity is its content: the same partition has the same key whichever way it was made. */
export function splitContentKey(split: SplitInstance): string {
  const parts = split.assignment.map((a) => sha256Hex(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)));
  return contentKey({ repeats: split.repeats, folds: split.folds, parts }, 24);
}

export function specHash(spec: ExperimentSpec): string {
  const { dir: _dir, file: _file, ...content } = spec;
  return sha256Hex(canonicalJson(content));
}
