/**
 * Shared pieces of the CSV and ARFF readers: number recognition, deterministic label order, choice of the
 * class column, and assembly of a RawTable from per-column string cells.
 */
import { basename } from 'node:path';
import { UserError } from '../util/errors.js';
import type { CodeColumn } from '../bn/data.js';
import type { RawColumn, RawTable } from './table.js';

export type ColumnType = 'numeric' | 'categorical';

// Plain decimal notation only: Number() would also accept hex, binary, 'Infinity' and blank strings.
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The finite number written in s, or NaN when s is not a plain decimal number. */
export function parseNumber(s: string): number {
  if (!NUMBER_RE.test(s)) return NaN;
  const v = Number(s);
  return Number.isFinite(v) ? v : NaN;
}

/**
 * Distinct labels in a deterministic order that does not depend on row order: by numeric value when every
 * label is a number (so '2' < '10'; equal values such as '1' and '1.0' by code units), else by UTF-16 code
 * units (locale-independent).
 */
export function sortLabels(labels: Iterable<string>): string[] {
  const out = [...new Set(labels)];
  const nums = out.map(parseNumber);
  if (out.length > 0 && nums.every((v) => !Number.isNaN(v))) {
    const idx = out.map((_, i) => i);
    idx.sort((a, b) => nums[a] - nums[b] || cmpStr(out[a], out[b]));
    return idx.map((i) => out[i]);
  }
  return out.sort(cmpStr);
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Index of the class column: the named one if given (UserError when absent), else a column named 'class',
 * else one named 'class' in any letter case (when exactly one), else the last column.
 */
export function findClassColumn(names: readonly string[], file: string, requested?: string): number {
  if (requested !== undefined) {
    const i = names.indexOf(requested);
    if (i < 0) {
      throw new UserError(`${file}: class column '${requested}' not found (columns: ${listNames(names)})`);
    }
    return i;
  }
  const exact = names.indexOf('class');
  if (exact >= 0) return exact;
  const ci = names.flatMap((n, i) => (n.toLowerCase() === 'class' ? [i] : []));
  if (ci.length === 1) return ci[0];
  return names.length - 1;
}

/** Up to 12 names for a one-line message. */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, ... (${names.length} in all)` : shown;
}

/** Assemble a RawTable; `attributes` excludes the class. */
export function makeTable(
  name: string,
  attributes: RawColumn[],
  className: string,
  classLabels: string[],
  classColumn: CodeColumn,
  droppedRows: number,
): RawTable {
  return { name, n: classColumn.length, columns: attributes, className, classLabels, classColumn, droppedRows };
}

/**
 * File name without directory and extension, used as the table name. The platform's separators only: on
 * Linux a backslash is part of the name (`a\x.csv` is `a\x`, not `x`).
 */
export function baseName(file: string): string {
  const b = basename(file);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}
