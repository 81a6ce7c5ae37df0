import type { Command } from '../command.js';
import { onePositional, intOption, numberOption } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';
import { COMPARE_METRICS, type CompareMetric } from '../../spec/report-sections.js';

export const checkCommand: Command = {
  summary: 'run a spec and fail (exit 1) when results are worse than a baseline (CI regression gate)',
  usage:
    'bnclab check <spec.yaml> --baseline FILE [--tolerance POINTS] [--alpha A] [--metrics LIST] [--any-change] [--out DIR] [--db FILE] [--workers N] [--quiet]',
  options: {
    baseline: { type: 'string' },
    tolerance: { type: 'string' },
    alpha: { type: 'string' },
    metrics: { type: 'string' },
    'any-change': { type: 'boolean' },
    out: { type: 'string' },
    db: { type: 'string' },
    workers: { type: 'string' },
    quiet: { type: 'boolean' },
  },
  help: `Options:
  --baseline FILE     the baseline JSON written by 'bnclab baseline'
  --tolerance POINTS  allowed worsening of a mean, in points (0.01 of the metric: accuracy percentage points,
                      0.01 of RMSE); default 0
  --alpha A           level of the one-sided paired Wilcoxon test over folds; default 0.05
  --metrics LIST      comma-separated metrics to check; default accuracy,rmse
  --any-change        also fail when a mean is better by more than the tolerance (the baseline is stale)
  --out DIR           where to write check.md and junit.xml; default results/<spec name>/check/
  --db FILE           reuse (and extend) this results database; default: run in a fresh temporary database
  --workers N         worker threads
  --quiet             no progress output

Fails when any dataset × method is worse than the baseline by more than the tolerance, or significantly worse
over folds, or has no results. Writes a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set) and
a JUnit XML file. Exit codes: 0 pass, 1 regression, 2 usage or input error.`,
  async run(pos, v) {
    const spec = onePositional(pos, this.usage);
    if (typeof v['baseline'] !== 'string')
      throw new UserError(`check: --baseline FILE is required; usage: ${this.usage}`);
    const alpha = numberOption(v['alpha'], '--alpha');
    if (alpha !== undefined && !(alpha > 0 && alpha < 1))
      throw new UserError(`--alpha: expected a number in (0, 1), got '${String(v['alpha'])}'`);
    let metrics: CompareMetric[] | undefined;
    if (v['metrics'] !== undefined) {
      const known = COMPARE_METRICS;
      const list = (v['metrics'] as string)
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean);
      const bad = list.find((m) => !(known as readonly string[]).includes(m));
      if (bad !== undefined || list.length === 0)
        throw new UserError(
          `--metrics: unknown metric '${bad ?? ''}'; use a comma-separated list of ${known.join(', ')}`,
        );
      metrics = list as typeof metrics;
    }
    const { runCheck } = await import('../../check/index.js');
    const r = await runCheck(spec, v['baseline'], {
      tolerance: numberOption(v['tolerance'], '--tolerance'),
      alpha,
      metrics,
      anyChange: Boolean(v['any-change']),
      out: v['out'] as string | undefined,
      db: v['db'] as string | undefined,
      workers: intOption(v['workers'], '--workers', 1),
      quiet: Boolean(v['quiet']),
      stepSummary: process.env['GITHUB_STEP_SUMMARY'] || undefined,
    });
    process.stdout.write(r.text);
    process.stdout.write(`summary: ${r.markdownFile}\njunit:   ${r.junitFile}\n`);
    return r.result.passed ? EXIT.ok : EXIT.jobsFailed;
  },
};
