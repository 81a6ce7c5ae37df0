/**
 * Whole-process timing for the benchmarks that compare bnclab with another program: each command is a
 * child process timed from outside by GNU time (`/usr/bin/time`, Debian package `time`), so start-up, data
 * loading and everything else the process does count for both sides alike. CPU is user + system seconds of
 * the child and everything it waited for (all threads); wall is a monotonic clock around the spawn; peak is
 * the largest resident set. Two commands are run in turn (A B A B …) so a drift in the machine's load
 * affects both, and every figure is reported as the median with the load average at the start and end.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const GNU_TIME = '/usr/bin/time';

export interface ProcessTiming {
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMiB: number;
  readonly stdout: string;
}

export interface Command {
  readonly label: string;
  readonly cmd: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Run before each timed run, untimed (e.g. remove the previous run's database). */
  readonly before?: () => void;
}

/**
 * Move a file or folder (if it exists) into `trash`, a folder deleted when the benchmark ends, instead of
 * deleting it just before a timed process. On ext4 without a journal (the disk of the machines measured) a
 * new file is given an inode past every inode freed in the last 30 s (330 s while its inode table is not
 * yet written back), reading the table for each: after a report's 140 files were deleted, every file the
 * next process created cost it about 0.7 ms of system time, which is the benchmark's doing, not the
 * program's (docs/performance.md).
 */
export function setAside(path: string, trash: string): void {
  if (!existsSync(path)) return;
  mkdirSync(trash, { recursive: true });
  renameSync(path, join(trash, `${++setAsideCount}`));
}
let setAsideCount = 0;

/** Run one command under GNU time; throws with its output when it fails. */
export function timeProcess(c: Command): ProcessTiming {
  if (!existsSync(GNU_TIME))
    throw new Error(`${GNU_TIME} not found (Debian package 'time'); it measures the child's CPU time`);
  c.before?.();
  const dir = mkdtempSync(join(tmpdir(), 'bnclab-time-'));
  const out = join(dir, 'time');
  try {
    const t0 = performance.now();
    const res = spawnSync(GNU_TIME, ['-f', '%U %S %M', '-o', out, c.cmd, ...c.args], {
      cwd: c.cwd,
      encoding: 'utf8',
      maxBuffer: 256 << 20,
    });
    const wallS = (performance.now() - t0) / 1000;
    if (res.status !== 0) {
      throw new Error(
        `${c.label}: ${c.cmd} ${c.args.join(' ')} exited with ${res.status ?? res.signal}:\n${(res.stderr || String(res.error ?? '')).slice(-2000)}`,
      );
    }
    const [user, sys, maxKiB] = readFileSync(out, 'utf8').trim().split('\n').pop()!.trim().split(/\s+/).map(Number);
    return { wallS, cpuS: user + sys, peakMiB: maxKiB / 1024, stdout: res.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
}

export interface Summary {
  readonly label: string;
  readonly runs: readonly ProcessTiming[];
  readonly cpuS: number;
  readonly wallS: number;
  readonly peakMiB: number;
}

function summarize(label: string, runs: ProcessTiming[]): Summary {
  return {
    label,
    runs,
    cpuS: median(runs.map((r) => r.cpuS)),
    wallS: median(runs.map((r) => r.wallS)),
    peakMiB: median(runs.map((r) => r.peakMiB)),
  };
}

/**
 * Time groups of commands in turn, `runs` rounds after `warmup` untimed rounds (default 1: disk cache, the
 * programs' files; long runs need none): round r runs group 0, group 1, … once each. A group of several commands
 * (Weka's two classifiers, say) counts as one figure: the sum of its commands' times in that round.
 */
export function alternate(
  groups: readonly (readonly Command[])[],
  runs: number,
  log: (s: string) => void = () => {},
  warmup = 1,
): Summary[] {
  const per: ProcessTiming[][] = groups.map(() => []);
  for (let r = -warmup; r < runs; r++) {
    groups.forEach((g, i) => {
      const parts = g.map(timeProcess);
      if (r >= 0) {
        per[i].push({
          wallS: parts.reduce((a, p) => a + p.wallS, 0),
          cpuS: parts.reduce((a, p) => a + p.cpuS, 0),
          peakMiB: Math.max(...parts.map((p) => p.peakMiB)),
          stdout: parts.map((p) => p.stdout).join('\n'),
        });
      }
    });
    log(`  round ${r < 0 ? 'warm-up' : r + 1} of ${runs} done; load average ${loadAverage()}`);
  }
  return groups.map((g, i) => summarize(g.map((c) => c.label).join(' + '), per[i]));
}

/** Markdown table of medians, with the first row's CPU and wall as a fraction of each row's (first ÷ this). */
export function summaryTable(rows: readonly Summary[]): string {
  const head = ['program', 'CPU s (median)', 'wall s (median)', 'peak MiB', 'CPU: first ÷ this', 'wall: first ÷ this'];
  const body = rows.map((s) => [
    s.label,
    s.cpuS.toFixed(3),
    s.wallS.toFixed(3),
    s.peakMiB.toFixed(0),
    (rows[0].cpuS / s.cpuS).toFixed(3),
    (rows[0].wallS / s.wallS).toFixed(3),
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]): string =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(' | ')} |`;
  return [
    line(head),
    `|${w.map((x, i) => (i === 0 ? '-'.repeat(x + 2) : `${'-'.repeat(x + 1)}:`)).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

/** The words every benchmark prints where the other program was not given. */
export const NO_COMPARISON = 'no side-by-side comparison';
