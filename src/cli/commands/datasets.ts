import type { Command } from '../command.js';
import { table } from '../command.js';
import { EXIT } from '../../util/errors.js';

export const datasetsCommand: Command = {
  summary: 'list the shipped datasets (configs/datasets.yaml)',
  usage: 'bnclab datasets [--group NAME]',
  options: { group: { type: 'string' } },
  help: `Options:
  --group NAME  only the datasets of one group (quickstart, hdp68, subbkb, small, medium, large)`,
  async run(_pos, v) {
    const { loadRegistry } = await import('../../datasets/registry.js');
    const reg = loadRegistry();
    const entries = v['group'] ? reg.group(v['group'] as string) : reg.all();
    const rows = entries.map((e) => [
      e.name,
      String(e.rows),
      String(e.attributes),
      String(e.classes),
      e.groups.join(','),
    ]);
    process.stdout.write(table(['name', 'rows', 'attributes', 'classes', 'groups'], rows) + '\n');
    return EXIT.ok;
  },
};
