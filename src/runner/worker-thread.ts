/** Worker thread (started by worker.ts): runs the jobs the pool sends, one at a time, and posts each outcome back. */
import { parentPort, workerData } from 'node:worker_threads';
import { executeJob } from './execute.js';
import { cancelledOutcome, SENT_ONCE, type JobPayload } from './job.js';
import type { JobMessage, WorkerMessage } from './pool.js';

if (!parentPort) throw new Error('the worker script must run in a worker thread');
const port = parentPort;
/** Set by the pool's stop(): the jobs sent ahead are answered as cancelled, not run (they run next time). */
const stopFlag = (workerData as { stopFlag?: Int32Array } | undefined)?.stopFlag;
/** Payload members the pool sent once and names by id afterwards (pool.ts, SENT_ONCE). */
const received = new Map<number, unknown>();
port.on('message', (msg: JobMessage) => {
  const payload = msg.payload as Record<string, unknown>;
  for (const member of SENT_ONCE) {
    const id = msg.ids[member];
    if (id === undefined) continue;
    const value = payload[member];
    if (value !== undefined) received.set(id, value);
    else if (received.has(id)) payload[member] = received.get(id);
    else throw new Error(`job ${String(payload.key)}: its ${member} (id ${id}) was never sent to this worker`);
  }
  return runJob(payload as unknown as JobPayload);
});

function runJob(payload: JobPayload): void {
  if (stopFlag && Atomics.load(stopFlag, 0) === 1) {
    port.postMessage({ type: 'outcome', outcome: cancelledOutcome(payload.key) } satisfies WorkerMessage);
    return;
  }
  const outcome = executeJob(payload);
  const transfer: ArrayBuffer[] = [];
  if (outcome.predictions) transfer.push(outcome.predictions.probs.buffer as ArrayBuffer);
  port.postMessage({ type: 'outcome', outcome } satisfies WorkerMessage, transfer);
}
// The code is loaded: the coordinator may now switch flags that V8 checks a code cache against (pool.ts).
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
