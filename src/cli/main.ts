#!/usr/bin/env node
/**
 * bnclab command line. Exit codes: 0 ok, 1 some jobs failed (or a check failed), 2 usage or input error,
 * 130 interrupted. Input errors print one line, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { UserError } from '../util/errors.js';
import { BNCLAB_VERSION } from '../version.js';
import type { Command } from './command.js';
import { runCommand } from './commands/run.js';
import { planCommand } from './commands/plan.js';
import { reportCommand } from './commands/report.js';
import { baselineCommand } from './commands/baseline.js';
import { checkCommand } from './commands/check.js';
import { datasetsCommand } from './commands/datasets.js';
import { schemaCommand } from './commands/schema.js';
import { methodsCommand } from './commands/methods.js';
import { sqlCommand } from './commands/sql.js';
import { fitCommand } from './commands/fit.js';
import { synthCommand } from './commands/synth.js';

const commands: Record<string, Command> = {
  run: runCommand,
  plan: planCommand,
  report: reportCommand,
  baseline: baselineCommand,
  check: checkCommand,
  datasets: datasetsCommand,
  schema: schemaCommand,
  methods: methodsCommand,
  sql: sqlCommand,
  fit: fitCommand,
  synth: synthCommand,
};

function mainHelp(): string {
  const names = Object.keys(commands);
  const w = Math.max(...names.map((n) => n.length));
  return `bnclab ${BNCLAB_VERSION}: reproducible experiments on Bayesian network classifiers

Usage: bnclab <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(w)}  ${commands[n]!.summary}`).join('\n')}

Run 'bnclab <command> --help' for a command's options.
Exit codes: 0 ok, 1 some jobs failed (or check found a regression), 2 usage or input error, 130 interrupted.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp() + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${BNCLAB_VERSION}\n`);
    return 0;
  }
  const cmd = commands[name];
  if (!cmd) throw new UserError(`unknown command '${name}'; commands: ${Object.keys(commands).join(', ')}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...cmd.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UserError(`${name}: ${(e as Error).message.split('\n')[0]}; usage: ${cmd.usage}`);
  }
  if (parsed.values['help']) {
    process.stdout.write(`Usage: ${cmd.usage}\n\n${cmd.summary}.\n\n${cmd.help}\n`);
    return 0;
  }
  return cmd.run(parsed.positionals, parsed.values as Record<string, unknown>);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UserError) {
      process.stderr.write(`bnclab: ${e.message}\n`);
      process.exitCode = e.exitCode;
    } else {
      process.stderr.write(`bnclab: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 3;
    }
  },
);
