/**
 * `external`: any program as a classifier, run on bnclab's folds. For each job bnclab writes the fold's
 * training and test rows to a fresh temporary folder (CSV with a header, or ARFF; class last; a program that
 * stays up with `send: stdin` gets the same bytes on its stdin instead, docs/spec.md), after its own
 * preprocessing by default (the discretized values every bnclab learner sees) or as read with
 * `preprocess: false`, and runs
 *
 *     <command...> <train file> <test file> <output file> <seed>
 *
 * in the spec's folder. The program writes to <output file> a CSV whose first line names the classes (as the
 * data files write them: labels, or codes with `values: codes`) and then one line of class probabilities per
 * test row, in the test file's row order. bnclab maps the named columns onto its class order (a class the
 * program never names, say one absent from the training rows, gets probability 0) and normalises each row.
 * A command that cannot start, exits non-zero, runs past `timeout`, or writes a wrong number of rows or
 * values fails its job with one line naming the command and what went wrong (the last line of its stderr
 * when it exited non-zero). The seed derives from the job key like every learner's.
 *
 * The job key holds the command line and (through `fileParams`) the sha256 of every argument that names a
 * file, so editing a script reruns its jobs.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { defineParams, registerBaseline, type LearnContext, type Model, type ParamsOf } from '../registry.js';
import type { DiscreteData } from '../bn/data.js';
import {
  exportDiscreteBytes,
  exportedClassNames,
  exportRawBytes,
  type ExportFormat,
  type ExportValues,
} from '../datasets/export.js';
import { UserError } from '../util/errors.js';
import { callHelper, type ProgramEnd } from './external-host.js';
import { runnableCommand } from './java-cache.js';

const EXTERNAL_PARAMS = defineParams({
  command: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    minItems: 1,
    required: true,
    description:
      "Program and its fixed arguments, run in the spec's folder; bnclab appends <train> <test> <output> <seed>",
  },
  format: {
    enum: ['csv', 'arff'] as ExportFormat[],
    default: 'csv',
    description: 'Data file format (CSV with a header, or ARFF); class last',
  },
  values: {
    enum: ['labels', 'codes'] as ExportValues[],
    default: 'labels',
    description: 'Categories as their labels or as integer codes 0..r-1 (classes too)',
  },
  preprocess: {
    type: 'boolean',
    default: true,
    description: "false: write the rows as read (numbers unbinned) instead of bnclab's preprocessing",
  },
  timeout: {
    type: 'number',
    exclusiveMinimum: 0,
    default: 3600,
    description:
      'Seconds a run (or, with server: true, a fold) may take before its process group is ended and the job fails',
  },
  kill_after: {
    type: 'number',
    minimum: 0,
    default: 5,
    inKey: false,
    description: 'Seconds between SIGTERM and SIGKILL to the process group when the timeout ends it',
  },
  server: {
    type: 'boolean',
    default: false,
    inKey: false,
    description:
      'true: the command (run as written, no arguments appended) stays up for many folds and answers each on stdout (docs/spec.md)',
  },
  send: {
    enum: ['files', 'stdin'] as FoldTransport[],
    default: 'files',
    inKey: false,
    description:
      "With server: true, how each fold reaches the program: 'files' (two temporary files named on the request line) or 'stdin' (the files' bytes on stdin after the request line; docs/spec.md)",
  },
  files: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Filled in by bnclab: sha256 of every command argument that names a file (part of the job key)',
  },
});
type ExternalParams = ParamsOf<typeof EXTERNAL_PARAMS>;
type FoldTransport = 'files' | 'stdin';

/** Fields of one CSV line; a quoted field may hold commas and doubled quotes (RFC 4180). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ') i++;
    let field = '';
    if (line[i] === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] === '"' && line[i + 1] === '"') {
          field += '"';
          i++;
        } else if (line[i] === '"') break;
        else field += line[i];
      }
      i = line.indexOf(',', i);
    } else {
      const end = line.indexOf(',', i);
      field = (end < 0 ? line.slice(i) : line.slice(i, end)).trim();
      i = end;
    }
    out.push(field);
    if (i < 0) return out;
    i++;
  }
}

/** The longest line accepted in a program's output (file or stdout): longer is an error naming this limit. */
const MAX_OUTPUT_LINE = 1024 * 1024;
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads a program's output line by line (header naming the classes, then one row per test row) into
 * probabilities in bnclab's class order, without holding the text: an output of any size is read, and one
 * with too many rows stops at the first extra one. Each value must be a decimal number (digits, a point, an
 * exponent: no `0x1`, `Infinity`, `NaN`), finite and ≥ 0; a row is divided by its largest value before it is
 * normalised, so no row under- or overflows (`1e308,1e308,1e308` is 1/3 each), and a row of zeros is an error.
 */
class PredictionReader {
  private column: number[] | undefined;
  private r = 0;
  readonly out: Float64Array;
  private readonly C: number;
  private readonly row: Float64Array;

  constructor(
    private readonly classNames: readonly string[],
    private readonly rows: number,
    private readonly what: string,
    private readonly where = 'output',
  ) {
    this.C = classNames.length;
    this.out = new Float64Array(rows * this.C);
    this.row = new Float64Array(this.C);
  }

  /** One line (its number counting every line from 1, blank ones included). */
  line(text: string, lineNo: number): void {
    if (text.trim() === '') return;
    const { what, where } = this;
    if (text.length > MAX_OUTPUT_LINE)
      throw new UserError(`${what}: ${where} line ${lineNo} is longer than ${MAX_OUTPUT_LINE} characters (the limit)`);
    if (!this.column) {
      const header = csvFields(text);
      const index = new Map(this.classNames.map((c, i) => [c, i]));
      const column = header.map((h) => {
        const c = index.get(h);
        if (c === undefined)
          throw new UserError(`${what}: ${where} header names class '${h}', not one of ${this.classNames.join(', ')}`);
        return c;
      });
      if (new Set(column).size !== column.length)
        throw new UserError(`${what}: ${where} header names a class twice: ${header.join(',')}`);
      this.column = column;
      return;
    }
    const column = this.column;
    const r = this.r++;
    if (r >= this.rows)
      throw new UserError(`${what}: wrote more than ${this.rows} probability rows for ${this.rows} test rows`);
    const cells = text.split(',');
    if (cells.length !== column.length) {
      throw new UserError(
        `${what}: ${where} line ${lineNo} has ${cells.length} values, the header names ${column.length} classes`,
      );
    }
    let max = 0;
    const row = this.row;
    row.fill(0);
    cells.forEach((cell, j) => {
      const t = cell.trim();
      const v = DECIMAL.test(t) ? Number(t) : Number.NaN;
      if (!Number.isFinite(v))
        throw new UserError(
          `${what}: ${where} line ${lineNo}: '${t.slice(0, 40)}' is not a probability (a finite decimal number ≥ 0)`,
        );
      row[column[j]] = v;
      if (v > max) max = v;
    });
    if (!(max > 0)) throw new UserError(`${what}: ${where} line ${lineNo} (test row ${r + 1}): every probability is 0`);
    let sum = 0;
    for (let c = 0; c < this.C; c++) sum += row[c] / max;
    for (let c = 0; c < this.C; c++) this.out[r * this.C + c] = row[c] / max / sum;
  }

  finish(): Float64Array {
    const { what, where } = this;
    if (!this.column)
      throw new UserError(
        `${what}: wrote an empty ${where === 'output' ? 'output file' : where} (expected a header naming the classes and ${this.rows} rows)`,
      );
    if (this.r !== this.rows)
      throw new UserError(`${what}: wrote ${this.r} probability rows for ${this.rows} test rows`);
    return this.out;
  }
}

/** Rows of probabilities parsed from the program's output, mapped onto bnclab's class order. */
export function parsePredictions(
  text: string,
  classNames: readonly string[],
  rows: number,
  what: string,
): Float64Array {
  const reader = new PredictionReader(classNames, rows, what);
  text.split(/\r?\n/).forEach((l, i) => reader.line(l, i + 1));
  return reader.finish();
}

/** The output file read in pieces through a PredictionReader (no limit on its size, only on a line's). */
function readPredictionFile(file: string, reader: PredictionReader, what: string): Float64Array {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    throw new UserError(`${what}: exited 0 but wrote no output file (the third argument after the command)`);
  }
  try {
    const buf = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let lineNo = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      rest += decoder.write(buf.subarray(0, n));
      let start = 0;
      for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n', start)) {
        reader.line(rest.slice(start, nl).replace(/\r$/, ''), ++lineNo);
        start = nl + 1;
      }
      rest = rest.slice(start);
      if (rest.length > MAX_OUTPUT_LINE) reader.line(rest, lineNo + 1); // throws: too long
    }
    rest += decoder.end();
    if (rest !== '') reader.line(rest.replace(/\r$/, ''), ++lineNo);
    return reader.finish();
  } finally {
    closeSync(fd);
  }
}

/** An argument as a POSIX shell would need it written (single quotes when it holds anything special). */
function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** The last non-empty line of a program's stderr (its error message, usually), shortened. */
function lastLine(stderr: string): string {
  const line =
    stderr
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .pop() ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Why a program ended, as one line (its stderr's last line appended). */
function endText(what: string, program: string, e: ProgramEnd, timeout: number, midFold: boolean): string {
  if (e.spawnError) return `${what}: cannot run '${program}': ${e.spawnError}`;
  if (e.timedOut) return `${what}: timed out after ${timeout} s (timeout)`;
  const why =
    e.code === null || e.code === undefined
      ? `was killed by ${e.signal ?? 'a signal'}`
      : `exited with status ${e.code}`;
  const tail = lastLine(e.stderr);
  return `${what}: ${why}${midFold ? ' in the middle of a fold' : ''}${tail ? `: ${tail}` : ''}`;
}

class ExternalModel implements Model {
  /** The program learns and predicts in one call, on the training and test files together. */
  readonly learnsAtPrediction = true;

  constructor(
    private readonly train: DiscreteData,
    private readonly params: ExternalParams,
    private readonly ctx: LearnContext,
    private readonly seed: number,
  ) {}

  /** The training and test files' bytes: preprocessed rows, or with `preprocess: false` the rows as read. */
  private foldBytes(test: DiscreteData): [Buffer, Buffer] {
    const { format, values, preprocess } = this.params;
    if (preprocess)
      return [
        exportDiscreteBytes(this.train, format, values, 'train'),
        exportDiscreteBytes(test, format, values, 'test'),
      ];
    const raw = this.ctx.rawFold?.();
    if (!raw) throw new Error('external: preprocess: false needs the raw fold, which this caller does not provide');
    if (raw.test.length !== test.n)
      throw new Error(`external: raw fold has ${raw.test.length} test rows, the preprocessed one ${test.n}`);
    return [
      exportRawBytes(raw.table, raw.train, format, values, 'train'),
      exportRawBytes(raw.table, raw.test, format, values, 'test'),
    ];
  }

  posterior(test: DiscreteData): Float64Array {
    const { command, format, values, timeout, server, send } = this.params;
    const graceMs = this.params.kill_after * 1000;
    const what = `external '${command.join(' ')}'`;
    const cwd = this.ctx.dir ?? process.cwd();
    const [program, ...args] = runnableCommand(command, cwd);
    const classNames = exportedClassNames(test.classLabels, values);
    /** One fold sent to the program that stays up for many folds; its answer read. */
    const ask = (line: string, body?: readonly Uint8Array[]): Float64Array => {
      const reply = callHelper({
        op: 'fold',
        key: JSON.stringify([program, args, cwd, this.params.files ?? {}]),
        program: program,
        args,
        cwd,
        timeoutMs: timeout * 1000,
        graceMs,
        line,
        ...(body ? { body } : {}),
        rows: test.n,
        maxLine: MAX_OUTPUT_LINE,
      });
      if (reply.kind === 'end') throw new UserError(endText(what, program, reply.end, timeout, true));
      if (reply.kind === 'error') throw new UserError(`${what}: answered error: ${reply.message}`);
      if (reply.kind === 'protocol') throw new UserError(`${what}: ${reply.message}; its process was ended`);
      const reader = new PredictionReader(classNames, test.n, what, 'stdout');
      reply.lines.forEach((l, i) => reader.line(l, i + 2));
      return reader.finish();
    };
    if (send === 'stdin' && !server)
      throw new UserError(`${what}: send: stdin needs server: true (a program run once per fold gets files)`);
    if (server && send === 'stdin') {
      // No files: the bytes follow the request line on the program's stdin.
      const [trainBytes, testBytes] = this.foldBytes(test);
      return ask(['data', trainBytes.length, testBytes.length, this.seed].join('\t'), [trainBytes, testBytes]);
    }
    const dir = mkdtempSync(join(tmpdir(), 'bnclab-external-'));
    try {
      const ext = format === 'arff' ? 'arff' : 'csv';
      const trainFile = join(dir, `train.${ext}`);
      const testFile = join(dir, `test.${ext}`);
      const outFile = join(dir, 'predictions.csv');
      const [trainBytes, testBytes] = this.foldBytes(test);
      writeFileSync(trainFile, trainBytes);
      writeFileSync(testFile, testBytes);
      if (server) return ask(['fold', trainFile, testFile, String(this.seed)].join('\t'));
      const reply = callHelper({
        op: 'run',
        program: program,
        args: [...args, trainFile, testFile, outFile, String(this.seed)],
        cwd,
        timeoutMs: timeout * 1000,
        graceMs,
      });
      if (reply.kind !== 'end') throw new Error(`external: unexpected answer ${reply.kind}`);
      if (reply.end.code !== 0) throw new UserError(endText(what, program, reply.end, timeout, false));
      return readPredictionFile(outFile, new PredictionReader(classNames, test.n, what), what);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

export const external = registerBaseline({
  id: 'external',
  revision: 1,
  title: 'Any program run on the same folds (CSV/ARFF in, class probabilities out)',
  citation:
    'bnclab: runs a command on each fold (train file, test file, output file, seed); examples in learners/ ' +
    '(scikit-learn, XGBoost, Weka)',
  params: EXTERNAL_PARAMS,
  fileParams: (params) => (Array.isArray(params['command']) ? (params['command'] as string[]) : []),
  commands: (params) =>
    Array.isArray(params['command']) ? [(params['command'] as string[]).map(shellWord).join(' ')] : [],
  fit(train, params, ctx) {
    return new ExternalModel(train, params, ctx, ctx.rng.nextUint32());
  },
});
