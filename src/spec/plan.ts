/**
 * ExperimentSpec → Plan: datasets resolved and loaded once (checksums verified), one split instance per
 * dataset shared by every method, and the list of jobs with content keys and derived seeds, in the spec's
 * order: datasets as listed (a group's members in name order), then repeat, fold and method as listed.
 */
import { loadRegistry, userFileEntry, type DatasetEntry } from '../datasets/registry.js';
import { loadDataset } from '../datasets/load.js';
import { completeRows, undiscretizedColumnMessage } from '../datasets/preprocess.js';
import { foldFilePath, foldsPerRepeat as foldsPerRepeatOf, instantiateSplit } from './resampling.js';
import { EXCLUDED, foldsMissingAClass, narrowAssignment, type SplitInstance } from '../folds/split.js';
import type { RawTable } from '../datasets/table.js';
import { canonicalJson, contentKey, sha256Hex } from '../util/hash.js';
import { cachedFileHash, contentCacheKey, readContent, readFileInPieces, writeContent } from '../util/cache.js';
import { UserError } from '../util/errors.js';
import { RESULTS_VERSION } from '../version.js';
import type { ExperimentSpec } from './load.js';
import type { DatasetHandle } from '../datasets/handle.js';
import { type FoldSize, JobGrid, type PlannedDatasetSummary, type PlannedJobOf } from './job-grid.js';

export type { PlannedDatasetSummary, PlannedJobOf } from './job-grid.js';

/** A dataset as `run` plans it: the summary with its rows and its split. */
interface PlannedDataset extends PlannedDatasetSummary {
  readonly split: SplitInstance;
  /** The loaded table (its columns in shared memory when read from CSV; see sharedTable). */
  readonly table: RawTable;
}

export interface PlanOf<D extends PlannedDatasetSummary> {
  readonly spec: ExperimentSpec;
  readonly datasets: readonly D[];
  /** Every job as an object: built from `grid` the first time it is read (a run streams the grid instead). */
  readonly jobs: readonly PlannedJobOf<D>[];
  /** The same jobs, made one at a time from their index (src/spec/job-grid.ts); absent in a hand-made plan. */
  readonly grid?: JobGrid<D>;
  /** What `plan` and `run` print before anything else: the spec's warnings, and datasets that are duplicates. */
  readonly warnings: readonly string[];
  /**
   * Multi-seed plans (spec.seeds): the seeds, and each seed's datasets (their splits differ when the folds are
   * random). `datasets` are the first seed's; `jobs` are every seed's, seed by seed, each with its specSeed.
   */
  readonly seeds?: readonly { readonly seed: string; readonly datasets: readonly D[] }[];
}

export type PlannedJob = PlannedJobOf<PlannedDataset>;
export type Plan = PlanOf<PlannedDataset>;
/** Jobs and datasets without the datasets' rows: what `report`, `status` and `plan` need. */
export type PlanSummary = PlanOf<PlannedDatasetSummary>;
export type PlannedJobSummary = PlannedJobOf<PlannedDatasetSummary>;

/** The largest grid planned without `--max-jobs`: 10⁷ jobs took minutes and gigabytes just to plan. */
const DEFAULT_MAX_JOBS = 1_000_000;

interface PlanOptions {
  /** Refuse a grid of more jobs than this (default DEFAULT_MAX_JOBS). */
  readonly maxJobs?: number;
}

/** The plan `run` executes: every dataset read (or taken from this process's memory) and split. */
export function buildPlan(spec: ExperimentSpec, opts: PlanOptions = {}): Plan {
  return planWith(spec, opts, true) as Plan;
}

/**
 * The same jobs (keys, seeds, folds) and dataset facts without the rows: a dataset whose file is unchanged
 * since a plan recorded its facts is not read at all (see planDataset). For commands that run no learner.
 */
export function buildPlanSummary(spec: ExperimentSpec, opts: PlanOptions = {}): PlanSummary {
  return planWith(spec, opts, false);
}

/**
 * One plan per master seed when the spec has several (spec.seeds), concatenated: each seed's plan is exactly
 * the plan of the spec with `seed:` set to it, so its jobs have the keys a single-seed run of that seed has.
 */
function planWith(spec: ExperimentSpec, opts: PlanOptions, withRows: boolean): PlanSummary {
  if (spec.seeds === undefined) return planOneSeed(spec, opts, withRows);
  const { seeds: _seeds, ...one } = spec;
  const maxJobs = opts.maxJobs ?? DEFAULT_MAX_JOBS;
  const plans: PlanSummary[] = [];
  const grid = new JobGrid<PlannedDatasetSummary>(spec.methods);
  for (const seed of spec.seeds) {
    const p = planOneSeed({ ...one, seed }, opts, withRows);
    const n = p.grid!.size;
    if (n * spec.seeds.length > maxJobs) {
      throw new UserError(
        `${spec.file}: the grid has ${(n * spec.seeds.length).toLocaleString('en-US')} jobs (${spec.seeds.length} seeds × ${n.toLocaleString('en-US')}), ` +
          `more than the limit of ${maxJobs.toLocaleString('en-US')}; shrink the spec or raise the limit with --max-jobs`,
      );
    }
    grid.concat(p.grid!, seed);
    plans.push(p);
  }
  return withGrid(
    {
      spec,
      datasets: plans[0].datasets,
      warnings: [...new Set(plans.flatMap((p) => p.warnings))],
      seeds: plans.map((p, i) => ({ seed: spec.seeds![i], datasets: p.datasets })),
    },
    grid,
  );
}

/** The plan with its grid, and `jobs` built from the grid when first read (then kept, like any field). */
function withGrid<D extends PlannedDatasetSummary>(
  plan: Omit<PlanOf<D>, 'jobs' | 'grid'>,
  grid: JobGrid<D>,
): PlanOf<D> {
  let jobs: readonly PlannedJobOf<D>[] | undefined;
  const out = { ...plan, grid } as PlanOf<D>;
  Object.defineProperty(out, 'jobs', { enumerable: true, get: () => (jobs ??= grid.toArray()) });
  return out;
}

function planOneSeed(spec: ExperimentSpec, opts: PlanOptions, withRows: boolean): PlanSummary {
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
  const foldsPerRepeat = foldsPerRepeatOf(r);
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
  const datasets: PlannedDatasetSummary[] = [];
  // Every dataset is checked before any error is thrown, so one run of `plan` lists all that fail.
  const failures: string[] = [];
  // In the spec's order (a group's members in name order): a researcher lists the cheap datasets first, and
  // the jobs run in plan order. Job keys and seeds are content, so the order changes no number.
  for (const { handle, where, userFile, declared } of handles.values()) {
    try {
      const d = planDataset(spec, handle, where, userFile, byContent, warnings, declared, withRows);
      if (d) datasets.push(d);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      failures.push(e.message);
    }
  }
  if (failures.length === 1) throw new UserError(failures[0]);
  if (failures.length > 1) throw new UserError(`${failures.length} datasets fail:\n  ${failures.join('\n  ')}`);

  // The jobs: datasets as listed, then repeat, fold and method (src/spec/job-grid.ts makes each from its index).
  const grid = new JobGrid<PlannedDatasetSummary>(spec.methods);
  for (const d of datasets) grid.add(spec, d);
  if (grid.size > maxJobs) {
    throw new UserError(
      `${spec.file}: the grid has ${grid.size.toLocaleString('en-US')} jobs, more than the limit of ${maxJobs.toLocaleString('en-US')}; shrink the spec or raise the limit with --max-jobs`,
    );
  }
  return withGrid({ spec, datasets, warnings }, grid);
}

/**
 * The facts of a planned dataset that come from its rows (everything in PlannedDatasetSummary but the handle
 * and the spec's own flags), as the plan-dataset cache holds them.
 */
type DatasetFacts = Pick<
  PlannedDatasetSummary,
  | 'rows'
  | 'attributes'
  | 'classes'
  | 'splitKey'
  | 'repeats'
  | 'folds'
  | 'foldSizes'
  | 'className'
  | 'columns'
  | 'classLabels'
  | 'droppedRows'
>;

/** Cache kind of DatasetFacts; the number changes with their layout or with how they are computed. */
const FACTS_KIND = 'plan-dataset-1';

/**
 * The cache key of a dataset's facts as a function of the file's sha256: the key holds everything the facts
 * are computed from. The file's content (its sha256), the dataset as the spec names and declares it, the
 * options that shape the split (missing values, the resampling, the seed, and a folds file's own content,
 * hashed once per dataset), and the results version; the cache adds bnclab's version. Undefined when a folds
 * file cannot be read: planning it reports the error.
 */
function factsKeyOf(spec: ExperimentSpec, handle: DatasetHandle): (sha256: string) => string | undefined {
  let foldFileSha: string | null | undefined;
  return (sha256) => {
    if (foldFileSha === undefined) {
      const foldFile = foldFilePath(spec.resampling, handle.name, spec.dir);
      try {
        // the recorded hash of an unchanged file, else the file hashed (its bytes are not kept)
        foldFileSha =
          foldFile === undefined
            ? null
            : readFileInPieces(
                foldFile,
                () => false,
                () => true,
              );
      } catch {
        return undefined;
      }
    }
    return contentCacheKey(
      FACTS_KIND,
      canonicalJson({
        v: RESULTS_VERSION,
        sha256,
        handle,
        missing: spec.preprocessing.missing,
        resampling: spec.resampling,
        seed: spec.seed,
        foldFileSha,
      }),
    );
  };
}

/** Recorded facts of an unchanged file, or undefined (file never planned, changed, or cache off). */
function cachedFacts(
  handle: DatasetHandle,
  keyOf: (sha256: string) => string | undefined,
): { sha256: string; facts: DatasetFacts } | undefined {
  const sha256 = cachedFileHash(handle.file);
  // A registry checksum that the file no longer matches is reported by reading it (loadDataset).
  if (sha256 === undefined || (handle.sha256 !== '' && handle.sha256 !== sha256)) return undefined;
  const key = keyOf(sha256);
  const text = key === undefined ? undefined : readContent(FACTS_KIND, key);
  if (text === undefined) return undefined;
  try {
    return { sha256, facts: JSON.parse(text) as DatasetFacts };
  } catch {
    return undefined; // a damaged entry: read the file
  }
}

/**
 * A fold with no training rows (a folds file that puts every row in one fold) would fit on nothing and score
 * the prior: an input error naming the dataset, repeat and fold.
 */
function requireTrainingRows(where: string, handle: DatasetHandle, sizes: readonly (readonly FoldSize[])[]): void {
  sizes.forEach((repeat, r) =>
    repeat.forEach((s, f) => {
      if (s.train === 0) {
        throw new UserError(
          `${where}: dataset ${handle.name} (${handle.file}): repeat ${r + 1} fold ${f + 1} has no training rows ` +
            `(all ${s.test} rows are its test rows${sizes[0].length === 1 ? ': the folds file puts every row in one fold' : ''}); give the rows at least two folds`,
        );
      }
    }),
  );
}

/** Rows trained and tested on per repeat and fold, one pass over each repeat's assignment. */
function foldSizesOf(split: SplitInstance): FoldSize[][] {
  return split.assignment.map((a) => {
    const test = new Array<number>(split.folds).fill(0);
    let used = 0;
    for (let i = 0; i < a.length; i++) {
      const f = a[i];
      if (f === EXCLUDED) continue;
      used++;
      if (f >= 0) test[f]++; // -1: a row never tested, always trained on
    }
    return test.map((t) => ({ train: used - t, test: t }));
  });
}

/**
 * Check and summarise one dataset, with its rows and split when `withRows`; undefined when it duplicates one
 * already planned. Without rows, facts recorded by an earlier plan of the unchanged file are used when
 * there are any; otherwise the file is read and split as for a run, and its facts recorded.
 */
function planDataset(
  spec: ExperimentSpec,
  handle: DatasetHandle,
  where: string,
  userFile: boolean,
  byContent: Map<string, string>,
  warnings: string[],
  declared: boolean,
  withRows: boolean,
): PlannedDatasetSummary | undefined {
  const keyOf = factsKeyOf(spec, handle);
  const cached = withRows ? undefined : cachedFacts(handle, keyOf);
  let loaded: { table: RawTable; sha256: string } | undefined;
  let sha256: string;
  if (cached) sha256 = cached.sha256;
  else {
    try {
      loaded = loadDataset(handle);
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`${where}: ${e.message}`);
      throw e;
    }
    sha256 = loaded.sha256;
  }
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
  const columns = cached
    ? cached.facts.columns
    : loaded!.table.columns.map((c) => ({
        name: c.name,
        type: c.type,
        values: c.type === 'categorical' ? c.labels.length : c.distinct.length,
      }));
  if (spec.preprocessing.discretize.method === 'none') {
    const numeric = columns.find((c) => c.type === 'numeric');
    if (numeric) {
      throw new UserError(`${where}: ${undiscretizedColumnMessage(handle.name, numeric.name)}`);
    }
  }
  const flags = {
    handle: { ...handle, sha256 },
    userFile,
    classDeclared: handle.classColumn !== undefined,
    ...(declared ? { declaredColumns: { types: handle.columnTypes ?? {}, ignore: handle.ignore ?? [] } } : {}),
  };
  if (cached) {
    requireTrainingRows(where, handle, cached.facts.foldSizes);
    return { ...cached.facts, ...flags };
  }

  const table = loaded!.table;
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
  const facts: DatasetFacts = {
    rows: table.n,
    attributes: table.columns.length,
    classes: table.classLabels.length,
    splitKey: splitContentKey(split),
    repeats: split.repeats,
    folds: split.folds,
    foldSizes: foldSizesOf(split),
    className: table.className,
    columns,
    classLabels: table.classLabels,
    droppedRows: table.droppedRows,
  };
  requireTrainingRows(where, handle, facts.foldSizes);
  // Folds from a file may leave a class out of a training fold: said once per dataset (docs/spec.md).
  if (typeof spec.resampling.folds !== 'number') {
    const lacking = foldsMissingAClass(split, table.classColumn, table.classLabels.length);
    if (lacking.length) {
      const first = lacking[0];
      warnings.push(
        `${where}: dataset ${handle.name}: class '${table.classLabels[first.classes[0]]}' has no training rows in repeat ${first.repeat + 1} fold ${first.fold + 1}` +
          `${lacking.length > 1 ? ` (and ${lacking.length - 1} more folds lack a class)` : ''}; a method can only give it its prior probability there (0 with mle)`,
      );
    }
  }
  // Recorded by every plan that read the file, `run`'s included, so the report after a run reads nothing.
  const key = keyOf(sha256);
  const text = JSON.stringify(facts);
  // (not rewritten when already there: a repeated run then writes nothing)
  if (key !== undefined && readContent(FACTS_KIND, key) !== text) writeContent(FACTS_KIND, key, text);
  if (!withRows) return { ...facts, ...flags };
  // In shared memory, like the table's columns: every job's payload carries them to a worker thread uncopied;
  // one byte a row for up to 127 folds.
  split = { ...split, assignment: split.assignment.map((a) => narrowAssignment(a, true)) };
  const planned: PlannedDataset = { ...facts, ...flags, split, table };
  return planned;
}

/**
 * What bnclab chose for a dataset it does not ship: the class column (and why), rows dropped for a missing
 * class, and the type inferred for each column. One line; `detail` adds a line per column.
 */
export function describeColumns(d: PlannedDatasetSummary, detail: boolean): string[] {
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
