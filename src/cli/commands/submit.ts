import type { Command } from '../command.js';
import { intOption, numberOption, onePositional } from '../command.js';
import { EXIT } from '../../util/errors.js';

export const submitCommand: Command = {
  summary: 'run a spec on a cluster: one SLURM job array of N shards, then (with --wait) merge and report',
  usage:
    'bnclab submit <spec.yaml> --scheduler slurm --shards N [--partition P] [--time HH:MM:SS] [--mem M] [--cpus-per-task C] [--wait] [--dir DIR] [--db FILE]',
  options: {
    scheduler: { type: 'string' },
    shards: { type: 'string' },
    partition: { type: 'string' },
    time: { type: 'string' },
    mem: { type: 'string' },
    'cpus-per-task': { type: 'string' },
    'max-running': { type: 'string' },
    wait: { type: 'boolean' },
    dir: { type: 'string' },
    db: { type: 'string' },
    poll: { type: 'string' },
    'job-timeout': { type: 'string' },
    'sbatch-arg': { type: 'string', multiple: true },
    bnclab: { type: 'string' },
    'no-report': { type: 'boolean' },
  },
  help: `Options:
  --scheduler slurm    the scheduler (SLURM; other array schedulers: see docs/cluster.md, 'run --shard I/N')
  --shards N           tasks in the job array; task I runs 'bnclab run <spec> --shard I/N' (see 'plan --shards N')
  --partition P        sbatch --partition
  --time HH:MM:SS      sbatch --time (per task; 'plan --shards N --estimate' shows the expected time per shard)
  --mem M              sbatch --mem (per task, e.g. 8G)
  --cpus-per-task C    sbatch --cpus-per-task and the task's --workers (default 1)
  --max-running K      at most K tasks at once (sbatch --array=1-N%K)
  --job-timeout SEC    passed to each task's run: a job longer than SEC is recorded as failed
  --sbatch-arg OPT     an extra #SBATCH line, e.g. --sbatch-arg=--account=abc (repeatable)
  --dir DIR            where the script, logs/ and shards/ go (default: results/<name>/cluster; must be on the
                       filesystem the compute nodes share)
  --db FILE            the merged database (default: results/<name>.duckdb)
  --bnclab CMD         the command that runs bnclab on the compute nodes (default: this node and bnclab by
                       absolute path)
  --wait               poll squeue (every --poll SEC, default 10) until the array is done, resubmit the tasks
                       whose shard is incomplete (failed, timed out, cancelled, node failure) once, merge the
                       shards and write the report; without it, print the follow-up commands
  --no-report          with --wait: merge but write no report

The script (DIR/submit.sbatch) is kept: edit it and resubmit by hand with sbatch. Every scheduler command is
printed before it runs.`,
  async run(pos, v) {
    const specFile = onePositional(pos, this.usage);
    const { UserError } = await import('../../util/errors.js');
    const scheduler = v['scheduler'];
    if (scheduler === undefined) throw new UserError(`submit: --scheduler is required (supported: slurm)`);
    if (scheduler !== 'slurm')
      throw new UserError(
        `--scheduler: unknown scheduler '${String(scheduler)}' (supported: slurm; for others use 'run --shard I/N', docs/cluster.md)`,
      );
    const shards = intOption(v['shards'], '--shards', 1);
    if (shards === undefined) throw new UserError(`submit: --shards N is required`);
    const time = v['time'] as string | undefined;
    const { resolve, join } = await import('node:path');
    const { loadSpecFile } = await import('../../spec/load.js');
    const { buildPlan } = await import('../../spec/plan.js');
    const { defaultDbPath } = await import('../../runner/run.js');
    const { submitSlurm, slurmTimeSeconds } = await import('../../cluster/submit.js');
    if (time !== undefined) slurmTimeSeconds(time);
    const { spec } = loadSpecFile(specFile);
    const plan = buildPlan(spec);
    const dir = resolve((v['dir'] as string | undefined) ?? join('results', spec.name, 'cluster'));
    const db = resolve((v['db'] as string | undefined) ?? defaultDbPath(spec.name));
    const log = (s: string): void => void process.stdout.write(s + '\n');
    const cpus = intOption(v['cpus-per-task'], '--cpus-per-task', 1) ?? 1;
    const r = await submitSlurm(specFile, plan, {
      shards,
      dir,
      db,
      partition: v['partition'] as string | undefined,
      time,
      mem: v['mem'] as string | undefined,
      cpusPerTask: cpus,
      maxRunning: intOption(v['max-running'], '--max-running', 1),
      jobTimeout: numberOption(v['job-timeout'], '--job-timeout'),
      sbatchArgs: (v['sbatch-arg'] as string[] | undefined) ?? [],
      bnclab: v['bnclab'] as string | undefined,
      wait: Boolean(v['wait']),
      pollSeconds: numberOption(v['poll'], '--poll') ?? 10,
      log,
    });
    if (!v['wait']) return EXIT.ok;
    const { mergeShards } = await import('../../store/merge.js');
    const { shardFiles } = await import('../../cluster/status.js');
    const files = shardFiles(join(dir, 'shards'));
    log(`merging ${files.length} shard(s) into ${db}`);
    const counts = await mergeShards(db, files);
    const sum = (k: 'newDone' | 'newFailed' | 'identical'): number => counts.reduce((a, c) => a + c[k], 0);
    log(`merged: ${sum('newDone')} new done, ${sum('newFailed')} new failed, ${sum('identical')} identical`);
    if (!v['no-report']) {
      const { writeExperimentReport } = await import('../../report/index.js');
      const rep = await writeExperimentReport(specFile, { db, endsProcess: true });
      log(`report:  ${rep.markdown}`);
    }
    return r.incomplete.length > 0 || sum('newFailed') > 0 ? EXIT.jobsFailed : EXIT.ok;
  },
};
