/**
 * The worker pool sends a payload member many jobs share (dataset, table, fold assignment, preprocessing, a
 * method's structure learner and estimator) to a worker once, and names it afterwards: each outcome is still
 * the one the job gives in this thread, and no worker receives a member twice. The pool's workers start the built worker script (npm test builds it).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { outcomeNumbers, specPayloads } from '../helpers/payloads.js';
import { Worker } from 'node:worker_threads';
import { executeJob } from '../../src/runner/execute.js';
import { WorkerPool, type JobMessage } from '../../src/runner/pool.js';
import { SENT_ONCE, type SentOnce } from '../../src/runner/job.js';
import type { JobOutcome } from '../../src/store/db.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the worker pool', () => {
  it('sends each shared payload member to a worker once, and every job gives the outcome it gives inline', async () => {
    const payloads = specPayloads(
      'name: p\nseed: 1\ndatasets: [iris, zoo]\npreprocessing: { discretize: mdl }\n' +
        'resampling: { method: cv, folds: 3, repeats: 2 }\nstructures: [nb, tan]\nestimators: [dirichlet]\n',
    );
    expect(payloads).toHaveLength(2 * 2 * 3 * 2);

    const sent: { worker: number; msg: JobMessage }[] = [];
    const post = Worker.prototype.postMessage;
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, msg, transfer) {
      sent.push({ worker: this.threadId, msg: msg as JobMessage });
      return post.call(this, msg, transfer);
    });
    const pool = new WorkerPool(2, 0);
    let outcomes: JobOutcome[];
    try {
      outcomes = await Promise.all(payloads.map((p) => pool.run(p)));
    } finally {
      await pool.close();
    }

    for (const [i, p] of payloads.entries())
      expect(outcomeNumbers(outcomes[i]), p.key).toEqual(outcomeNumbers(executeJob(p)));
    expect(new Set(sent.map((s) => s.worker)).size).toBe(2);
    // Each member sent with its id to a worker the first time it holds it, and never again to that worker.
    const received = new Set<string>();
    let named = 0;
    for (const { worker, msg } of sent) {
      const payload = payloads.find((p) => p.key === msg.payload.key)!;
      for (const member of SENT_ONCE) {
        if ((payload as Partial<Record<SentOnce, unknown>>)[member] === undefined) continue;
        const id = msg.ids[member];
        expect(id, member).toBeDefined();
        const where = `${worker}:${member}:${id}`;
        const carried = msg.payload[member] !== undefined;
        expect(carried, `${where} sent again`).toBe(!received.has(where));
        if (carried) received.add(where);
        else named++;
      }
    }
    // Two datasets (and tables), each with two repeats' assignments, one preprocessing, and two methods' structure
    // learner and estimator: a few members a worker, not 24 jobs' worth.
    expect(received.size).toBeLessThanOrEqual(2 * (2 + 2 + 2 * 2 + 1 + 2 + 2));
    // Each method's structure learner and estimator went to each worker once.
    for (const member of ['structure', 'estimator'])
      expect([...received].filter((w) => w.split(':')[1] === member).length).toBeLessThanOrEqual(2 * 2);
    expect(named).toBeGreaterThan(0);
  });
});
