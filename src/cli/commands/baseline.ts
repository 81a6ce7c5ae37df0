import type { Command } from '../command.js';
import { onePositional, intOption } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const baselineCommand: Command = {
  summary: 'run a spec and record its results as a baseline for `bnclab check`',
  usage: 'bnclab baseline <spec.yaml> --out FILE [--db FILE] [--workers N] [--quiet]',
  options: { out: { type: 'string' }, db: { type: 'string' }, workers: { type: 'string' }, quiet: { type: 'boolean' } },
  help: `Options:
  --out FILE    where to write the baseline JSON (e.g. baselines/<name>.json)
  --db FILE     reuse (and extend) this results database; default: run in a fresh temporary database
  --workers N   worker threads
  --quiet       no progress output

Records per dataset × method the mean and the per-fold values of accuracy, 0-1 loss, RMSE and log loss,
with the hash of the spec's grid and the code version. Refuses (exit 1) when a job fails.`,
  async run(pos, v) {
    const spec = onePositional(pos, this.usage);
    if (typeof v['out'] !== 'string') throw new UserError(`baseline: --out FILE is required; usage: ${this.usage}`);
    const { recordBaseline } = await import('../../check/index.js');
    const r = await recordBaseline(spec, v['out'], {
      db: v['db'] as string | undefined,
      workers: intOption(v['workers'], '--workers', 1),
      quiet: Boolean(v['quiet']),
    });
    if (r.failedJobs.length > 0) {
      const shown = r.failedJobs
        .slice(0, 5)
        .map((f) => `  ${f}`)
        .join('\n');
      process.stderr.write(
        `bnclab: ${r.failedJobs.length} job(s) failed; no baseline written:\n${shown}${r.failedJobs.length > 5 ? '\n  …' : ''}\n`,
      );
      return EXIT.jobsFailed;
    }
    process.stdout.write(
      `baseline: ${r.file} (${r.baseline.results.length} dataset × method results, spec ${r.baseline.spec_hash.slice(0, 12)}, bnclab ${r.baseline.code.bnclab})\n`,
    );
    return EXIT.ok;
  },
};
