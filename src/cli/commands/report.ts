import type { Command } from '../command.js';
import { intOption, noteSnapshot, onePositional, numberOption, provisionalLine } from '../command.js';
import { EXIT } from '../../util/errors.js';
import { SCORE_IDS } from '../../metrics/all.js';

/** The --metrics line of the help: the registry's compared metrics, filled to 110 columns. */
function metricsList(): string {
  const indent = ' '.repeat(20);
  const words = SCORE_IDS.map((id, i) => (i < SCORE_IDS.length - 1 ? `${id},` : `${id} (overrides compare.metrics)`));
  const lines: string[] = [];
  let line = 'comma-separated:';
  for (const w of words) {
    if (indent.length + line.length + 1 + w.length > 110) {
      lines.push(line);
      line = w;
    } else line += ` ${w}`;
  }
  return [...lines, line].join(`\n${indent}`);
}

export const reportCommand: Command = {
  summary:
    'write results/<name>/ (report.md, report.html, tables/*.tex|csv, figures/*.svg, with --pdf *.pdf) from the stored results',
  usage:
    'bnclab report <spec.yaml> [--db FILE] [--out DIR] [--control METHOD] [--alpha A] [--metrics LIST] [--seeds N] [--pdf]',
  options: {
    db: { type: 'string' },
    out: { type: 'string' },
    control: { type: 'string' },
    alpha: { type: 'string' },
    metrics: { type: 'string' },
    pdf: { type: 'boolean' },
    seeds: { type: 'string' },
  },
  help: `Options:
  --db FILE         results database (default: results/<spec name>.duckdb)
  --out DIR         report folder (default: results/<spec name>/)
  --control METHOD  control method label for the post-hoc tests, or 'best' (overrides compare.control)
  --alpha A         significance level (overrides compare.alpha)
  --metrics LIST    ${metricsList()}
  --pdf             also write each figure as a one-page PDF (figures/*.pdf, for LaTeX)
  --seeds N         the experiment was run with 'run --seeds N': its tables are the first seed's, and each claim
                    says in how many of the N seeds its verdict was reproduced

Reads only the database; never re-runs a learner. See docs/reports.md for the compare: and reference: sections.`,
  async run(pos, v) {
    const spec = onePositional(pos, this.usage);
    const { writeExperimentReport } = await import('../../report/index.js');
    const r = await writeExperimentReport(spec, {
      db: v['db'] as string | undefined,
      out: v['out'] as string | undefined,
      control: v['control'] as string | undefined,
      alpha: numberOption(v['alpha'], '--alpha'),
      pdf: v['pdf'] === true,
      endsProcess: true,
      seeds: intOption(v['seeds'], '--seeds', 1),
      metrics:
        v['metrics'] === undefined
          ? undefined
          : (v['metrics'] as string)
              .split(',')
              .map((m) => m.trim())
              .filter(Boolean),
    });
    if (r.snapshot) noteSnapshot(r.snapshot.db, r.snapshot.holder);
    process.stdout.write(
      `report: ${r.markdown}\n        ${r.html}\n        ${r.csv}\n        ${r.tables.length} tables (tables/*.tex, *.csv), ${r.figures.length} figures (figures/*.svg${v['pdf'] === true ? ', *.pdf' : ''})\n` +
        provisionalLine(r.verdicts, '        '),
    );
    return EXIT.ok;
  },
};
