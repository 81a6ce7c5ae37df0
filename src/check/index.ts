/**
 * `bnclab baseline` and `bnclab check`: run (or reuse) a spec's grid and record it as a baseline, or compare
 * it with one. By default the grid runs in a fresh temporary database, so the numbers are those of the code
 * as it is now (stored results are keyed by content, not by code, and would hide a regression); `--db`
 * reuses or extends a database instead.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadSpecFile, type ExperimentSpec } from '../spec/load.js';
import { runExperiment, type RunSummary } from '../runner/run.js';
import { ResultStore, type ResultRow } from '../store/db.js';
import { EXIT, UserError } from '../util/errors.js';
import { makeBaseline, readBaseline, writeBaseline, gridHash, type BaselineFile } from './baseline.js';
import { checkResults, DEFAULT_CHECK, type CheckOptions, type CheckResult } from './compare.js';
import { renderJunit, renderMarkdown, renderText } from './output.js';

export * from './baseline.js';
export * from './compare.js';
export { renderJunit, renderMarkdown, renderText } from './output.js';

interface GridOptions {
  /** Reuse (and extend) this database; default: a fresh temporary one, removed afterwards. */
  readonly db?: string;
  readonly workers?: number;
  readonly quiet?: boolean;
  readonly progress?: { write(s: string): unknown; isTTY?: boolean };
}

interface Grid {
  readonly spec: ExperimentSpec;
  readonly rows: ResultRow[];
  readonly run: RunSummary;
  readonly failed: readonly { dataset: string; method: string; repeat: number; fold: number; error: string }[];
  /** Per dataset: content hash and split key. */
  readonly datasets: Record<string, { sha256: string; split: string }>;
}

async function runGrid(specFile: string, o: GridOptions): Promise<Grid> {
  const { spec } = loadSpecFile(specFile);
  const tmp = o.db ? undefined : mkdtempSync(join(tmpdir(), 'bnclab-check-'));
  const db = o.db ? resolve(o.db) : join(tmp!, `${spec.name}.duckdb`);
  try {
    const run = await runExperiment(specFile, { db, workers: o.workers, quiet: o.quiet, progress: o.progress });
    if (run.interrupted) throw new UserError('interrupted', EXIT.interrupted);
    const store = await ResultStore.open(db, { readOnly: true });
    let rows: ResultRow[];
    let failed: Grid['failed'];
    // The spec's own jobs, by key: with --db a database may also hold jobs that other specs of this name
    // registered (registration adds, it never forgets), and a baseline or check is about this spec.
    const jobs = run.plan.jobs.map((j) => ({ key: j.key, dataset: j.dataset.handle.name, method: j.method.label }));
    try {
      rows = await store.resultsOf(spec.name, jobs);
      failed = await store.failedJobsOf(jobs);
    } finally {
      store.close();
    }
    const datasets: Record<string, { sha256: string; split: string }> = {};
    for (const d of run.plan.datasets) datasets[d.handle.name] = { sha256: d.handle.sha256, split: d.splitKey };
    return { spec, rows, run, failed, datasets };
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

interface BaselineRun {
  readonly file: string;
  readonly baseline: BaselineFile;
  /** One line per failed job (dataset, method, repeat, fold: error); no baseline is written then. */
  readonly failedJobs: readonly string[];
}

/** Run the grid and write the baseline; refuses when a job failed (a baseline must be complete). */
export async function recordBaseline(specFile: string, out: string, o: GridOptions = {}): Promise<BaselineRun> {
  const grid = await runGrid(specFile, o);
  const failedJobs = grid.failed.map(
    (f) => `${f.dataset} × ${f.method}, repeat ${f.repeat}, fold ${f.fold}: ${f.error}`,
  );
  const baseline = makeBaseline(grid.spec, specFile, grid.rows, grid.datasets);
  const file = resolve(out);
  if (failedJobs.length === 0) writeBaseline(file, baseline);
  return { file, baseline, failedJobs };
}

interface CheckRun {
  readonly result: CheckResult;
  readonly text: string;
  readonly markdownFile: string;
  readonly junitFile: string;
}

interface CheckCommandOptions extends GridOptions, Partial<CheckOptions> {
  /** Folder for check.md and junit.xml; default results/<name>/check/. */
  readonly out?: string;
  /** Append the Markdown summary to this file (GitHub Actions: $GITHUB_STEP_SUMMARY). */
  readonly stepSummary?: string;
}

export async function runCheck(specFile: string, baselineFile: string, o: CheckCommandOptions = {}): Promise<CheckRun> {
  const baseline = readBaseline(baselineFile);
  const options: CheckOptions = {
    tolerance: o.tolerance ?? DEFAULT_CHECK.tolerance,
    alpha: o.alpha ?? DEFAULT_CHECK.alpha,
    metrics: o.metrics ?? DEFAULT_CHECK.metrics,
    anyChange: o.anyChange ?? DEFAULT_CHECK.anyChange,
  };
  const { spec } = loadSpecFile(specFile);
  if (spec.name !== baseline.experiment) {
    throw new UserError(
      `${baselineFile}: the baseline is for experiment '${baseline.experiment}', the spec is '${spec.name}'`,
    );
  }
  const grid = await runGrid(specFile, o);
  const splitsMatch = new Map<string, boolean>();
  for (const [name, d] of Object.entries(grid.datasets)) {
    const b = baseline.datasets?.[name];
    if (b) splitsMatch.set(name, b.sha256 === d.sha256 && b.split === d.split);
  }
  const result = checkResults(baseline, grid.rows, options, splitsMatch);
  const notes = [...result.notes];
  // Say why folds differ when the reason is known: the data file itself changed.
  for (const [name, d] of Object.entries(grid.datasets)) {
    const b = baseline.datasets?.[name];
    if (b && b.sha256 !== d.sha256) {
      notes.unshift(
        `the data file of ${name} changed since the baseline: sha256 ${b.sha256.slice(0, 12)}… then, ${d.sha256.slice(0, 12)}… now`,
      );
    }
  }
  if (baseline.spec_hash !== gridHash(grid.spec))
    notes.unshift("the spec's grid differs from the one the baseline was recorded with");
  if (grid.failed.length > 0) {
    const f = grid.failed[0];
    notes.unshift(`${grid.failed.length} job(s) failed, e.g. ${f.dataset} × ${f.method} fold ${f.fold}: ${f.error}`);
  }
  const final: CheckResult = { ...result, notes };
  const dir = o.out ? resolve(o.out) : resolve(process.cwd(), 'results', spec.name, 'check');
  mkdirSync(dir, { recursive: true });
  const markdown = renderMarkdown(final, baselineFile);
  const markdownFile = join(dir, 'check.md');
  const junitFile = join(dir, 'junit.xml');
  writeFileSync(markdownFile, markdown);
  writeFileSync(junitFile, renderJunit(final, baselineFile));
  if (o.stepSummary) appendFileSync(o.stepSummary, markdown + '\n');
  return { result: final, text: renderText(final, baselineFile), markdownFile, junitFile };
}
