/** Worker thread: runs the jobs the pool sends, one at a time, and posts each outcome back. */
import { parentPort } from 'node:worker_threads';
import { executeJob } from './execute.js';
import type { JobPayload } from './job.js';

if (!parentPort) throw new Error('worker.ts must run in a worker thread');
const port = parentPort;
port.on('message', (msg: { type: 'job'; payload: JobPayload }) => {
  const outcome = executeJob(msg.payload);
  const transfer: ArrayBuffer[] = [];
  if (outcome.predictions) transfer.push(outcome.predictions.probs.buffer as ArrayBuffer);
  port.postMessage({ type: 'outcome', outcome }, transfer);
});
