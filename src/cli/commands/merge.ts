import type { Command } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const mergeCommand: Command = {
  summary: 'merge shard databases into one results database (idempotent, by job key)',
  usage: 'bnclab merge <into.duckdb> <shard.duckdb>... [--force]',
  options: { force: { type: 'boolean' }, quiet: { type: 'boolean' } },
  help: `Options:
  --force   merge shards whose experiment has a different bnclab version, and on a conflict
            (the same job done in both with different metrics) keep the target's result and go on
  --quiet   print only the totals

Each shard is merged in one transaction: a refused or failed shard changes nothing, and merging the same
shard twice adds nothing. Finished jobs (done, or failed with their error) are taken from a shard when the
target does not have them done; a failure never replaces a done job. A conflict means nondeterminism: the
merge stops naming the jobs (exit 1). Every table and column of the shards merges, also ones this version
does not know. <into.duckdb> is created when missing. A shard of another spec under the same experiment name
(a spec run in phases) merges with a note: jobs are keyed by content, and 'bnclab report <spec>' shows the
jobs of the spec it is given.`,
  async run(pos, v) {
    if (pos.length < 2) throw new UserError(`usage: ${this.usage}`);
    const [into, ...shards] = pos as [string, ...string[]];
    const { mergeShards } = await import('../../store/merge.js');
    const started = Date.now();
    const counts = await mergeShards(into, shards, { force: Boolean(v['force']) });
    const log = (s: string): void => void process.stdout.write(s + '\n');
    const total = { newDone: 0, newFailed: 0, identical: 0, conflicting: 0, failedButDone: 0 };
    for (const c of counts) {
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += c[k];
      if (!v['quiet']) {
        log(
          `${c.shard}: ${c.newDone} new done, ${c.newFailed} new failed, ${c.identical} identical, ${c.conflicting} conflicting` +
            (c.failedButDone ? `, ${c.failedButDone} failed here but done in the target (kept done)` : '') +
            `, ${c.notRun} not run in this shard`,
        );
        for (const w of c.warnings) log(`  note: ${w}`);
        for (const j of c.conflicts.slice(0, 20))
          log(
            `  conflict kept from the target (--force): ${j.dataset} ${j.method} repeat ${j.repeat} fold ${j.fold} (${j.job_key})`,
          );
      }
    }
    log(
      `merged ${counts.length} shard(s) into ${into} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${total.newDone} new done, ` +
        `${total.newFailed} new failed, ${total.identical} identical, ${total.conflicting} conflicting`,
    );
    return total.conflicting > 0 ? EXIT.jobsFailed : EXIT.ok;
  },
};
