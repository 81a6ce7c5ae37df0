import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const methodsCommand: Command = {
  summary:
    'list the registered structure learners, estimators and baselines (or --write docs/methods.md, docs/metrics.md)',
  usage: 'bnclab methods [<id>] [--write]',
  options: { write: { type: 'boolean' } },
  help: `Options:
  --write   write docs/methods.md (the catalog with citations and parameters) and docs/metrics.md (the
            metric catalog) in the bnclab folder

With an id (bnclab methods kdb): that method's citation, parameters with their defaults and types, and the
structure × estimator pairs it forms.`,
  async run(pos, v) {
    const { methodsMarkdown, methodDetail } = await import('../methods.js');
    if (pos.length > 1 || (pos.length === 1 && v['write'])) throw new UserError(`usage: ${this.usage}`);
    if (pos.length === 1) {
      process.stdout.write(methodDetail(pos[0]));
      return EXIT.ok;
    }
    const { listBaselines, listEstimators, listStructures } = await import('../../registry.js');
    const { packageRoot } = await import('../../util/paths.js');
    if (v['write']) {
      const file = resolve(packageRoot(), 'docs', 'methods.md');
      writeFileSync(file, methodsMarkdown());
      process.stdout.write(`wrote ${file}\n`);
      const { metricsMarkdown } = await import('../metrics-doc.js');
      const metrics = resolve(packageRoot(), 'docs', 'metrics.md');
      writeFileSync(metrics, metricsMarkdown());
      process.stdout.write(`wrote ${metrics}\n`);
      return EXIT.ok;
    }
    const rows = [
      ...listStructures().map((m) => ['structure', m.id, m.title]),
      ...listEstimators().map((m) => ['estimator', m.id, m.title]),
      ...listBaselines().map((m) => ['baseline', m.id, m.title]),
    ];
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => r[1].length));
    process.stdout.write(rows.map((r) => `${r[0].padEnd(w0)}  ${r[1].padEnd(w1)}  ${r[2]}`).join('\n') + '\n');
    return EXIT.ok;
  },
};
