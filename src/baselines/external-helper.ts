/**
 * The thread that runs the `external` baseline's programs. A learner's `posterior` is synchronous; the
 * programs are not: this thread starts them (each in a process group of its own), enforces the time
 * limit (SIGTERM to the group, SIGKILL after a grace period), drains stderr keeping its tail, and speaks
 * the line protocol with programs that stay up for many folds (`server: true`). The learner thread posts a
 * request on a MessagePort and blocks on a shared flag until the answer is there (see external-host.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { workerData, type MessagePort } from 'node:worker_threads';
import { beginStart, endGroups, endStart, ownerId, registerGroup, unregisterGroup } from '../util/process-groups.js';
import type { FoldRequest, HostReply, HostRequest, ProgramEnd, RunRequest } from './external-host.js';

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };
const owner = ownerId();
/** The tail of stderr kept for the error message. */
const STDERR_TAIL = 64 * 1024;
/** Servers kept up per worker; starting one more ends the least recently used. */
const MAX_SERVERS = 8;

function reply(r: HostReply): void {
  port.postMessage(r);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

interface Started {
  child: ChildProcess;
  pgid: number;
  stderr: string;
  ended?: ProgramEnd;
  onEnd: ((e: ProgramEnd) => void)[];
}

/**
 * Tests only: milliseconds this thread waits between starting a program and listing its group, the moment
 * an interrupt could miss it (test/baselines/external-safety.test.ts). 0 (unset) in any real run.
 */
const HOLD_MS = Number(process.env['BNCLAB_TEST_HOLD_START_MS'] ?? 0);

/** Thrown by start when bnclab is ending this worker's programs (an interrupt, or the job's end). */
class Stopping extends Error {}

/** Starts a program in a group of its own; `onEnd` hears how it ended (after stderr is drained, or 1 s after exit). */
function start(program: string, args: readonly string[], cwd: string, stdin: 'ignore' | 'pipe'): Started {
  // The program runs before its group is listed: the gate keeps whoever ends this worker's programs from
  // reading the list (and terminating this thread) until it is (src/util/process-groups.ts).
  if (!beginStart(owner)) throw new Stopping();
  let child: ChildProcess;
  let s: Started;
  try {
    child = spawn(program, args, {
      cwd,
      detached: true,
      stdio: [stdin, stdin === 'pipe' ? 'pipe' : 'ignore', 'pipe'],
    });
    s = { child, pgid: child.pid ?? 0, stderr: '', onEnd: [] };
    if (HOLD_MS > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS);
    if (s.pgid) registerGroup(s.pgid, owner);
  } finally {
    endStart();
  }
  const end = (e: ProgramEnd): void => {
    if (s.ended) return;
    s.ended = { ...e, stderr: s.stderr };
    if (s.pgid) {
      // What the program left running in its group goes with it.
      void endGroups([s.pgid], 2000).finally(() => unregisterGroup(s.pgid));
    }
    for (const f of s.onEnd) f(s.ended);
  };
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => {
    s.stderr += d;
    if (s.stderr.length > 2 * STDERR_TAIL) s.stderr = s.stderr.slice(-STDERR_TAIL);
  });
  child.on('error', (e: NodeJS.ErrnoException) => end({ spawnError: e.code ?? e.message, stderr: '' }));
  let exited: ProgramEnd | undefined;
  child.on('exit', (code, signal) => {
    exited = { code, signal, stderr: '' };
    setTimeout(() => end(exited!), 1000).unref();
  });
  child.on('close', (code, signal) => end(exited ?? { code, signal, stderr: '' }));
  return s;
}

/** Arms the time limit: SIGTERM to the group after timeoutMs, SIGKILL graceMs later. */
function limit(s: Started, timeoutMs: number, graceMs: number, onTimeout: () => void): NodeJS.Timeout {
  return setTimeout(() => {
    onTimeout();
    if (s.pgid) void endGroups([s.pgid], graceMs);
  }, timeoutMs);
}

function runOnce(r: RunRequest): void {
  const s = start(r.program, r.args, r.cwd, 'ignore');
  let timedOut = false;
  const timer = limit(s, r.timeoutMs, r.graceMs, () => (timedOut = true));
  s.onEnd.push((e) => {
    clearTimeout(timer);
    reply({ kind: 'end', end: { ...e, timedOut } });
  });
}

interface Server extends Started {
  key: string;
  out: string;
  lines: string[];
  /** A line longer than the limit was written. */
  long?: boolean;
  pending?: { rows: number; maxLine: number; done: (r: HostReply) => void };
}
const servers = new Map<string, Server>();

function closeServer(sv: Server, graceMs: number): void {
  servers.delete(sv.key);
  sv.child.stdin?.end();
  if (sv.pgid) void endGroups([sv.pgid], graceMs);
}

function serverFor(r: FoldRequest): Server {
  const old = servers.get(r.key);
  if (old && !old.ended) {
    servers.delete(r.key);
    servers.set(r.key, old); // most recently used last
    return old;
  }
  if (old) servers.delete(r.key);
  if (servers.size >= MAX_SERVERS) closeServer(servers.values().next().value!, r.graceMs);
  const sv: Server = Object.assign(start(r.program, r.args, r.cwd, 'pipe'), { key: r.key, out: '', lines: [] });
  servers.set(r.key, sv);
  sv.child.stdin!.on('error', () => {}); // a program that exits mid-fold: its 'exit' reports it
  sv.child.stdout!.setEncoding('utf8');
  sv.child.stdout!.on('data', (d: string) => {
    sv.out += d;
    let nl: number;
    while ((nl = sv.out.indexOf('\n')) >= 0) {
      const line = sv.out.slice(0, nl).replace(/\r$/, '');
      if (line.length > (sv.pending?.maxLine ?? Number.POSITIVE_INFINITY)) sv.long = true;
      sv.lines.push(line);
      sv.out = sv.out.slice(nl + 1);
    }
    take(sv);
  });
  sv.onEnd.push((e) => {
    servers.delete(sv.key);
    const p = sv.pending;
    sv.pending = undefined;
    p?.done({ kind: 'end', end: { ...e, timedOut: false } });
  });
  return sv;
}

/** What is wrong with the answer so far, if anything; undefined while it is right (or incomplete). */
function wrong(sv: Server, p: NonNullable<Server['pending']>): string | undefined {
  if (sv.out.length > p.maxLine || sv.long)
    return `wrote a line longer than ${p.maxLine} characters on stdout (the limit)`;
  const status = sv.lines[0];
  if (status === undefined || status === 'ok' || /^error(\s|$)/.test(status)) return undefined;
  return `answered '${status.slice(0, 80)}' on stdout where 'ok' or 'error <message>' was expected`;
}

/** Completes the pending fold when its answer is all there (or wrong). */
function take(sv: Server): void {
  const p = sv.pending;
  if (!p) return;
  const message = wrong(sv, p);
  if (message !== undefined) {
    sv.pending = undefined;
    closeServer(sv, 2000);
    p.done({ kind: 'protocol', message });
    return;
  }
  const status = sv.lines[0];
  if (status === undefined) return;
  if (status !== 'ok') {
    sv.lines.shift();
    sv.pending = undefined;
    p.done({ kind: 'error', message: status.slice(5).trim() });
    return;
  }
  if (sv.lines.length < p.rows + 2) return;
  const answer = sv.lines.slice(1, p.rows + 2);
  sv.lines = sv.lines.slice(p.rows + 2);
  sv.pending = undefined;
  p.done({ kind: 'answer', lines: answer });
}

function runFold(r: FoldRequest): void {
  const sv = serverFor(r);
  let timedOut = false;
  const timer = limit(sv, r.timeoutMs, r.graceMs, () => {
    timedOut = true;
    servers.delete(sv.key);
  });
  sv.pending = {
    rows: r.rows,
    maxLine: r.maxLine,
    done: (a) => {
      clearTimeout(timer);
      if (a.kind === 'end') a.end.timedOut = timedOut;
      reply(a);
    },
  };
  const stdin = sv.child.stdin!;
  stdin.cork();
  stdin.write(`${r.line}\n`);
  for (const b of r.body ?? []) stdin.write(b);
  stdin.uncork();
  take(sv);
}

port.on('message', (r: HostRequest) => {
  try {
    if (r.op === 'run') runOnce(r);
    else runFold(r);
  } catch (e) {
    if (!(e instanceof Stopping)) throw e;
    // The job is being ended (cancelled after an interrupt, failed on --job-timeout): it reports so.
    reply({ kind: 'end', end: { spawnError: 'bnclab is ending its programs', stderr: '' } });
  }
});
