import type { Command } from '../command.js';
import { intOption, noteSnapshot, onePositional } from '../command.js';
import { EXIT } from '../../util/errors.js';

export const planCommand: Command = {
  summary: 'show the job grid of a spec without running anything',
  usage:
    'bnclab plan <spec.yaml> [--jobs] [--columns] [--check-data] [--max-jobs N] [--seeds N] [--estimate [--cores C] [--db FILE] [--pilot]] [--shards N]',
  options: {
    jobs: { type: 'boolean' },
    columns: { type: 'boolean' },
    'max-jobs': { type: 'string' },
    seeds: { type: 'string' },
    estimate: { type: 'boolean' },
    cores: { type: 'string' },
    db: { type: 'string' },
    pilot: { type: 'boolean' },
    'pilot-timeout': { type: 'string' },
    workers: { type: 'string' },
    shards: { type: 'string' },
    'all-shards': { type: 'boolean' },
    'check-data': { type: 'boolean' },
  },
  help: `Options:
  --jobs              list every job (key, dataset, method, repeat, fold; and seed with several seeds)
  --columns           every dataset's class column and the type of each column
                      (without it, only for datasets that are files named in the spec)
  --check-data        check every dataset's rows: constant, nearly constant and all-missing columns, missing
                      values per column, classes with fewer rows than folds, whole-number columns read as
                      numeric that look like category codes; each a warning with its fix (nothing is changed).
                      Without it, a one-line summary for datasets that are files named in the spec
  --max-jobs N        refuse a grid of more than N jobs (default 1,000,000)
  --seeds N           plan the grid under N master seeds, as 'run --seeds N' does
  --estimate          expected core-hours per method and in total, and the wall time on --cores cores
  --cores C           cores for the wall-time estimate (default: this machine's available parallelism)
  --db FILE           calibrate the cost model with the timings of finished jobs in FILE (the same methods
                      on the same datasets are taken as measured; other datasets scaled per method, except
                      for a method without a cost formula, which stays unknown where it has no timing)
  --pilot             calibrate by first running a stratified sample here (per method the first fold of the
                      median and upper-quartile dataset by cost, of every dataset for a method without a cost
                      formula; nothing stored), one at a time, each timed by the CPU it used
                      (its child processes included), so a busy machine calibrates as an idle one; --pilot-timeout SEC
                      (default 600) per job
  --shards N          the partition 'run --shard I/N' uses: jobs and expected cost per shard, max/mean
  --all-shards        list every shard (default: at most 16 lines)

Costs are static estimates per method × training-set size unless calibrated; docs/cluster.md lists them.`,
  async run(pos, v) {
    const file = onePositional(pos, this.usage);
    const { loadSpecFile, withSeedCount } = await import('../../spec/load.js');
    const { buildPlan, buildPlanSummary, describeColumns } = await import('../../spec/plan.js');
    const { emText } = await import('../../bn/em.js');
    const { resamplingPlanLine } = await import('../../spec/resampling.js');
    const spec = withSeedCount(loadSpecFile(file).spec, intOption(v['seeds'], '--seeds', 1));
    const planOptions = { maxJobs: intOption(v['max-jobs'], '--max-jobs', 1) };
    // Only a pilot runs jobs and needs the datasets' rows; the rest is planned from recorded facts when the
    // files are unchanged.
    const fullPlan = v['pilot'] ? buildPlan(spec, planOptions) : undefined;
    const plan = fullPlan ?? buildPlanSummary(spec, planOptions);
    for (const w of plan.warnings) process.stderr.write(`bnclab: warning: ${w}\n`);
    const out: string[] = [];
    out.push(
      `${spec.name}: ${plan.jobs.length} jobs` +
        (plan.seeds
          ? ` (${plan.seeds.length} seeds × ${plan.jobs.length / plan.seeds.length} jobs; seeds ${plan.seeds.map((x) => x.seed).join(', ')})`
          : ''),
    );
    out.push(`datasets (${plan.datasets.length}):`);
    for (const d of plan.datasets) {
      out.push(
        `  ${d.handle.name}  ${d.rows} rows, ${d.attributes} attributes, ${d.classes} classes; ${d.repeats} × ${d.folds} folds`,
      );
      if (d.userFile || v['columns'])
        for (const line of describeColumns(d, Boolean(v['columns']))) out.push(`    ${line}`);
    }
    if (v['check-data'] || plan.datasets.some((d) => d.userFile)) {
      const { loadDataset } = await import('../../datasets/load.js');
      const { checkDataset, checkLines, checkSummary } = await import('../../datasets/checks.js');
      for (const d of plan.datasets) {
        if (!v['check-data'] && !d.userFile) continue;
        const checks = checkDataset(loadDataset(d.handle).table, d.handle, d.folds);
        if (v['check-data']) out.push(...checkLines(d.handle.name, checks));
        else {
          const line = checkSummary(d.handle.name, checks);
          if (line) process.stderr.write(`bnclab: warning: ${line}\n`);
        }
      }
    }
    out.push(`methods (${spec.methods.length}):`);
    for (const m of spec.methods) out.push(`  ${m.label}`);
    const { programsOf } = await import('../../spec/programs.js');
    const programs = programsOf(spec);
    if (programs.length > 0) {
      out.push(`programs this spec runs on every 'run' and 'check', in ${spec.dir} (${programs.length}):`);
      for (const p of programs) out.push(`  ${p.method}: ${p.command}`);
    }
    out.push(
      `preprocessing: discretize ${spec.preprocessing.discretize.method}${spec.preprocessing.discretize.bins ? ` (${spec.preprocessing.discretize.bins} bins)` : ''}, missing ${spec.preprocessing.missing}${emText(spec.preprocessing.em)}`,
    );
    out.push(`resampling: ${resamplingPlanLine(spec.resampling)}`);
    if (v['jobs']) {
      out.push('jobs:');
      for (const j of plan.jobs)
        out.push(
          `  ${j.key}  ${j.dataset.handle.name}  ${j.method.label}  repeat ${j.repeat} fold ${j.fold}${plan.seeds ? ` seed ${j.specSeed}` : ''}`,
        );
    }
    if (v['estimate'] || v['shards'] !== undefined) {
      const os = await import('node:os');
      const { CostModel } = await import('../../spec/cost.js');
      const est = await import('../../cluster/estimate.js');
      const observations = v['db'] !== undefined ? await est.readObservations(String(v['db']), noteSnapshot) : [];
      if (v['db'] !== undefined)
        out.push(
          `cost model calibrated with ${observations.reduce((a, o) => a + o.jobs, 0)} finished jobs in ${String(v['db'])}`,
        );
      if (fullPlan) {
        const { runPilot } = await import('../../cluster/pilot.js');
        const sample = est.pilotSample(fullPlan, new CostModel(fullPlan));
        const timeout = intOption(v['pilot-timeout'], '--pilot-timeout', 1) ?? 600;
        process.stderr.write(
          `pilot: running ${sample.length} jobs (per method the first fold of its median and upper-quartile dataset by expected cost; of every dataset for a method without a cost formula), at most ${timeout} s each\n`,
        );
        const pilot = await runPilot(fullPlan, sample, {
          workers: intOption(v['workers'], '--workers', 1),
          timeoutSec: timeout,
        });
        observations.push(...est.pilotObservations(pilot.measured));
        out.push(
          `pilot: ${pilot.measured.length} jobs measured in ${est.fmtHours(pilot.measured.reduce((a, r) => a + r.ms, 0))} of job time`,
        );
        for (const f of pilot.failed)
          out.push(`pilot: ${f.job.dataset.handle.name} ${f.job.method.label} not measured: ${f.error.split('\n')[0]}`);
      }
      const model = new CostModel(plan, observations);
      if (v['estimate'])
        out.push(...est.estimateLines(plan, model, intOption(v['cores'], '--cores', 1) ?? os.availableParallelism()));
      const shards = intOption(v['shards'], '--shards', 1);
      if (shards !== undefined) out.push(...est.shardLines(plan, model, shards, Boolean(v['all-shards'])));
    }
    process.stdout.write(out.join('\n') + '\n');
    return EXIT.ok;
  },
};
