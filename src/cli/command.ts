/** The shape of one `bnclab` sub-command and the option parsers they share. Each command lives in
 * src/cli/commands/<name>.ts and loads its heavy modules lazily inside run(), so start-up stays cheap. */
import type { ParseArgsConfig } from 'node:util';
import { UserError } from '../util/errors.js';

export interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly help: string;
  run(positionals: string[], values: Record<string, unknown>): Promise<number>;
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => (i > 0 && i < 4 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function onePositional(pos: string[], usage: string): string {
  if (pos.length !== 1) throw new UserError(`usage: ${usage}`);
  return pos[0];
}

export function intOption(v: unknown, name: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${name}: expected an integer ≥ ${min}, got '${String(v)}'`);
  return n;
}

export function numberOption(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UserError(`${name}: expected a number ≥ 0, got '${String(v)}'`);
  return n;
}

/**
 * The line `report` and `run` print under the report's files when some published-claim verdicts are
 * provisional (the run has not finished every dataset × method they read); empty when none is.
 */
export function provisionalLine(
  verdicts: { readonly total: number; readonly provisional: number },
  indent: string,
): string {
  if (verdicts.provisional === 0) return '';
  return `${indent}${verdicts.provisional} of ${verdicts.total} published-claim verdicts are provisional: the run has not finished the jobs they read (report.md, "Reproduction of published results")\n`;
}

/**
 * Say on stderr that a database was read from a snapshot copy (a run is writing it; store/snapshot.ts):
 * `holder` is the store's or query's `snapshotOf`, undefined when the file itself was read.
 */
export function noteSnapshot(db: string, holder: string | undefined): void {
  if (holder)
    process.stderr.write(
      `note: ${db} is being written by ${holder}; read from a snapshot copy of what it had stored\n`,
    );
}
