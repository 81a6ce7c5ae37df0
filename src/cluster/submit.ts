/**
 * `bnclab submit --scheduler slurm`: one SLURM job array of N tasks, task I running
 * `bnclab run <spec> --shard I/N` into its own shard database on the shared filesystem.
 *
 * The sbatch script is written next to the results (results/<name>/cluster/submit.sbatch by default) and
 * is plain enough to edit and resubmit by hand. With --wait, squeue is polled until the array has left the
 * queue; a task counts as failed when its shard database does not hold every job of its shard finished
 * (done or failed): that covers FAILED, TIMEOUT, CANCELLED, NODE_FAIL and OUT_OF_MEMORY alike, whatever
 * the cluster's accounting (sacct) records. Those tasks are resubmitted once (they resume: the jobs their
 * shard already holds are skipped), then every shard is merged and the report written. Every scheduler
 * command is printed before it runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plan } from '../spec/plan.js';
import { CostModel } from '../spec/cost.js';
import { partitionPlan } from '../spec/shard.js';
import { UserError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import { collectStatus, shardFileName } from './status.js';
import { fmtHours } from './estimate.js';

interface SubmitOptions {
  readonly shards: number;
  readonly dir: string;
  readonly db: string;
  readonly partition?: string;
  readonly time?: string;
  readonly mem?: string;
  readonly cpusPerTask: number;
  /** At most this many tasks of the array at once (sbatch --array=1-N%K). */
  readonly maxRunning?: number;
  readonly jobTimeout?: number;
  /** Extra `#SBATCH` lines, verbatim options such as `--account=abc`. */
  readonly sbatchArgs: readonly string[];
  /** The command that runs bnclab on the compute nodes (default: this node and this bnclab, by absolute path). */
  readonly bnclab?: string;
  readonly wait: boolean;
  readonly pollSeconds: number;
  readonly log: (line: string) => void;
}

interface SubmitResult {
  readonly script: string;
  readonly jobIds: readonly string[];
  readonly resubmitted: readonly number[];
  readonly incomplete: readonly number[];
}

const sh = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The default bnclab command on the compute nodes: this Node binary and this CLI, by absolute path (found
 * from the package root: the CLI is a bundle whose chunks do not sit in dist/src/cluster/).
 */
function defaultBnclabCommand(): string {
  const main = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
  return `${sh(process.execPath)} ${sh(main)}`;
}

export function sbatchScript(
  specFile: string,
  name: string,
  o: Omit<SubmitOptions, 'wait' | 'pollSeconds' | 'log'>,
): string {
  const width = String(o.shards).length;
  const lines = [
    '#!/bin/bash',
    `# bnclab: experiment '${name}' as a SLURM job array of ${o.shards} shards; task I runs shard I of ${o.shards}.`,
    '# Edit and resubmit by hand if you like: sbatch [--array=3,7] ' + sh(join(o.dir, 'submit.sbatch')),
    `#SBATCH --job-name=bnclab-${name}`,
    `#SBATCH --array=1-${o.shards}${o.maxRunning ? `%${o.maxRunning}` : ''}`,
    `#SBATCH --cpus-per-task=${o.cpusPerTask}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --output=${join(o.dir, 'logs', '%A_%a.out')}`,
  ];
  if (o.partition) lines.push(`#SBATCH --partition=${o.partition}`);
  if (o.time) lines.push(`#SBATCH --time=${o.time}`);
  if (o.mem) lines.push(`#SBATCH --mem=${o.mem}`);
  for (const a of o.sbatchArgs) lines.push(`#SBATCH ${a}`);
  lines.push(
    'set -euo pipefail',
    `N=${o.shards}`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, written into the sbatch script
    'I=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (it is a job array)}',
    `SHARD=${sh(join(o.dir, 'shards'))}/shard-$(printf '%0${width}d' "$I")-of-$N.duckdb`,
    `echo "bnclab shard $I/$N on $(hostname) -> $SHARD"`,
    `exec ${o.bnclab ?? defaultBnclabCommand()} run ${sh(resolve(specFile))} --shard "$I/$N" --db "$SHARD" --workers ${o.cpusPerTask}` +
      (o.jobTimeout ? ` --job-timeout ${o.jobTimeout}` : '') +
      ' --no-report',
    '',
  );
  return lines.join('\n');
}

function scheduler(cmd: string, args: readonly string[], log: (s: string) => void, quiet = false): string {
  if (!quiet) log(`$ ${[cmd, ...args].map(sh).join(' ')}`);
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) {
    throw new UserError(
      (r.error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${cmd}: not found; run this on a SLURM login node (or start a local cluster: scripts/slurm-local.sh start)`
        : `${cmd}: ${r.error.message}`,
    );
  }
  if (r.status !== 0)
    throw new UserError(`${cmd} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  return r.stdout;
}

function sbatch(script: string, array: string | undefined, log: (s: string) => void): string {
  const out = scheduler('sbatch', ['--parsable', ...(array ? [`--array=${array}`] : []), script], log);
  const id = out.trim().split(';')[0];
  if (!/^\d+$/.test(id)) throw new UserError(`sbatch: unexpected answer '${out.trim()}'`);
  log(`submitted job array ${id}`);
  return id;
}

/** Poll squeue until none of the jobs is queued or running; prints the command and each change of state. */
function waitForJobs(ids: readonly string[], o: Pick<SubmitOptions, 'pollSeconds' | 'log'>): void {
  let last = '';
  let first = true;
  for (;;) {
    const out = scheduler('squeue', ['-h', '-j', ids.join(','), '-o', '%i %T'], o.log, !first);
    first = false;
    const lines = out.trim().split('\n').filter(Boolean);
    const summary = lines.length === 0 ? 'none left in the queue' : summarize(lines);
    if (summary !== last) {
      o.log(`squeue: ${summary}`);
      last = summary;
    }
    if (lines.length === 0) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, o.pollSeconds * 1000);
  }
}

function summarize(lines: readonly string[]): string {
  const by = new Map<string, string[]>();
  for (const l of lines) {
    const [id, state] = l.trim().split(/\s+/) as [string, string];
    by.set(state, [...(by.get(state) ?? []), id]);
  }
  return [...by].map(([s, ids]) => `${s} ${ids.join(' ')}`).join('; ');
}

/** Scheduler states of finished array tasks, for the log: sacct when accounting is on, else scontrol. */
function taskStates(id: string, log: (s: string) => void): Map<number, string> {
  const states = new Map<number, string>();
  const tryCmd = (cmd: string, args: string[], parse: (out: string) => void): boolean => {
    log(`$ ${[cmd, ...args].map(sh).join(' ')}`);
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.error || r.status !== 0) {
      log(`${cmd}: ${(r.stderr || r.error?.message || '').trim().split('\n')[0] || 'failed'}`);
      return false;
    }
    parse(r.stdout);
    return states.size > 0;
  };
  const viaSacct = tryCmd('sacct', ['-n', '-P', '-X', '-j', id, '-o', 'JobID,State'], (out) => {
    for (const l of out.trim().split('\n')) {
      const m = /^\d+_(\d+)\|(\S+)/.exec(l.trim());
      if (m) states.set(Number(m[1]), m[2]);
    }
  });
  if (!viaSacct) {
    tryCmd('scontrol', ['-o', 'show', 'job', id], (out) => {
      for (const l of out.trim().split('\n')) {
        const t = /ArrayTaskId=(\d+)/.exec(l);
        const s = /JobState=(\S+)/.exec(l);
        if (t && s) states.set(Number(t[1]), s[1]);
      }
    });
  }
  return states;
}

/** Shards (1-based) whose database does not hold every job of the shard finished. */
async function incompleteShards(plan: Plan, dir: string, count: number): Promise<number[]> {
  const part = partitionPlan(plan, new CostModel(plan), count);
  const out: number[] = [];
  for (let i = 1; i <= count; i++) {
    const file = join(dir, 'shards', shardFileName(i, count));
    const jobs = plan.jobs.filter((j) => part.shardOf.get(j.key) === i);
    if (jobs.length === 0) continue;
    if (!existsSync(file)) {
      out.push(i);
      continue;
    }
    const st = await collectStatus({ ...plan, jobs }, [file]);
    if (st.total.pending > 0) out.push(i);
  }
  return out;
}

/** Seconds of a SLURM time limit: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. */
export function slurmTimeSeconds(t: string): number {
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(t);
  if (!m) throw new UserError(`--time: expected [D-]HH:MM:SS (as sbatch), got '${t}'`);
  const [d, a, b, c] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? undefined : Number(x)));
  if (d !== undefined) return d * 86400 + a! * 3600 + (b ?? 0) * 60 + (c ?? 0);
  if (c !== undefined) return a! * 3600 + b! * 60 + c;
  if (b !== undefined) return a! * 60 + b;
  return a! * 60;
}

export async function submitSlurm(specFile: string, plan: Plan, o: SubmitOptions): Promise<SubmitResult> {
  // What each task is expected to take (static cost model, one reference core per worker).
  const model = new CostModel(plan);
  const part = partitionPlan(plan, model, o.shards);
  const longestJob = plan.jobs.reduce((a, j) => Math.max(a, model.staticCost(j)), 0);
  const perTask = Math.max(...part.load.map((l) => l / o.cpusPerTask), longestJob);
  o.log(
    `${plan.jobs.length} jobs in ${o.shards} shards; expected time of the longest task ${fmtHours(perTask)} on ${o.cpusPerTask} reference core(s) (see 'bnclab plan --shards ${o.shards} --estimate')`,
  );
  if (o.time !== undefined && slurmTimeSeconds(o.time) * 1000 < perTask) {
    o.log(
      `warning: --time ${o.time} is shorter than that; tasks that hit it are resubmitted once by --wait, and resume where they stopped`,
    );
  }
  mkdirSync(join(o.dir, 'logs'), { recursive: true });
  mkdirSync(join(o.dir, 'shards'), { recursive: true });
  const script = join(o.dir, 'submit.sbatch');
  writeFileSync(script, sbatchScript(specFile, plan.spec.name, o), { mode: 0o755 });
  o.log(`wrote ${script}`);
  const ids = [sbatch(script, undefined, o.log)];
  const followUp = [
    `squeue -j ${ids[0]}`,
    `bnclab status ${sh(specFile)} --shards ${sh(join(o.dir, 'shards'))}`,
    `bnclab merge ${sh(o.db)} ${sh(join(o.dir, 'shards'))}/*.duckdb`,
    `bnclab report ${sh(specFile)} --db ${sh(o.db)}`,
  ];
  if (!o.wait) {
    o.log('next (tasks that fail can be resubmitted with: sbatch --array=<their indices> ' + sh(script) + '):');
    for (const c of followUp) o.log(`  ${c}`);
    return { script, jobIds: ids, resubmitted: [], incomplete: [] };
  }
  waitForJobs(ids, o);
  logStates(ids[0], o.log);
  let incomplete = await incompleteShards(plan, o.dir, o.shards);
  const resubmitted = [...incomplete];
  if (incomplete.length > 0) {
    o.log(`shards not complete: ${incomplete.join(', ')}; resubmitting them once (they resume where they stopped)`);
    ids.push(sbatch(script, incomplete.join(',') + (o.maxRunning ? `%${o.maxRunning}` : ''), o.log));
    waitForJobs([ids[1]], o);
    logStates(ids[1], o.log);
    incomplete = await incompleteShards(plan, o.dir, o.shards);
    if (incomplete.length > 0)
      o.log(
        `shards still not complete after one resubmission: ${incomplete.join(', ')} (see ${join(o.dir, 'logs')}); merging what there is`,
      );
  }
  return { script, jobIds: ids, resubmitted, incomplete };
}

function logStates(id: string, log: (s: string) => void): void {
  const states = taskStates(id, log);
  if (states.size > 0)
    log(
      `tasks of ${id}: ${[...states]
        .sort((a, b) => a[0] - b[0])
        .map(([i, s]) => `${i} ${s}`)
        .join(', ')}`,
    );
}
