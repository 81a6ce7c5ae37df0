import type { Command } from '../command.js';
import { intOption, onePositional } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const debugCommand: Command = {
  summary: 'run one job in the foreground, store nothing, show its full error, timings and learned structure',
  usage: 'bnclab debug <spec.yaml> --job KEY | --job dataset=D,method=M,fold=F[,repeat=R][,seed=S] [--seeds N]',
  options: { job: { type: 'string' }, seeds: { type: 'string' } },
  help: `Options:
  --job SEL   the job: its key (or a prefix, as 'bnclab plan <spec> --jobs' lists them), or a selection by the
              grid's axes as 'run --only' takes it (dataset=, method=, structure=, estimator=, repeat=, fold=,
              0-based; seed= in a multi-seed experiment) that matches exactly one job
  --seeds N   the grid under N master seeds, as 'run --seeds N' ran it (then name the job's seed=)

The job runs in this process exactly as a worker would run it (same preprocessing, seed and learner), but
nothing is written to the results database. Printed: rows, time per step (preprocess, train, predict), the
metrics, and the learned structure (each child with its parents). An error in the job is not caught: its
message and full stack trace are printed and the exit code is 1.`,
  async run(pos, v) {
    const file = onePositional(pos, this.usage);
    if (typeof v['job'] !== 'string' || v['job'] === '')
      throw new UserError(`debug: --job is required; usage: ${this.usage}`);
    const sel = v['job'];
    const { loadSpecFile, withSeedCount } = await import('../../spec/load.js');
    const { buildPlan } = await import('../../spec/plan.js');
    const { parseSubset, selectJobs } = await import('../../spec/subset.js');
    const { debugJob, debugLines } = await import('../../runner/debug.js');
    const spec = withSeedCount(loadSpecFile(file).spec, intOption(v['seeds'], '--seeds', 1));
    const plan = buildPlan(spec);
    const subset = sel.includes('=') ? parseSubset(sel, '--job') : new Map([['job' as const, [sel]]]);
    const jobs = selectJobs(plan, subset, '--job');
    if (jobs.length > 1) {
      const shown = jobs
        .slice(0, 5)
        .map(
          (j) =>
            `${j.key} (${j.dataset.handle.name} ${j.method.label} repeat ${j.repeat} fold ${j.fold}${plan.seeds ? ` seed ${j.specSeed}` : ''})`,
        );
      throw new UserError(
        `--job: ${jobs.length} jobs match, debug runs one; narrow it (e.g. add fold= or method=${plan.seeds ? ' or seed=' : ''}): ${shown.join('; ')}${jobs.length > 5 ? '; …' : ''}`,
      );
    }
    const job = jobs[0];
    let result;
    try {
      result = debugJob(plan, job);
    } catch (e) {
      process.stderr.write(
        `job ${job.key}: ${job.dataset.handle.name}  ${job.method.label}  repeat ${job.repeat} fold ${job.fold}${job.specSeed ? ` seed ${job.specSeed}` : ''} (not stored)\n` +
          `failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      return EXIT.jobsFailed;
    }
    process.stdout.write(debugLines(result).join('\n') + '\n');
    return EXIT.ok;
  },
};
