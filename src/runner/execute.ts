/**
 * Runs one job: preprocess (fitted on the training rows only) → learn structure → fit estimator →
 * predict the test rows → metrics. Pure given the payload; the runner calls it inside a worker thread.
 */
import { performance } from 'node:perf_hooks';
import { datasetFormat, loadDataset } from '../datasets/load.js';
import { fitPreprocessor, type Preprocessor } from '../datasets/preprocess.js';
import { arcs, type Structure } from '../bn/structure.js';
import {
  attributeCount,
  dataBytes,
  denseViewByteCount,
  labelledRows,
  rowList,
  rowViewOf,
  type DiscreteData,
  type RowSet,
} from '../bn/data.js';
import type { RawTable } from '../datasets/table.js';
import { computeMetricValues } from '../metrics/all.js';
import {
  getBaseline,
  getEstimator,
  getStructure,
  type LearnContext,
  type MethodInfo,
  type Model,
  type Params,
} from '../registry.js';
import { UserError } from '../util/errors.js';
import { canonicalJsonOnce } from '../util/hash.js';
import { RootStream, type Rng, type StreamSource } from '../util/rng.js';
import { EXCLUDED, testRows } from '../folds/split.js';
import type { JobOutcome } from '../store/db.js';
import type { JobMethod, JobPayload, LearnInput } from './job.js';
import { selectAndFit } from './select.js';
import { EM_DEFAULTS, fitByEm } from '../bn/em.js';
import '../methods.js';
import { releaseGarbage, releaseYoungGarbage } from '../util/gc.js';
import { hasNumericColumn, readFoldCuts, writeFoldCuts } from '../datasets/fold-cuts.js';

/**
 * Preprocessed folds are reused by every method of the same dataset/fold inside one worker: at most 32, and
 * at most FOLD_CACHE_BYTES of them (or the last one alone when it is read whole, see DENSE_VIEW_BYTES), plus
 * each one's coded test rows when small (below). A fold's training rows are a view of the table (the cut points and code
 * maps its preprocessing fitted, and the list of the rows it leaves out: 4 MiB of a 10^7-row fold, so the
 * cache holds one such fold); its test rows are coded for each job and dropped with it, so a worker holds
 * the test rows of its job only, except a small fold's (at most SMALL_TEST_BYTES coded), kept with the fold:
 * a sweep of 100 estimator settings on iris coded the same 15 rows 100 times.
 */
const foldCache = new Map<
  string,
  {
    pre: Preprocessor;
    train: DiscreteData;
    trainRows: RowSet;
    testIndex: Int32Array;
    /** The test rows coded, when they are small enough to keep (SMALL_TEST_BYTES); made by the first job. */
    test?: DiscreteData;
    bytes: number;
  }
>();
const FOLD_CACHE_LIMIT = 32;
const FOLD_CACHE_BYTES = 8 << 20;
/** A fold's coded test rows are kept with it up to this size (their codes, 4 bytes a cell). */
const SMALL_TEST_BYTES = 64 << 10;

/** Tables handed over by the coordinator (in shared memory), one per dataset content, kept like loadDataset's. */
const sharedTables = new Map<string, RawTable>();

/** The table sharedTables gave for a payload's table, by the object the payload holds (the worker's copy). */
const keptTables = new WeakMap<RawTable, RawTable>();

/** The job's table: the coordinator's shared copy when the payload has one, else read by this worker. */
function tableOf(p: Pick<LearnInput, 'dataset' | 'table'>): RawTable {
  if (!p.table) return loadDataset(p.dataset).table;
  let t = keptTables.get(p.table);
  if (t) return t;
  const d = p.dataset;
  const key = JSON.stringify([d.sha256, d.classColumn ?? null, d.columnTypes ?? null, d.ignore ?? null]);
  t = sharedTables.get(key);
  if (!t) {
    // Keep the first copy received: later payloads carry new views of the same shared memory.
    t = p.table;
    sharedTables.set(key, t);
  }
  keptTables.set(p.table, t);
  return t;
}

/**
 * Training and prediction times from the clock before fitting (t1), after fitting (t2) and after predicting
 * (t3). A model that learns only once it is given the test rows (an external program) spends its training in
 * the prediction call: all of it is training time, so the report's training times compare learners.
 */
export function fitPredictTimes(
  model: Model,
  t1: number,
  t2: number,
  t3: number,
): { trainMs: number; predictMs: number } {
  return model.learnsAtPrediction ? { trainMs: t3 - t1, predictMs: 0 } : { trainMs: t2 - t1, predictMs: t3 - t2 };
}

export function executeJob(p: JobPayload, signal?: AbortSignal): JobOutcome {
  let preprocessMs = 0;
  let trainMs = 0;
  let predictMs = 0;
  try {
    const fold = preparedFold(p);
    preprocessMs = fold.preMs;
    const t1 = performance.now();
    const { model, structure } = learn(p, fold.train, new RootStream(p.seed), signal, fold);
    const t2 = performance.now();
    const { probs, test } = predictTest(model, fold, p.kind === 'baseline');
    const t3 = performance.now();
    ({ trainMs, predictMs } = fitPredictTimes(model, t1, t2, t3));
    const names = [...fold.train.names, fold.train.className];
    const learnedArcs = !structure || structure.members ? undefined : arcs(structure);
    return {
      key: p.key,
      status: 'done',
      metrics: {
        ...computeMetricValues(probs, test.classColumn, test.classCard),
        class_labels: test.classLabels,
        n_train: fold.train.n,
        n_test: test.n,
      },
      preprocessMs,
      trainMs,
      predictMs,
      arcs: learnedArcs?.map(([a, b]) => [names[a], names[b]] as const),
      featureArcs: learnedArcs?.filter(([a]) => a !== structure!.m).length,
      structureInfo: structure?.info ? { ...structure.info } : undefined,
      predictions: p.savePredictions
        ? { rows: fold.testIndex, truth: test.classColumn, probs, classCard: test.classCard }
        : undefined,
    };
  } catch (e) {
    return { key: p.key, status: 'error', error: errorText(e), preprocessMs, trainMs, predictMs };
  }
}

/**
 * Learn the structure and fit the estimator (or the baseline) of a job's method on `train`; also `bnclab fit`.
 * Every random stream is derived from `rng` (the job's root: RootStream), never drawn from it. `fold` (the
 * split's training and test rows) lets a baseline read the unpreprocessed rows (`external`).
 */
export function learn(
  p: JobMethod & LearnInput,
  train: DiscreteData,
  rng: StreamSource,
  signal?: AbortSignal,
  fold?: { trainRows: RowSet; testIndex: Int32Array },
): { model: Model; structure?: Structure } {
  if (p.kind === 'baseline') {
    const baseline = getBaseline(p.baseline.id);
    if (!baseline) throw new Error(`unknown baseline '${p.baseline.id}'`);
    checkAttributes(baseline, p.dataset.name, train);
    const rawFold = fold
      ? () => ({ table: tableOf(p), train: rowList(fold.trainRows), test: fold.testIndex })
      : undefined;
    const ctx = { rng: rng.derive('baseline'), signal, dir: p.specDir, rawFold };
    return { model: baseline.fit(train, p.baseline.params, ctx) };
  }
  const learner = getStructure(p.structure.id);
  if (!learner) throw new Error(`unknown structure '${p.structure.id}'`);
  checkAttributes(learner, p.dataset.name, train);
  const estimator = getEstimator(p.estimator.id);
  if (!estimator) throw new Error(`unknown estimator '${p.estimator.id}'`);
  // One structure + estimator fit; `select:` calls it per candidate and inner fold, then once more.
  const fitOne = (d: DiscreteData, sp: Params, ep: Params): { model: Model; structure: Structure } => {
    const structure = learner.learn(d, sp, derivedOnUse(rng, 'structure', signal));
    const estimatorCtx = derivedOnUse(rng, 'estimator', signal);
    const model =
      p.preprocessing.missing === 'em'
        ? fitByEm(d, structure, estimator, ep, p.preprocessing.em ?? EM_DEFAULTS, estimatorCtx)
        : estimator.fit(d, structure, ep, estimatorCtx);
    return { model, structure };
  };
  if (p.select) return selectAndFit(train, p.select, p.structure.params, p.estimator.params, rng, fitOne, signal);
  return fitOne(train, p.structure.params, p.estimator.params);
}

/**
 * A learner's context whose random stream is `source.derive(purpose)`, made when the learner first reads it:
 * most learners draw nothing, and each stream costs a sha256 (a run of short jobs paid it twice a job). The
 * source is never drawn from, so the stream is the same whenever it is derived.
 */
function derivedOnUse(source: StreamSource, purpose: string, signal: AbortSignal | undefined): LearnContext {
  let stream: Rng | undefined;
  return {
    get rng() {
      stream ??= source.derive(purpose);
      return stream;
    },
    signal,
  };
}

/** A method that declares `maxAttributes` refuses a wider dataset, naming both. */
function checkAttributes(info: MethodInfo, dataset: string, train: DiscreteData): void {
  if (info.maxAttributes !== undefined && attributeCount(train) > info.maxAttributes) {
    throw new UserError(
      `${info.id} handles at most ${info.maxAttributes} attributes; ${dataset} has ${attributeCount(train)}`,
    );
  }
}

export function preparedFold(p: JobPayload) {
  // The spec's preprocessing is one object a run, sent to the worker once: its text is made once.
  const cacheKey = `${p.dataset.sha256}|${p.splitKey}|${p.repeat}|${p.fold}|${canonicalJsonOnce(p.preprocessing)}`;
  const t0 = performance.now();
  const table = tableOf(p);
  let fold = foldCache.get(cacheKey);
  const testIndex = fold?.testIndex ?? testRows({ repeats: 1, folds: 0, assignment: [p.assignment] }, 0, p.fold);
  if (testIndex.length === 0) throw new Error(`fold ${p.fold} of repeat ${p.repeat} has no test rows`);
  // A large previous job's garbage (its test rows' numbers, classes and posteriors, as large as this job's)
  // is collected before this job allocates the same again: left to V8, a worker held the data of two or
  // three folds of 10^7 rows at once.
  releaseGarbage(2 * testIndex.length * (8 + 8 * table.classLabels.length), 32 << 20);
  if (!fold) {
    // The training rows: every row neither in this fold's test rows nor excluded (as trainRows lists them),
    // read from the split's own column instead of a list of 4 bytes a row (34 MiB of a 10^7-row fold).
    const trainRows = labelledRows(p.assignment, [p.fold, EXCLUDED]);
    const pre = fitFold(p, table, trainRows);
    // The training rows as a view of the table (see Preprocessor.view): counted in place by the learners that
    // count through it, copied only for those that read the columns.
    const train = pre.view(table, pre.trainSet());
    fold = { pre, train, trainRows, testIndex, bytes: dataBytes(train) + trainRows.others.byteLength };
    let cached = fold.bytes;
    for (const e of foldCache.values()) cached += e.bytes;
    for (const [k, e] of foldCache) {
      if (cached <= FOLD_CACHE_BYTES) break;
      foldCache.delete(k);
      cached -= e.bytes;
    }
    if (foldCache.size >= FOLD_CACHE_LIMIT) foldCache.delete(foldCache.keys().next().value!);
    // A small fold is read whole (its coded columns and row list, counted in its bytes: DENSE_VIEW_BYTES)
    // and kept even above the limit, then alone: the next job of the fold does not code it again.
    const view = rowViewOf(train);
    const whole = view !== undefined && denseViewByteCount(view) > 0;
    if (fold.bytes <= FOLD_CACHE_BYTES || whole) foldCache.set(cacheKey, fold);
  }
  const { pre } = fold;
  const entry = fold;
  const keepTest = testIndex.length * (attributeCount(fold.train) + 1) * 4 <= SMALL_TEST_BYTES;
  return {
    train: fold.train,
    trainRows: fold.trainRows,
    testIndex,
    /** The test rows (or some of them) coded as the training rows are; a small fold's whole test set is kept. */
    testData: (rows: Int32Array = testIndex): DiscreteData => {
      if (rows !== testIndex || !keepTest) return pre.transform(table, rows);
      entry.test ??= pre.transform(table, rows);
      return entry.test;
    },
    preMs: performance.now() - t0,
  };
}

/** The fold's preprocessing, its cut points from the cache folder when an earlier run fitted them (fold-cuts.ts). */
function fitFold(p: JobPayload, table: RawTable, trainRows: RowSet): Preprocessor {
  if (!hasNumericColumn(table)) return fitPreprocessor(table, trainRows, p.preprocessing);
  const d = p.dataset;
  const key = {
    sha256: d.sha256,
    format: datasetFormat(d),
    classColumn: d.classColumn,
    columnTypes: d.columnTypes,
    ignore: d.ignore,
    splitKey: p.splitKey,
    repeat: p.repeat,
    fold: p.fold,
    preprocessing: p.preprocessing,
  };
  const known = readFoldCuts(table, key);
  const pre = fitPreprocessor(table, trainRows, p.preprocessing, known);
  if (!known) writeFoldCuts(key, pre.cuts());
  return pre;
}

/** Test rows coded and predicted at a time by predictTest: at 10^7 rows a fold's are 10^6 (21 MiB coded). */
const PREDICT_CHUNK = 1 << 14;

/**
 * The posteriors of a fold's test rows. A network's posterior of a row depends on that row alone, so its
 * test rows are coded and predicted a chunk at a time (the same numbers as all at once); a baseline's are
 * predicted at once (an external program runs once a job).
 */
function predictTest(
  model: Model,
  fold: ReturnType<typeof preparedFold>,
  whole: boolean,
): { probs: Float64Array; test: Pick<DiscreteData, 'n' | 'classColumn' | 'classCard' | 'classLabels'> } {
  const n = fold.testIndex.length;
  if (whole || n <= PREDICT_CHUNK) {
    const test = fold.testData();
    return { probs: model.posterior(test), test };
  }
  const K = fold.train.classCard;
  const probs = new Float64Array(n * K);
  const classColumn = new Int32Array(n);
  for (let a = 0; a < n; a += PREDICT_CHUNK) {
    const part = fold.testData(fold.testIndex.subarray(a, Math.min(n, a + PREDICT_CHUNK)));
    const p = model.posterior(part);
    if (p.length !== part.n * K)
      throw new Error(`posterior of ${part.n} rows has ${p.length} entries, not ${part.n * K}`);
    probs.set(p, a * K);
    classColumn.set(part.classColumn, a);
    // Each chunk leaves about a megabyte of typed arrays (coded rows, scores): collected every 4 chunks,
    // not left to pile up over the 61 chunks of 10^6 test rows (up to 90 MiB more at the peak, measured).
    if ((a / PREDICT_CHUNK) % 4 === 3) releaseYoungGarbage();
  }
  // The chunks' garbage (coded rows, log scores, posteriors: some 57 MiB for 10^6 test rows) is collected
  // before the metrics allocate theirs.
  releaseGarbage(n * (fold.train.cards.length + 4 + 16 * K), 32 << 20);
  return { probs, test: { n, classColumn, classCard: K, classLabels: fold.train.classLabels } };
}

function errorText(e: unknown): string {
  if (e instanceof Error) {
    const where = e.stack
      ?.split('\n')
      .find((l) => l.includes('/src/'))
      ?.trim();
    return `${e.name === 'Error' || e.name === 'UserError' ? '' : `${e.name}: `}${e.message}${where && e.name !== 'UserError' ? ` (${where})` : ''}`;
  }
  return String(e);
}
