import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsMarkdown } from '../../src/cli/metrics-doc.js';
import { reportCommand } from '../../src/cli/commands/report.js';
import { METRICS, SCORE_IDS } from '../../src/metrics/all.js';

describe('docs/metrics.md', () => {
  it('is the catalog the metric registry generates (run `bnclab methods --write`)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'docs', 'metrics.md'), 'utf8');
    expect(committed).toBe(metricsMarkdown());
  });

  it('documents every registered metric', () => {
    const md = metricsMarkdown();
    for (const m of METRICS) {
      expect(md).toContain(`## \`${m.id}\`: ${m.title}`);
      expect(md).toContain(m.description);
    }
  });
});

describe('report --help', () => {
  it('lists the compared metrics from the registry, wrapped as it always printed them', () => {
    // The lines as they were hand-written before the registry (a metric appended later continues them).
    expect(reportCommand.help).toContain(
      '  --metrics LIST    comma-separated: accuracy, zero_one_loss, rmse, log_loss, auc, auc_ovr, brier,\n' +
        '                    balanced_accuracy, macro_f1',
    );
    const at = reportCommand.help.indexOf('--metrics LIST');
    const text = reportCommand.help.slice(at, reportCommand.help.indexOf('(overrides compare.metrics)', at));
    expect(text.replace(/\s+/g, ' ')).toBe(`--metrics LIST comma-separated: ${SCORE_IDS.join(', ')} `);
  });
});
