import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { EXIT } from '../../util/errors.js';

export const schemaCommand: Command = {
  summary: 'print (or --write) the experiment JSON Schema for editors',
  usage: 'bnclab schema [--write]',
  options: { write: { type: 'boolean' } },
  help: `Options:
  --write   write configs/experiment.schema.json in the bnclab folder`,
  async run(_pos, v) {
    await import('../../methods.js');
    const { experimentSchema } = await import('../../spec/schema.js');
    const { packageRoot } = await import('../../util/paths.js');
    const text = JSON.stringify(experimentSchema(true), null, 2) + '\n';
    if (v['write']) {
      const file = resolve(packageRoot(), 'configs', 'experiment.schema.json');
      writeFileSync(file, text);
      process.stdout.write(`wrote ${file}\n`);
    } else process.stdout.write(text);
    return EXIT.ok;
  },
};
