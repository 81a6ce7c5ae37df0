/**
 * `external`: any program as a classifier, run on bnclab's folds. For each job bnclab writes the fold's
 * training and test rows to a fresh temporary folder (CSV with a header, or ARFF; class last), after its own
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
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineParams, registerBaseline, type LearnContext, type Model, type ParamsOf } from '../registry.js';
import type { DiscreteData } from '../bn/data.js';
import {
  exportDiscrete,
  exportedClassNames,
  exportRaw,
  type ExportFormat,
  type ExportValues,
} from '../datasets/export.js';
import { UserError } from '../util/errors.js';

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
    description: 'Seconds before the program is killed and the job fails',
  },
  files: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Filled in by bnclab: sha256 of every command argument that names a file (part of the job key)',
  },
});
export type ExternalParams = ParamsOf<typeof EXTERNAL_PARAMS>;

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

/** Rows of probabilities parsed from the program's output, mapped onto bnclab's class order. */
export function parsePredictions(
  text: string,
  classNames: readonly string[],
  rows: number,
  what: string,
): Float64Array {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0)
    throw new UserError(`${what}: wrote an empty output file (expected a header naming the classes and ${rows} rows)`);
  const header = csvFields(lines[0]!);
  const C = classNames.length;
  const index = new Map(classNames.map((c, i) => [c, i]));
  const column = header.map((h) => {
    const c = index.get(h);
    if (c === undefined)
      throw new UserError(`${what}: output header names class '${h}', not one of ${classNames.join(', ')}`);
    return c;
  });
  if (new Set(column).size !== column.length)
    throw new UserError(`${what}: output header names a class twice: ${header.join(',')}`);
  const body = lines.slice(1);
  if (body.length !== rows) throw new UserError(`${what}: wrote ${body.length} probability rows for ${rows} test rows`);
  const out = new Float64Array(rows * C);
  body.forEach((line, r) => {
    const cells = line.split(',');
    if (cells.length !== column.length) {
      throw new UserError(
        `${what}: output line ${r + 2} has ${cells.length} values, the header names ${column.length} classes`,
      );
    }
    let sum = 0;
    cells.forEach((cell, j) => {
      const v = Number(cell.trim());
      if (cell.trim() === '' || !Number.isFinite(v) || v < 0) {
        throw new UserError(`${what}: output line ${r + 2}: '${cell.trim()}' is not a probability`);
      }
      out[r * C + column[j]!] = v;
      sum += v;
    });
    if (!(sum > 0)) throw new UserError(`${what}: output line ${r + 2}: the probabilities sum to 0`);
    for (let c = 0; c < C; c++) out[r * C + c]! /= sum;
  });
  return out;
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

class ExternalModel implements Model {
  constructor(
    private readonly train: DiscreteData,
    private readonly params: ExternalParams,
    private readonly ctx: LearnContext,
    private readonly seed: number,
  ) {}

  posterior(test: DiscreteData): Float64Array {
    const { command, format, values, preprocess, timeout } = this.params;
    const what = `external '${command.join(' ')}'`;
    const dir = mkdtempSync(join(tmpdir(), 'bnclab-external-'));
    try {
      const ext = format === 'arff' ? 'arff' : 'csv';
      const trainFile = join(dir, `train.${ext}`);
      const testFile = join(dir, `test.${ext}`);
      const outFile = join(dir, 'predictions.csv');
      if (preprocess) {
        writeFileSync(trainFile, exportDiscrete(this.train, format, values, 'train'));
        writeFileSync(testFile, exportDiscrete(test, format, values, 'test'));
      } else {
        const raw = this.ctx.rawFold?.();
        if (!raw) throw new Error('external: preprocess: false needs the raw fold, which this caller does not provide');
        if (raw.test.length !== test.n)
          throw new Error(`external: raw fold has ${raw.test.length} test rows, the preprocessed one ${test.n}`);
        writeFileSync(trainFile, exportRaw(raw.table, raw.train, format, values, 'train'));
        writeFileSync(testFile, exportRaw(raw.table, raw.test, format, values, 'test'));
      }
      const [program, ...args] = command;
      const result = spawnSync(program!, [...args, trainFile, testFile, outFile, String(this.seed)], {
        cwd: this.ctx.dir ?? process.cwd(),
        timeout: timeout * 1000,
        killSignal: 'SIGKILL',
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (result.error) {
        const code = (result.error as NodeJS.ErrnoException).code;
        if (code === 'ETIMEDOUT') throw new UserError(`${what}: timed out after ${timeout} s (timeout)`);
        throw new UserError(`${what}: cannot run '${program}': ${code ?? result.error.message}`);
      }
      if (result.status !== 0) {
        const why = result.status === null ? `was killed by ${result.signal}` : `exited with status ${result.status}`;
        const tail = lastLine(result.stderr ?? '');
        throw new UserError(`${what}: ${why}${tail ? `: ${tail}` : ''}`);
      }
      let text: string;
      try {
        text = readFileSync(outFile, 'utf8');
      } catch {
        throw new UserError(`${what}: exited 0 but wrote no output file (the third argument after the command)`);
      }
      return parsePredictions(text, exportedClassNames(test.classLabels, values), test.n, what);
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
  fit(train, params, ctx) {
    return new ExternalModel(train, params, ctx, ctx.rng.nextUint32());
  },
});
