/**
 * Process groups of the programs bnclab starts (the `external` baseline), shared by every thread of the
 * process, so that whichever thread ends a job can end the programs it started, children included.
 *
 * A program is started in a process group of its own (`detached`), so a timeout or an interrupt can end the
 * program and everything it started (`kill(-pgid)`), as `timeout --kill-after` does: SIGTERM to the group,
 * then SIGKILL to what is left after a grace period. The groups alive are listed in a SharedArrayBuffer
 * that worker threads inherit (`setEnvironmentData`), each with the pool worker that owns it, so the pool
 * can end one worker's programs (its job timed out or crashed) or all of them (an interrupt), and the
 * main thread ends whatever is left when the process exits.
 */
import { getEnvironmentData, isMainThread, setEnvironmentData, threadId, workerData } from 'node:worker_threads';

const KEY = 'bnclab.process-groups';
const SLOTS = 1024;

/** [pgid, owner] pairs; pgid 0 = free slot. */
function table(): Int32Array {
  let sab = getEnvironmentData(KEY) as SharedArrayBuffer | undefined;
  if (!sab) {
    sab = new SharedArrayBuffer(SLOTS * 2 * 4);
    setEnvironmentData(KEY, sab);
  }
  return new Int32Array(sab);
}
const groups = table();

/**
 * The pool worker this thread belongs to: its own thread id in a pool worker, the id its creator passed
 * (`workerData.bnclabOwner`) in a thread a worker started, 0 in the main thread.
 */
export function ownerId(): number {
  const passed = (workerData as { bnclabOwner?: unknown } | null)?.bnclabOwner;
  if (typeof passed === 'number') return passed;
  return isMainThread ? 0 : threadId;
}

/** Records a started program's group (its pid: the program leads a group of its own). */
export function registerGroup(pgid: number, owner: number): void {
  for (let i = 0; i < SLOTS; i++) {
    if (Atomics.compareExchange(groups, 2 * i, 0, pgid) === 0) {
      Atomics.store(groups, 2 * i + 1, owner);
      return;
    }
  }
  // More than SLOTS programs at once: this one is not listed (ended only by its own thread).
}

export function unregisterGroup(pgid: number): void {
  for (let i = 0; i < SLOTS; i++) if (Atomics.compareExchange(groups, 2 * i, pgid, 0) === pgid) return;
}

/** The groups listed, of one owner or all. */
export function listedGroups(owner?: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < SLOTS; i++) {
    const g = Atomics.load(groups, 2 * i);
    if (g !== 0 && (owner === undefined || Atomics.load(groups, 2 * i + 1) === owner)) out.push(g);
  }
  return out;
}

/** Sends a signal to a whole group; false when no process of it is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to each group now, SIGKILL to what is left of it after graceMs; resolves when all are gone. */
export async function endGroups(pgids: readonly number[], graceMs: number): Promise<void> {
  const live = pgids.filter((g) => signalGroup(g, 'SIGTERM'));
  const until = Date.now() + graceMs;
  while (live.some((g) => signalGroup(g, 0)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  for (const g of live) {
    signalGroup(g, 'SIGKILL');
    unregisterGroup(g);
  }
}

/** As endGroups, blocking this thread (for process exit, where nothing asynchronous runs any more). */
function endGroupsSync(pgids: readonly number[], graceMs: number): void {
  const live = pgids.filter((g) => signalGroup(g, 'SIGTERM'));
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + graceMs;
  while (live.some((g) => signalGroup(g, 0)) && Date.now() < until) Atomics.wait(pause, 0, 0, 20);
  for (const g of live) {
    signalGroup(g, 'SIGKILL');
    unregisterGroup(g);
  }
}

/** Grace period between SIGTERM and SIGKILL when bnclab itself ends a program (interrupt, --job-timeout, exit). */
export const GROUP_GRACE_MS = 2000;

// The main thread ends every program still listed when the process exits (a second interrupt, an error):
// nothing bnclab started outlives it.
if (isMainThread) process.on('exit', () => endGroupsSync(listedGroups(), GROUP_GRACE_MS));
