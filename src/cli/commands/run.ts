import type { Command } from '../command.js';
import { onePositional, intOption, numberOption } from '../command.js';

export const runCommand: Command = {
    summary: 'run the jobs of a spec that are not done yet, store them, write the report',
    usage: 'bnclab run <spec.yaml> [--workers N] [--db FILE] [--job-timeout SEC] [--fail-fast] [--rerun-failed] [--save-predictions] [--shard I/N]',
    options: {
      workers: { type: 'string' },
      db: { type: 'string' },
      'job-timeout': { type: 'string' },
      'fail-fast': { type: 'boolean' },
      'rerun-failed': { type: 'boolean' },
      'save-predictions': { type: 'boolean' },
      'no-report': { type: 'boolean' },
      quiet: { type: 'boolean' },
      shard: { type: 'string' },
    },
    help: `Options:
  --workers N         worker threads (default: the machine's available parallelism)
  --db FILE           results database (default: results/<spec name>.duckdb)
  --job-timeout SEC   record a job as failed when it runs longer than SEC seconds (default: no limit)
  --fail-fast         start no new job after the first failure
  --rerun-failed      run again the jobs that failed in earlier runs
  --save-predictions  keep every test row's class probabilities (table predictions)
  --no-report         do not write results/<name>/report.md and report.csv
  --quiet             no progress output
  --shard I/N         run only shard I (1-based) of N: a deterministic partition of the whole plan balanced by
                      expected cost (the same on every machine); use one --db per shard, then 'bnclab merge'.
                      Writes no report (a shard holds part of the results). See docs/cluster.md.

Jobs are keyed by their content (dataset, preprocessing, split, fold, structure, estimator, seed): a second
run of the same spec runs nothing, a grown spec runs only the new jobs, and a killed run resumes.`,
    async run(pos, v) {
      const spec = onePositional(pos, this.usage);
      const { runExperiment } = await import('../../runner/run.js');
      const { parseShard } = await import('../../spec/shard.js');
      const shard = v['shard'] !== undefined ? parseShard(String(v['shard'])) : undefined;
      const summary = await runExperiment(spec, {
        workers: intOption(v['workers'], '--workers', 1),
        db: v['db'] as string | undefined,
        jobTimeout: numberOption(v['job-timeout'], '--job-timeout'),
        failFast: Boolean(v['fail-fast']),
        rerunFailed: Boolean(v['rerun-failed']),
        savePredictions: v['save-predictions'] ? true : undefined,
        quiet: Boolean(v['quiet']),
        shard,
      });
      const log = (s: string): void => void process.stdout.write(s + '\n');
      log(
        `${summary.experiment}: ${summary.succeeded} jobs done, ${summary.failed} failed, ${summary.alreadyDone} already done` +
          (summary.previouslyFailed ? `, ${summary.previouslyFailed} failed earlier (--rerun-failed to retry)` : '') +
          (summary.total - summary.alreadyDone - summary.ran - summary.previouslyFailed > 0
            ? `, ${summary.total - summary.alreadyDone - summary.ran - summary.previouslyFailed} not run`
            : ''),
      );
      log(`results: ${summary.dbPath}`);
      if (shard && !v['no-report']) log(`report:  none for a shard; merge the shard databases ('bnclab merge') and run 'bnclab report'`);
      if (!v['no-report'] && !summary.interrupted && !shard) {
        // The report stack is loaded only when a report is written.
        const { writeExperimentReport } = await import('../../report/index.js');
        const r = await writeExperimentReport(spec, { db: summary.dbPath });
        log(`report:  ${r.markdown}`);
        log(`         ${r.html}`);
        log(`         ${r.csv}`);
      }
      if (summary.interrupted) return 130;
      return summary.failed > 0 || summary.previouslyFailed > 0 ? 1 : 0;
    },
  };
