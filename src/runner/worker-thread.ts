/** Worker thread (started by worker.ts): runs the jobs the pool sends, one at a time, and posts each outcome back. */
import { parentPort, workerData } from 'node:worker_threads';
import { executeJob } from './execute.js';
import { cancelledOutcome } from './job.js';
import type { JobMessage, WorkerMessage } from './pool.js';
import type { RawTable } from '../datasets/table.js';

if (!parentPort) throw new Error('the worker script must run in a worker thread');
const port = parentPort;
/** Set by the pool's stop(): the jobs sent ahead are answered as cancelled, not run (they run next time). */
const stopFlag = (workerData as { stopFlag?: Int32Array } | undefined)?.stopFlag;
/** Tables the pool sent once and names by id afterwards. */
const tables = new Map<number, RawTable>();
port.on('message', (msg: JobMessage) => {
  let payload = msg.payload;
  if (msg.tableId !== undefined) {
    if (payload.table) tables.set(msg.tableId, payload.table);
    else payload = { ...payload, table: tables.get(msg.tableId) };
  }
  if (stopFlag && Atomics.load(stopFlag, 0) === 1) {
    port.postMessage({ type: 'outcome', outcome: cancelledOutcome(payload.key) } satisfies WorkerMessage);
    return;
  }
  const outcome = executeJob(payload);
  const transfer: ArrayBuffer[] = [];
  if (outcome.predictions) transfer.push(outcome.predictions.probs.buffer as ArrayBuffer);
  port.postMessage({ type: 'outcome', outcome } satisfies WorkerMessage, transfer);
});
// The code is loaded: the coordinator may now switch flags that V8 checks a code cache against (pool.ts).
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
