import type { Command } from '../command.js';
import { onePositional, intOption, numberOption, provisionalLine } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';
import type { RunSummary } from '../../runner/run.js';
import type { ShardSpec } from '../../spec/shard.js';

/** Node's timers hold at most 2³¹−1 ms (24.8 days); a longer limit would fire at once and fail every job. */
const MAX_JOB_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000);

function jobTimeoutOption(v: unknown): number | undefined {
  const s = numberOption(v, '--job-timeout');
  if (s !== undefined && s > MAX_JOB_TIMEOUT_S) {
    throw new UserError(
      `--job-timeout: at most ${MAX_JOB_TIMEOUT_S} seconds (24.8 days), got '${String(v)}'; 0 means no limit`,
    );
  }
  return s;
}

export const runCommand: Command = {
  summary: 'run the jobs of a spec that are not done yet, store them, write the report',
  usage:
    'bnclab run <spec.yaml> [--workers N] [--db FILE] [--job-timeout SEC] [--fail-fast] [--rerun-failed] [--rerun-stale] [--save-predictions] [--pdf] [--max-jobs N] [--seeds N] [--shard I/N] [--only AXIS=V,…]',
  options: {
    workers: { type: 'string' },
    db: { type: 'string' },
    'job-timeout': { type: 'string' },
    'fail-fast': { type: 'boolean' },
    'rerun-failed': { type: 'boolean' },
    'rerun-stale': { type: 'boolean' },
    'save-predictions': { type: 'boolean' },
    'no-report': { type: 'boolean' },
    pdf: { type: 'boolean' },
    quiet: { type: 'boolean' },
    'max-jobs': { type: 'string' },
    seeds: { type: 'string' },
    shard: { type: 'string' },
    only: { type: 'string' },
  },
  help: `Options:
  --workers N         worker threads (default: the machine's available parallelism)
  --db FILE           results database (default: results/<spec name>.duckdb)
  --job-timeout SEC   record a job as failed when it runs longer than SEC seconds (default: no limit)
  --fail-fast         start no new job after the first failure
  --rerun-failed      run again the jobs that failed in earlier runs
  --rerun-stale       recompute the jobs whose stored result was made by an older revision of their method
                      (without it they are counted and kept, and reports leave them out)
  --save-predictions  keep every test row's class probabilities (table predictions)
  --no-report         do not write results/<name>/report.md and report.csv
  --pdf               the report's figures also as one-page PDFs (figures/*.pdf)
  --quiet             no progress output
  --max-jobs N        refuse a grid of more than N jobs (default 1,000,000)
  --seeds N           run the grid under N master seeds: the spec's seed and the N − 1 integers after it
                      (the spec's seeds: list does the same for any seeds; docs/spec.md). Give 'report' the same --seeds
  --shard I/N         run only shard I (1-based) of N: a deterministic partition of the whole plan balanced by
                      expected cost (the same on every machine); use one --db per shard, then 'bnclab merge'.
                      Writes no report (a shard holds part of the results). See docs/cluster.md.
  --only AXIS=V,…     run only the jobs of this subset of the grid, stored as usual (the report marks the rest
                      as missing): dataset=, method= (label), structure=, estimator=, repeat=, fold= (0-based,
                      as 'plan --jobs' numbers them; fold=0-2 a range), job= (a key or its prefix), seed= (a
                      master seed of a multi-seed experiment); an axis named twice takes either value,
                      e.g. --only dataset=car,method=tan/dirichlet,fold=0

Results are stored in batches, one transaction each; progress counts stored results. The first Ctrl-C
(SIGINT or SIGTERM) starts no new job, stores every finished result and exits 130; a second one exits at once
(the jobs not stored run next time). Exit codes: 0 all jobs done, 1 some jobs failed, 2 bad input, 4 the
results database could not be opened or written (the results stored so far are kept; run again to complete
the rest), 5 the jobs are stored but the report could not be written, 130 interrupted.

Jobs are keyed by their content (dataset, preprocessing, split, fold, structure, estimator, seed): a second
run of the same spec runs nothing, a grown spec runs only the new jobs, and a killed run resumes.`,
  async run(pos, v) {
    const spec = onePositional(pos, this.usage);
    const { runExperiment } = await import('../../runner/run.js');
    const { parseShard } = await import('../../spec/shard.js');
    const shard = v['shard'] !== undefined ? parseShard(String(v['shard'])) : undefined;
    const { parseSubset } = await import('../../spec/subset.js');
    const only = v['only'] !== undefined ? parseSubset(String(v['only']), '--only') : undefined;
    const summary = await runExperiment(spec, {
      workers: intOption(v['workers'], '--workers', 1),
      db: v['db'] as string | undefined,
      jobTimeout: jobTimeoutOption(v['job-timeout']),
      failFast: Boolean(v['fail-fast']),
      rerunFailed: Boolean(v['rerun-failed']),
      rerunStale: Boolean(v['rerun-stale']),
      savePredictions: v['save-predictions'] ? true : undefined,
      quiet: Boolean(v['quiet']),
      maxJobs: intOption(v['max-jobs'], '--max-jobs', 1),
      seeds: intOption(v['seeds'], '--seeds', 1),
      shard,
      only,
      // The report reads from the run's own connection: opening the file again costs a second DuckDB start.
      keepStoreOpen: !v['no-report'] && !shard,
      // This process is the command's own: V8 may favour memory while the jobs run (util/v8-memory.ts).
      favourMemory: true,
    });
    try {
      return await afterRun(summary, spec, v, shard);
    } finally {
      summary.store?.close();
    }
  },
};

/** The summary lines, then the report (from the run's open database); the exit code. */
async function afterRun(
  summary: RunSummary,
  spec: string,
  v: Record<string, unknown>,
  shard: ShardSpec | undefined,
): Promise<number> {
  const log = (s: string): void => void process.stdout.write(s + '\n');
  log(
    `${summary.experiment}: ${summary.succeeded} jobs done, ${summary.failed} failed, ${summary.alreadyDone} already done` +
      (summary.previouslyFailed ? `, ${summary.previouslyFailed} failed earlier (--rerun-failed to retry)` : '') +
      (summary.stale
        ? `, ${summary.stale} stale (an older revision of their method; --rerun-stale to recompute)`
        : '') +
      (summary.total - summary.alreadyDone - summary.ran - summary.previouslyFailed - summary.stale > 0
        ? `, ${summary.total - summary.alreadyDone - summary.ran - summary.previouslyFailed - summary.stale} not run`
        : ''),
  );
  log(`results: ${summary.dbPath}`);
  if (shard && !v['no-report'])
    log(`report:  none for a shard; merge the shard databases ('bnclab merge') and run 'bnclab report'`);
  if (!v['no-report'] && !summary.interrupted && !shard) {
    // The report stack is loaded only when a report is written.
    const { writeExperimentReport } = await import('../../report/index.js');
    let r;
    try {
      r = await writeExperimentReport(spec, {
        db: summary.dbPath,
        spec: summary.spec,
        plan: summary.plan,
        store: summary.store,
        pdf: v['pdf'] === true,
        endsProcess: true,
      });
    } catch (e) {
      // The results are stored; only the report is missing. Say so, and how to retry it alone.
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      process.stderr.write(
        `bnclab: the results are stored, but the report could not be written: ${why}; fix that and run 'bnclab report ${spec}'\n`,
      );
      return EXIT.report;
    }
    log(`report:  ${r.markdown}`);
    log(`         ${r.html}`);
    log(`         ${r.csv}`);
    // The folders of the tables and figures, as the README lists them.
    if (r.tables.length) log(`         ${r.tables[0].replace(/[^/\\]+$/, '')}`);
    if (r.figures.length) log(`         ${r.figures[0].replace(/[^/\\]+$/, '')}`);
    const provisional = provisionalLine(r.verdicts, '         ');
    if (provisional) log(provisional.trimEnd());
  }
  if (summary.interrupted) return EXIT.interrupted;
  return summary.failed > 0 || summary.previouslyFailed > 0 ? EXIT.jobsFailed : EXIT.ok;
}
