/**
 * ExperimentSpec → Plan: datasets resolved and loaded once (checksums verified), one split instance per
 * dataset shared by every method, and the list of jobs with content keys and derived seeds, in the spec's
 * order: datasets as listed (a group's members in name order), then repeat, fold and method as listed.
 */
import { loadRegistry, userFileEntry, type DatasetEntry } from '../datasets/registry.js';
import { loadDataset } from '../datasets/load.js';
import { completeRows } from '../datasets/preprocess.js';
import { instantiateSplit } from '../folds/resampling.js';
import { narrowAssignment, testRows, type SplitInstance } from '../folds/split.js';
import type { RawTable } from '../datasets/table.js';
import { canonicalJson, contentKey, sha256Hex } from '../util/hash.js';
import { UserError } from '../util/errors.js';
import { RESULTS_VERSION } from '../version.js';
import type { ExperimentSpec, MethodSpec } from './load.js';
import type { DatasetHandle } from '../datasets/handle.js';

export interface PlannedDataset {
  readonly handle: DatasetHandle;
  readonly rows: number;
  readonly attributes: number;
  readonly classes: number;
  readonly splitKey: string;
  readonly split: SplitInstance;
  /** The loaded table (its columns in shared memory when read from CSV; see sharedTable). */
  readonly table: RawTable;
  /** The class column and each attribute's type as read (what `plan` and `run` report for a user's file). */
  readonly className: string;
  readonly columns: readonly {
    readonly name: string;
    readonly type: 'numeric' | 'categorical';
    readonly values: number;
  }[];
  /** A file named in the spec, not a shipped registry dataset: its class column and types are reported. */
  readonly userFile: boolean;
  /** How the class column was chosen: declared (`class:` or the registry) or the default rule. */
  readonly classDeclared: boolean;
  /** Class labels in code order. */
  readonly classLabels: readonly string[];
  /** Rows left out because their class value is missing. */
  readonly droppedRows: number;
  /** Column types and ignored columns declared in the spec's dataset entry: part of the job key. */
  readonly declaredColumns?: { readonly types: Readonly<Record<string, string>>; readonly ignore: readonly string[] };
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
  /** What `plan` and `run` print before anything else: the spec's warnings, and datasets that are duplicates. */
  readonly warnings: readonly string[];
}

/** The largest grid planned without `--max-jobs`: 10⁷ jobs took minutes and gigabytes just to plan. */
export const DEFAULT_MAX_JOBS = 1_000_000;

export interface PlanOptions {
  /** Refuse a grid of more jobs than this (default DEFAULT_MAX_JOBS). */
  readonly maxJobs?: number;
}

export function buildPlan(spec: ExperimentSpec, opts: PlanOptions = {}): Plan {
  const maxJobs = opts.maxJobs ?? DEFAULT_MAX_JOBS;
  const registry = loadRegistry();
  const handles = new Map<string, { handle: DatasetHandle; where: string; userFile: boolean; declared: boolean }>();
  for (const ref of spec.datasets) {
    const entries: DatasetEntry[] = ref.file
      ? [userFileEntry(ref.file, spec.dir, ref.where)].map((e) => ({
          ...e,
          name: ref.name ?? e.name,
          classColumn: ref.classColumn ?? e.classColumn,
          ...(ref.columnTypes ? { columnTypes: { ...e.columnTypes, ...ref.columnTypes } } : {}),
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
        ...(ref.ignore ? { ignore: ref.ignore } : {}),
      };
      const prev = handles.get(e.name);
      if (prev && prev.handle.file !== file) {
        throw new UserError(`${ref.where}: datasets: two different datasets are named '${e.name}' (give one a name:)`);
      }
      handles.set(e.name, {
        handle,
        where: ref.where,
        userFile: !e.builtin || ref.file !== undefined,
        declared: ref.columnTypes !== undefined || ref.ignore !== undefined,
      });
    }
  }

  // Bound the grid before any split is made (a split holds repeats × rows fold numbers).
  const r = spec.resampling;
  const foldsPerRepeat = r.method === 'holdout' ? 1 : typeof r.folds === 'number' ? r.folds : 1;
  const expected = handles.size * r.repeats * foldsPerRepeat * spec.methods.length;
  if (expected > maxJobs) {
    throw new UserError(
      `${spec.file}: the grid has ${expected.toLocaleString('en-US')} jobs (${handles.size} datasets × ${r.repeats} repeats × ` +
        `${foldsPerRepeat} folds × ${spec.methods.length} methods), more than the limit of ${maxJobs.toLocaleString('en-US')}; ` +
        `shrink the spec or raise the limit with --max-jobs`,
    );
  }

  const warnings = [...(spec.warnings ?? [])];
  const byContent = new Map<string, string>(); // file hash + class column → the dataset name it runs under
  const datasets: PlannedDataset[] = [];
  // Every dataset is checked before any error is thrown, so one run of `plan` lists all that fail.
  const failures: string[] = [];
  // In the spec's order (a group's members in name order): a researcher lists the cheap datasets first, and
  // the jobs run in plan order. Job keys and seeds are content, so the order changes no number.
  for (const { handle, where, userFile, declared } of handles.values()) {
    try {
      const d = planDataset(spec, handle, where, userFile, byContent, warnings, declared);
      if (d) datasets.push(d);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      failures.push(e.message);
    }
  }
  if (failures.length === 1) throw new UserError(failures[0]!);
  if (failures.length > 1) throw new UserError(`${failures.length} datasets fail:\n  ${failures.join('\n  ')}`);

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
            // Only when the spec declares column types or ignored columns, so every other key stays as it was.
            ...(d.declaredColumns ? { columns: d.declaredColumns } : {}),
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
  if (jobs.length > maxJobs) {
    throw new UserError(
      `${spec.file}: the grid has ${jobs.length.toLocaleString('en-US')} jobs, more than the limit of ${maxJobs.toLocaleString('en-US')}; shrink the spec or raise the limit with --max-jobs`,
    );
  }
  return { spec, datasets, jobs, warnings };
}

/** Load, check and split one dataset; undefined when it duplicates one already planned. */
function planDataset(
  spec: ExperimentSpec,
  handle: DatasetHandle,
  where: string,
  userFile: boolean,
  byContent: Map<string, string>,
  warnings: string[],
  declared: boolean,
): PlannedDataset | undefined {
  let loaded;
  try {
    loaded = loadDataset(handle);
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`${where}: ${e.message}`);
    throw e;
  }
  const { table, sha256 } = loaded;
  // One file under two names would give the same job keys twice: it runs once, under the first name.
  const content = JSON.stringify([
    sha256,
    handle.classColumn ?? null,
    handle.columnTypes ?? null,
    handle.ignore ?? null,
  ]);
  const twin = byContent.get(content);
  if (twin !== undefined) {
    warnings.push(`${where}: dataset '${handle.name}' is the same file as '${twin}'; it runs once, as '${twin}'`);
    return undefined;
  }
  byContent.set(content, handle.name);
  if (spec.preprocessing.discretize.method === 'none') {
    const numeric = table.columns.find((c) => c.type === 'numeric');
    if (numeric) {
      throw new UserError(
        `${where}: dataset ${handle.name}: column '${numeric.name}' is numeric; set preprocessing.discretize to mdl, median or equal-frequency, ` +
          `or, if its numbers are category codes, declare it in the dataset entry: {file: ..., categorical: [${numeric.name}]}`,
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
    // Name the dataset and its file: "3 folds but only 1 rows" alone does not say where.
    if (e instanceof UserError) {
      const what = keep !== undefined ? '' : `dataset ${handle.name} (${handle.file}): `;
      throw new UserError(`${where}: ${what}${e.message}`);
    }
    throw e;
  }
  const splitKey = splitContentKey(split);
  // In shared memory, like the table's columns: every job's payload carries them to a worker thread uncopied;
  // one byte a row for up to 127 folds.
  split = { ...split, assignment: split.assignment.map((a) => narrowAssignment(a, true)) };
  return {
    handle: { ...handle, sha256 },
    table,
    rows: table.n,
    attributes: table.columns.length,
    classes: table.classLabels.length,
    splitKey,
    split,
    className: table.className,
    columns: table.columns.map((c) => ({
      name: c.name,
      type: c.type,
      values: c.type === 'categorical' ? c.labels.length : c.distinct.length,
    })),
    userFile,
    classDeclared: handle.classColumn !== undefined,
    droppedRows: table.droppedRows,
    classLabels: table.classLabels,
    ...(declared ? { declaredColumns: { types: handle.columnTypes ?? {}, ignore: handle.ignore ?? [] } } : {}),
  };
}

/**
 * What bnclab chose for a dataset it does not ship: the class column (and why), rows dropped for a missing
 * class, and the type inferred for each column. One line; `detail` adds a line per column.
 */
export function describeColumns(d: PlannedDataset, detail: boolean): string[] {
  const why = d.classDeclared
    ? 'declared'
    : d.className === 'class'
      ? "the column named 'class'"
      : 'not declared, so the last column; set class: in the dataset entry to choose';
  const categorical = d.columns.filter((c) => c.type === 'categorical').length;
  const numeric = d.columns.length - categorical;
  const lines = [
    `${d.handle.name}: class column '${d.className}' (${why})` +
      (d.droppedRows > 0 ? `, ${d.droppedRows} rows without a class value left out` : '') +
      `; ${categorical} categorical, ${numeric} numeric columns` +
      (detail ? '' : ` (plan --columns lists them)`),
  ];
  if (detail) {
    for (const c of d.columns)
      lines.push(
        `  ${c.name}: ${c.type}${c.type === 'categorical' ? ` (${c.values} values)` : ` (${c.values} distinct values)`}`,
      );
  }
  return lines;
}

/** The split's identity is its content: the same partition has the same key whichever way it was made. */
export function splitContentKey(split: SplitInstance): string {
  // The bytes of the Int32 assignment, whatever the width it is held in (narrowAssignment).
  const parts = split.assignment.map((a) => {
    const wide = a instanceof Int32Array ? a : Int32Array.from(a);
    return sha256Hex(new Uint8Array(wide.buffer, wide.byteOffset, wide.byteLength));
  });
  return contentKey({ repeats: split.repeats, folds: split.folds, parts }, 24);
}

export function specHash(spec: ExperimentSpec): string {
  const { dir: _dir, file: _file, warnings: _warnings, ...content } = spec;
  return sha256Hex(canonicalJson(content));
}
