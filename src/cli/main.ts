#!/usr/bin/env node
/**
 * bnclab command line. Exit codes: 0 ok, 1 some jobs failed (or a check failed), 2 usage or input error,
 * 130 interrupted. Input errors print one line, never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import { BNCLAB_VERSION } from '../version.js';

interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly help: string;
  run(positionals: string[], values: Record<string, unknown>): Promise<number>;
}

const commands: Record<string, Command> = {
  run: {
    summary: 'run the jobs of a spec that are not done yet, store them, write the report',
    usage: 'bnclab run <spec.yaml> [--workers N] [--db FILE] [--job-timeout SEC] [--fail-fast] [--rerun-failed] [--save-predictions]',
    options: {
      workers: { type: 'string' },
      db: { type: 'string' },
      'job-timeout': { type: 'string' },
      'fail-fast': { type: 'boolean' },
      'rerun-failed': { type: 'boolean' },
      'save-predictions': { type: 'boolean' },
      'no-report': { type: 'boolean' },
      quiet: { type: 'boolean' },
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

Jobs are keyed by their content (dataset, preprocessing, split, fold, structure, estimator, seed): a second
run of the same spec runs nothing, a grown spec runs only the new jobs, and a killed run resumes.`,
    async run(pos, v) {
      const spec = onePositional(pos, this.usage);
      const { runExperiment } = await import('../runner/run.js');
      const summary = await runExperiment(spec, {
        workers: intOption(v['workers'], '--workers', 1),
        db: v['db'] as string | undefined,
        jobTimeout: numberOption(v['job-timeout'], '--job-timeout'),
        failFast: Boolean(v['fail-fast']),
        rerunFailed: Boolean(v['rerun-failed']),
        savePredictions: v['save-predictions'] ? true : undefined,
        quiet: Boolean(v['quiet']),
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
      if (!v['no-report'] && !summary.interrupted) {
        // The report stack is loaded only when a report is written.
        const { writeExperimentReport } = await import('../report/index.js');
        const r = await writeExperimentReport(spec, { db: summary.dbPath });
        log(`report:  ${r.markdown}`);
        log(`         ${r.html}`);
        log(`         ${r.csv}`);
      }
      if (summary.interrupted) return 130;
      return summary.failed > 0 || summary.previouslyFailed > 0 ? 1 : 0;
    },
  },
  plan: {
    summary: 'show the job grid of a spec without running anything',
    usage: 'bnclab plan <spec.yaml> [--jobs]',
    options: { jobs: { type: 'boolean' } },
    help: `Options:
  --jobs   list every job (key, dataset, method, repeat, fold)`,
    async run(pos, v) {
      const file = onePositional(pos, this.usage);
      const { loadSpecFile } = await import('../spec/load.js');
      const { buildPlan } = await import('../spec/plan.js');
      const { spec } = loadSpecFile(file);
      const plan = buildPlan(spec);
      const out: string[] = [];
      out.push(`${spec.name}: ${plan.jobs.length} jobs`);
      out.push(`datasets (${plan.datasets.length}):`);
      for (const d of plan.datasets) {
        out.push(`  ${d.handle.name}  ${d.rows} rows, ${d.attributes} attributes, ${d.classes} classes; ${d.split.repeats} × ${d.split.folds} folds`);
      }
      out.push(`methods (${spec.methods.length}):`);
      for (const m of spec.methods) out.push(`  ${m.label}`);
      out.push(`preprocessing: discretize ${spec.preprocessing.discretize.method}${spec.preprocessing.discretize.bins ? ` (${spec.preprocessing.discretize.bins} bins)` : ''}, missing ${spec.preprocessing.missing}`);
      const r = spec.resampling;
      out.push(`resampling: ${r.method}${typeof r.folds === 'number' ? (r.method === 'cv' ? `, ${r.folds} folds` : '') : `, folds from ${r.folds.file}`}, ${r.repeats} repeat(s)${r.stratified ? ', stratified' : ''}${r.method === 'holdout' ? `, test fraction ${r.test_fraction}` : ''}`);
      if (v['jobs']) {
        out.push('jobs:');
        for (const j of plan.jobs) out.push(`  ${j.key}  ${j.dataset.handle.name}  ${j.method.label}  repeat ${j.repeat} fold ${j.fold}`);
      }
      process.stdout.write(out.join('\n') + '\n');
      return 0;
    },
  },
  report: {
    summary: 'write results/<name>/ (report.md, report.html, tables/*.tex|csv, figures/*.svg) from the stored results',
    usage: 'bnclab report <spec.yaml> [--db FILE] [--out DIR] [--control METHOD] [--alpha A] [--metrics LIST]',
    options: {
      db: { type: 'string' },
      out: { type: 'string' },
      control: { type: 'string' },
      alpha: { type: 'string' },
      metrics: { type: 'string' },
    },
    help: `Options:
  --db FILE         results database (default: results/<spec name>.duckdb)
  --out DIR         report folder (default: results/<spec name>/)
  --control METHOD  control method label for the post-hoc tests, or 'best' (overrides compare.control)
  --alpha A         significance level (overrides compare.alpha)
  --metrics LIST    comma-separated: accuracy, zero_one_loss, rmse, log_loss (overrides compare.metrics)

Reads only the database; never re-runs a learner. See docs/reports.md for the compare: and reference: sections.`,
    async run(pos, v) {
      const spec = onePositional(pos, this.usage);
      const { writeExperimentReport } = await import('../report/index.js');
      const r = await writeExperimentReport(spec, {
        db: v['db'] as string | undefined,
        out: v['out'] as string | undefined,
        control: v['control'] as string | undefined,
        alpha: numberOption(v['alpha'], '--alpha'),
        metrics: v['metrics'] === undefined ? undefined : (v['metrics'] as string).split(',').map((m) => m.trim()).filter(Boolean),
      });
      process.stdout.write(`report: ${r.markdown}\n        ${r.html}\n        ${r.csv}\n        ${r.tables.length} tables (tables/*.tex, *.csv), ${r.figures.length} figures (figures/*.svg)\n`);
      return 0;
    },
  },
  baseline: {
    summary: 'run a spec and record its results as a baseline for `bnclab check`',
    usage: 'bnclab baseline <spec.yaml> --out FILE [--db FILE] [--workers N] [--quiet]',
    options: { out: { type: 'string' }, db: { type: 'string' }, workers: { type: 'string' }, quiet: { type: 'boolean' } },
    help: `Options:
  --out FILE    where to write the baseline JSON (e.g. baselines/<name>.json)
  --db FILE     reuse (and extend) this results database; default: run in a fresh temporary database
  --workers N   worker threads
  --quiet       no progress output

Records per dataset × method the mean and the per-fold values of accuracy, 0-1 loss, RMSE and log loss,
with the hash of the spec's grid and the code version. Refuses (exit 1) when a job fails.`,
    async run(pos, v) {
      const spec = onePositional(pos, this.usage);
      if (typeof v['out'] !== 'string') throw new UserError(`baseline: --out FILE is required; usage: ${this.usage}`);
      const { recordBaseline } = await import('../check/index.js');
      const r = await recordBaseline(spec, v['out'], {
        db: v['db'] as string | undefined,
        workers: intOption(v['workers'], '--workers', 1),
        quiet: Boolean(v['quiet']),
      });
      if (r.failedJobs.length > 0) {
        const shown = r.failedJobs.slice(0, 5).map((f) => `  ${f}`).join('\n');
        process.stderr.write(`bnclab: ${r.failedJobs.length} job(s) failed; no baseline written:\n${shown}${r.failedJobs.length > 5 ? '\n  …' : ''}\n`);
        return 1;
      }
      process.stdout.write(`baseline: ${r.file} (${r.baseline.results.length} dataset × method results, spec ${r.baseline.spec_hash.slice(0, 12)}, bnclab ${r.baseline.code.bnclab})\n`);
      return 0;
    },
  },
  check: {
    summary: 'run a spec and fail (exit 1) when results are worse than a baseline (CI regression gate)',
    usage: 'bnclab check <spec.yaml> --baseline FILE [--tolerance POINTS] [--alpha A] [--metrics LIST] [--any-change] [--out DIR] [--db FILE] [--workers N] [--quiet]',
    options: {
      baseline: { type: 'string' },
      tolerance: { type: 'string' },
      alpha: { type: 'string' },
      metrics: { type: 'string' },
      'any-change': { type: 'boolean' },
      out: { type: 'string' },
      db: { type: 'string' },
      workers: { type: 'string' },
      quiet: { type: 'boolean' },
    },
    help: `Options:
  --baseline FILE     the baseline JSON written by 'bnclab baseline'
  --tolerance POINTS  allowed worsening of a mean, in points (0.01 of the metric: accuracy percentage points,
                      0.01 of RMSE); default 0
  --alpha A           level of the one-sided paired Wilcoxon test over folds; default 0.05
  --metrics LIST      comma-separated metrics to check; default accuracy,rmse
  --any-change        also fail when a mean is better by more than the tolerance (the baseline is stale)
  --out DIR           where to write check.md and junit.xml; default results/<spec name>/check/
  --db FILE           reuse (and extend) this results database; default: run in a fresh temporary database
  --workers N         worker threads
  --quiet             no progress output

Fails when any dataset × method is worse than the baseline by more than the tolerance, or significantly worse
over folds, or has no results. Writes a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set) and
a JUnit XML file. Exit codes: 0 pass, 1 regression, 2 usage or input error.`,
    async run(pos, v) {
      const spec = onePositional(pos, this.usage);
      if (typeof v['baseline'] !== 'string') throw new UserError(`check: --baseline FILE is required; usage: ${this.usage}`);
      const alpha = numberOption(v['alpha'], '--alpha');
      if (alpha !== undefined && !(alpha > 0 && alpha < 1)) throw new UserError(`--alpha: expected a number in (0, 1), got '${String(v['alpha'])}'`);
      let metrics: ('accuracy' | 'zero_one_loss' | 'rmse' | 'log_loss')[] | undefined;
      if (v['metrics'] !== undefined) {
        const known = ['accuracy', 'zero_one_loss', 'rmse', 'log_loss'] as const;
        const list = (v['metrics'] as string).split(',').map((m) => m.trim()).filter(Boolean);
        const bad = list.find((m) => !(known as readonly string[]).includes(m));
        if (bad !== undefined || list.length === 0) throw new UserError(`--metrics: unknown metric '${bad ?? ''}'; use a comma-separated list of ${known.join(', ')}`);
        metrics = list as typeof metrics;
      }
      const { runCheck } = await import('../check/index.js');
      const r = await runCheck(spec, v['baseline'], {
        tolerance: numberOption(v['tolerance'], '--tolerance'),
        alpha,
        metrics,
        anyChange: Boolean(v['any-change']),
        out: v['out'] as string | undefined,
        db: v['db'] as string | undefined,
        workers: intOption(v['workers'], '--workers', 1),
        quiet: Boolean(v['quiet']),
        stepSummary: process.env['GITHUB_STEP_SUMMARY'] || undefined,
      });
      process.stdout.write(r.text);
      process.stdout.write(`summary: ${r.markdownFile}\njunit:   ${r.junitFile}\n`);
      return r.result.passed ? 0 : 1;
    },
  },
  datasets: {
    summary: 'list the shipped datasets (configs/datasets.yaml)',
    usage: 'bnclab datasets [--group NAME]',
    options: { group: { type: 'string' } },
    help: `Options:
  --group NAME  only the datasets of one group (quickstart, hdp68, subbkb, small, medium, large)`,
    async run(_pos, v) {
      const { loadRegistry } = await import('../datasets/registry.js');
      const reg = loadRegistry();
      const entries = v['group'] ? reg.group(v['group'] as string) : reg.all();
      const rows = entries.map((e) => [e.name, String(e.rows), String(e.attributes), String(e.classes), e.groups.join(',')]);
      process.stdout.write(table(['name', 'rows', 'attributes', 'classes', 'groups'], rows) + '\n');
      return 0;
    },
  },
  schema: {
    summary: 'print (or --write) the experiment JSON Schema for editors',
    usage: 'bnclab schema [--write]',
    options: { write: { type: 'boolean' } },
    help: `Options:
  --write   write configs/experiment.schema.json in the bnclab folder`,
    async run(_pos, v) {
      await import('../methods.js');
      const { experimentSchema } = await import('../spec/schema.js');
      const { packageRoot } = await import('../util/paths.js');
      const text = JSON.stringify(experimentSchema(true), null, 2) + '\n';
      if (v['write']) {
        const file = resolve(packageRoot(), 'configs', 'experiment.schema.json');
        writeFileSync(file, text);
        process.stdout.write(`wrote ${file}\n`);
      } else process.stdout.write(text);
      return 0;
    },
  },
  methods: {
    summary: 'list the registered structure learners, estimators and baselines (or --write docs/methods.md)',
    usage: 'bnclab methods [--write]',
    options: { write: { type: 'boolean' } },
    help: `Options:
  --write   write docs/methods.md (the catalog with citations and parameters) in the bnclab folder`,
    async run(_pos, v) {
      const { methodsMarkdown } = await import('./methods.js');
      const { listBaselines, listEstimators, listStructures } = await import('../registry.js');
      const { packageRoot } = await import('../util/paths.js');
      if (v['write']) {
        const file = resolve(packageRoot(), 'docs', 'methods.md');
        writeFileSync(file, methodsMarkdown());
        process.stdout.write(`wrote ${file}\n`);
        return 0;
      }
      const rows = [
        ...listStructures().map((m) => ['structure', m.id, m.title]),
        ...listEstimators().map((m) => ['estimator', m.id, m.title]),
        ...listBaselines().map((m) => ['baseline', m.id, m.title]),
      ];
      const w0 = Math.max(...rows.map((r) => r[0]!.length));
      const w1 = Math.max(...rows.map((r) => r[1]!.length));
      process.stdout.write(rows.map((r) => `${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]}`).join('\n') + '\n');
      return 0;
    },
  },
};

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i > 0 && i < 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function onePositional(pos: string[], usage: string): string {
  if (pos.length !== 1) throw new UserError(`usage: ${usage}`);
  return pos[0]!;
}

function intOption(v: unknown, name: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${name}: expected an integer ≥ ${min}, got '${String(v)}'`);
  return n;
}

function numberOption(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UserError(`${name}: expected a number ≥ 0, got '${String(v)}'`);
  return n;
}

function mainHelp(): string {
  const names = Object.keys(commands);
  const w = Math.max(...names.map((n) => n.length));
  return `bnclab ${BNCLAB_VERSION}: reproducible experiments on Bayesian network classifiers

Usage: bnclab <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(w)}  ${commands[n]!.summary}`).join('\n')}

Run 'bnclab <command> --help' for a command's options.
Exit codes: 0 ok, 1 some jobs failed (or check found a regression), 2 usage or input error, 130 interrupted.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp() + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${BNCLAB_VERSION}\n`);
    return 0;
  }
  const cmd = commands[name];
  if (!cmd) throw new UserError(`unknown command '${name}'; commands: ${Object.keys(commands).join(', ')}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...cmd.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UserError(`${name}: ${(e as Error).message.split('\n')[0]}; usage: ${cmd.usage}`);
  }
  if (parsed.values['help']) {
    process.stdout.write(`Usage: ${cmd.usage}\n\n${cmd.summary}.\n\n${cmd.help}\n`);
    return 0;
  }
  return cmd.run(parsed.positionals, parsed.values as Record<string, unknown>);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UserError) {
      process.stderr.write(`bnclab: ${e.message}\n`);
      process.exitCode = e.exitCode;
    } else {
      process.stderr.write(`bnclab: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 3;
    }
  },
);
