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
 *
 * A program runs before its group is listed: the thread that starts it learns its pid only once it runs.
 * So starting is gated. The starting thread announces the start (`beginStart`), and starts nothing if its
 * owner's programs are being ended; whoever ends an owner's programs first shuts that owner's gate and
 * waits until no start is under way (`shutStarts`), and only then reads the list and terminates threads.
 * Both sides write before they read (sequentially consistent atomics), so either the start sees the gate
 * shut, or the ender sees the start and waits for its group to be listed: no program can start after the
 * list is read, and no thread is terminated between starting a program and listing it.
 */
import { getEnvironmentData, isMainThread, setEnvironmentData, threadId, workerData } from 'node:worker_threads';

const KEY = 'bnclab.process-groups';
const SLOTS = 1024;
/**
 * Owners whose gate can be shut at once (pool workers being ended; freed once their threads are gone). Past
 * that, an owner's ender still waits for the starts under way, but its gate stays open until the process
 * exits, which shuts every gate.
 */
const SHUT_SLOTS = 4096;
/** In the gate: 1 once every owner's gate is shut (the process exits), the starts under way, shut owners. */
const ALL_SHUT = 0;
const STARTING = 1;
const SHUT = 2;

function shared(): SharedArrayBuffer {
  let sab = getEnvironmentData(KEY) as SharedArrayBuffer | undefined;
  if (!sab) {
    sab = new SharedArrayBuffer((SLOTS * 2 + SHUT + SHUT_SLOTS) * 4);
    setEnvironmentData(KEY, sab);
  }
  return sab;
}
/** [pgid, owner] pairs; pgid 0 = free slot. */
const groups = new Int32Array(shared(), 0, SLOTS * 2);
/** The start gate: ALL_SHUT, STARTING, then owner + 1 of each shut owner (0 = free slot). */
const gate = new Int32Array(shared(), SLOTS * 2 * 4, SHUT + SHUT_SLOTS);

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

function isShut(owner: number): boolean {
  if (Atomics.load(gate, ALL_SHUT) === 1) return true;
  for (let i = SHUT; i < SHUT + SHUT_SLOTS; i++) if (Atomics.load(gate, i) === owner + 1) return true;
  return false;
}

/**
 * Called by the thread about to start a program of `owner`: true when it may start it, and must then call
 * endStart once its group is listed (or the start failed); false when the owner's programs are being
 * ended (start nothing).
 */
export function beginStart(owner: number): boolean {
  Atomics.add(gate, STARTING, 1);
  if (!isShut(owner)) return true;
  Atomics.sub(gate, STARTING, 1);
  return false;
}

export function endStart(): void {
  Atomics.sub(gate, STARTING, 1);
}

/** How long an ender waits for the starts under way to list their groups (each takes microseconds). */
const START_WAIT_MS = 10_000;

/** Shuts the gate of the owners (of every owner when undefined); true once no start is under way. */
function shut(owners: readonly number[] | undefined): boolean {
  if (owners === undefined) Atomics.store(gate, ALL_SHUT, 1);
  else
    for (const owner of owners)
      for (let i = SHUT; i < SHUT + SHUT_SLOTS; i++)
        if (Atomics.load(gate, i) === owner + 1 || Atomics.compareExchange(gate, i, 0, owner + 1) === 0) break;
  return Atomics.load(gate, STARTING) === 0;
}

/**
 * No program of these owners (of any owner when undefined) starts from now on; resolves once every start
 * under way has listed its group, so the list is complete and the owners' threads may be terminated.
 */
export async function shutStarts(owners?: readonly number[]): Promise<void> {
  const until = Date.now() + START_WAIT_MS;
  let settled = shut(owners);
  while (!settled && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5));
    settled = Atomics.load(gate, STARTING) === 0;
  }
}

/** As shutStarts for every owner, blocking this thread (for process exit). */
function shutAllStartsSync(): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + START_WAIT_MS;
  let settled = shut(undefined);
  while (!settled && Date.now() < until) {
    Atomics.wait(pause, 0, 0, 5);
    settled = Atomics.load(gate, STARTING) === 0;
  }
}

/** Frees the gate slots of owners whose threads are gone (a thread id is never used again). */
export function forgetOwners(owners: readonly number[]): void {
  for (const owner of owners)
    for (let i = SHUT; i < SHUT + SHUT_SLOTS; i++) Atomics.compareExchange(gate, i, owner + 1, 0);
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
// nothing bnclab started outlives it. Worker threads still run while 'exit' handlers do, so no program may
// start from here on, and one starting now is waited for until it is listed.
if (isMainThread)
  process.on('exit', () => {
    shutAllStartsSync();
    endGroupsSync(listedGroups(), GROUP_GRACE_MS);
  });
