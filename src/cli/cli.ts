/**
 * bnclab command line (started by main.ts). Exit codes (EXIT in src/util/errors.ts): 0 ok, 1 some jobs failed (or a check failed),
 * 2 usage or input error, 3 internal error, 4 results database failure, 5 report not written, 130 interrupted.
 * Input errors print one line, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../util/errors.js';
import { closest } from '../util/text.js';
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
import { mergeCommand } from './commands/merge.js';
import { statusCommand } from './commands/status.js';
import { submitCommand } from './commands/submit.js';
import { sqlCommand } from './commands/sql.js';
import { fitCommand } from './commands/fit.js';
import { synthCommand } from './commands/synth.js';
import { exportCommand } from './commands/export.js';
import { uiCommand } from './commands/ui.js';
import { debugCommand } from './commands/debug.js';
import { predictCommand } from './commands/predict.js';
import { bootCommand } from './commands/boot.js';

const commands: Record<string, Command> = {
  run: runCommand,
  plan: planCommand,
  report: reportCommand,
  baseline: baselineCommand,
  check: checkCommand,
  datasets: datasetsCommand,
  schema: schemaCommand,
  methods: methodsCommand,
  merge: mergeCommand,
  status: statusCommand,
  submit: submitCommand,
  sql: sqlCommand,
  fit: fitCommand,
  synth: synthCommand,
  export: exportCommand,
  ui: uiCommand,
  debug: debugCommand,
  predict: predictCommand,
  boot: bootCommand,
};

function mainHelp(): string {
  const names = Object.keys(commands);
  const w = Math.max(...names.map((n) => n.length));
  return `bnclab ${BNCLAB_VERSION}: reproducible experiments on Bayesian network classifiers

Usage: bnclab <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(w)}  ${commands[n].summary}`).join('\n')}

Run 'bnclab <command> --help' for a command's options.
Exit codes: 0 ok, 1 some jobs failed (or check found a regression), 2 usage or input error, 3 internal error,
4 the results database cannot be opened or written, 5 results stored but the report not written, 130 interrupted.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp() + '\n');
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${BNCLAB_VERSION}\n`);
    return EXIT.ok;
  }
  const cmd = commands[name];
  if (!cmd) throw new UserError(`unknown command '${name}'; commands: ${Object.keys(commands).join(', ')}`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...cmd.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0];
    // Node's own text ("Unknown option '--worker'. To specify a positional argument …") becomes one short line.
    const bad = /Unknown option '(-{1,2})([^']+)'/.exec(msg);
    if (bad) {
      const near = closest(bad[2], Object.keys(cmd.options));
      throw new UserError(
        `${name}: unknown option ${bad[1]}${bad[2]}${near ? ` (did you mean --${near}?)` : ''}; usage: ${cmd.usage}`,
      );
    }
    // "--job-timeout -1": Node reads -1 as an option and calls the argument ambiguous; say what was wrong.
    const ambiguous = /Option '(-{1,2}[^']+)' argument is ambiguous/.exec(msg);
    if (ambiguous) {
      const at = rest.indexOf(ambiguous[1]);
      const value = at >= 0 ? rest[at + 1] : undefined;
      if (value !== undefined && /^-\d|^-\.\d/.test(value))
        throw new UserError(`${name}: ${ambiguous[1]}: expected a number ≥ 0, got '${value}'`);
      throw new UserError(
        `${name}: ${ambiguous[1]} needs a value, got the option '${value ?? ''}' (write ${ambiguous[1]}=${value ?? 'VALUE'} for a value that starts with '-'); usage: ${cmd.usage}`,
      );
    }
    throw new UserError(`${name}: ${msg}; usage: ${cmd.usage}`);
  }
  if (parsed.values['help']) {
    process.stdout.write(`Usage: ${cmd.usage}\n\n${cmd.summary}.\n\n${cmd.help}\n`);
    return EXIT.ok;
  }
  return cmd.run(parsed.positionals, parsed.values as Record<string, unknown>);
}

// A reader that goes away (`bnclab run … | head`) is not an error of the run: stop writing to it, go on.
// Once per process (the build's code-cache script runs several command lines in one).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

/**
 * Runs one command line (the arguments after `bnclab`) and sets the process's exit code, which it also
 * returns. An input error prints one line; anything else is an internal error with its stack.
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    process.exitCode = await main(argv);
  } catch (e: unknown) {
    if (e instanceof UserError) {
      process.stderr.write(`bnclab: ${e.message}\n`);
      process.exitCode = e.exitCode;
    } else {
      process.stderr.write(`bnclab: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = EXIT.internal;
    }
  }
  return Number(process.exitCode);
}
