/**
 * The learner thread's side of external-helper.ts: a synchronous call into the helper thread (post the
 * request, block on a shared flag until the answer is posted back). One helper per thread, started on the
 * first call; it ends with its thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { packageRoot } from '../util/paths.js';
import { ownerId } from '../util/process-groups.js';

export interface RunRequest {
  op: 'run';
  program: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  graceMs: number;
}
export interface FoldRequest {
  op: 'fold';
  /** Which server: one process per distinct command (and folder) per worker. */
  key: string;
  program: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  graceMs: number;
  /** The request line (without its newline). */
  line: string;
  /** Bytes sent right after the request line (the fold's data with `send: stdin`). */
  body?: readonly Uint8Array[];
  rows: number;
  /** The longest line accepted on stdout. */
  maxLine: number;
}
export type HostRequest = RunRequest | FoldRequest;

/** How a program ended. */
export interface ProgramEnd {
  code?: number | null;
  signal?: NodeJS.Signals | null;
  spawnError?: string;
  timedOut?: boolean;
  /** The tail of its stderr. */
  stderr: string;
}
export type HostReply =
  | { kind: 'end'; end: ProgramEnd }
  | { kind: 'answer'; lines: string[] }
  | { kind: 'error'; message: string }
  | { kind: 'protocol'; message: string };

let host: { worker: Worker; port: MessagePort; flag: Int32Array } | undefined;

function helperScript(): string {
  const built = join(packageRoot(), 'dist', 'src', 'baselines', 'external-helper.js');
  if (!existsSync(built)) throw new Error(`helper script ${built} is missing: run 'npm run build'`);
  return built;
}

/** Posts a request to the helper thread and waits for its answer. */
export function callHelper(req: HostRequest): HostReply {
  if (!host) {
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(helperScript(), {
      workerData: { port: port2, flag, bnclabOwner: ownerId() },
      transferList: [port2],
    });
    worker.unref();
    host = { worker, port: port1, flag };
  }
  const { port, flag } = host;
  Atomics.store(flag, 0, 0);
  // A body that owns its whole memory moves to the helper instead of being copied (100 MB for 100 folds of
  // Weka's benchmark); one that shares Node's buffer pool is copied.
  const moved = new Set<ArrayBuffer>();
  if (req.op === 'fold')
    for (const b of req.body ?? [])
      if (b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength)
        moved.add(b.buffer);
  port.postMessage(req, [...moved]);
  for (;;) {
    Atomics.wait(flag, 0, 0, 200);
    const m = receiveMessageOnPort(port);
    if (m) return m.message as HostReply;
  }
}
