/**
 * Input validation shared by the statistical routines.
 *
 * Every public function in `src/stats` rejects malformed input (NaN, infinities, ragged matrices, too few
 * observations) with a {@link StatsInputError} whose message names the offending argument and position, so a
 * report can surface the problem instead of silently printing a meaningless p-value.
 */

/** Error thrown for invalid input to a statistical routine. */
export class StatsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatsInputError';
  }
}

/** Throws unless `x` is a finite number. */
export function assertFiniteNumber(x: unknown, name: string): asserts x is number {
  if (typeof x !== 'number' || !Number.isFinite(x)) {
    throw new StatsInputError(`${name} must be a finite number, got ${String(x)}`);
  }
}

/** Throws unless `x` is an integer ≥ `min`. */
export function assertInteger(x: unknown, name: string, min = 0): asserts x is number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min) {
    throw new StatsInputError(`${name} must be an integer >= ${min}, got ${String(x)}`);
  }
}

/** Throws unless `alpha` lies strictly between 0 and 1. */
export function assertAlpha(alpha: unknown, name = 'alpha'): asserts alpha is number {
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) {
    throw new StatsInputError(`${name} must be in (0, 1), got ${String(alpha)}`);
  }
}

/** Throws unless `values` is a non-empty array of finite numbers. */
export function assertFiniteVector(values: readonly number[], name: string, minLength = 1): void {
  if (!Array.isArray(values)) throw new StatsInputError(`${name} must be an array of numbers`);
  if (values.length < minLength) {
    throw new StatsInputError(`${name} must have at least ${minLength} element(s), got ${values.length}`);
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new StatsInputError(`${name}[${i}] must be a finite number, got ${String(v)}`);
    }
  }
}

/** Throws unless `a` and `b` are finite vectors of one length (paired observations), each at least `minLength` long. */
export function assertPairedVectors(a: readonly number[], b: readonly number[], minLength = 1): void {
  assertFiniteVector(a, 'a', minLength);
  assertFiniteVector(b, 'b', minLength);
  if (a.length !== b.length)
    throw new StatsInputError(`a and b must be paired (same length), got ${a.length} and ${b.length}`);
}

/**
 * Throws unless `matrix` is a rectangular datasets × methods matrix of finite numbers with at least
 * `minRows` rows and `minCols` columns.
 */
export function assertMatrix(
  matrix: readonly (readonly number[])[],
  name = 'matrix',
  minRows = 1,
  minCols = 2,
): { rows: number; cols: number } {
  if (!Array.isArray(matrix)) throw new StatsInputError(`${name} must be an array of rows (datasets × methods)`);
  const rows = matrix.length;
  if (rows < minRows) throw new StatsInputError(`${name} must have at least ${minRows} row(s) (datasets), got ${rows}`);
  const first = matrix[0];
  if (!Array.isArray(first)) throw new StatsInputError(`${name}[0] must be an array of numbers`);
  const cols = first.length;
  if (cols < minCols) {
    throw new StatsInputError(`${name} must have at least ${minCols} column(s) (methods), got ${cols}`);
  }
  for (let i = 0; i < rows; i++) {
    const row = matrix[i];
    if (!Array.isArray(row)) throw new StatsInputError(`${name}[${i}] must be an array of numbers`);
    if (row.length !== cols) {
      throw new StatsInputError(`${name} is ragged: row ${i} has ${row.length} columns, row 0 has ${cols}`);
    }
    for (let j = 0; j < cols; j++) {
      const v = row[j];
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new StatsInputError(`${name}[${i}][${j}] must be a finite number, got ${String(v)}`);
      }
    }
  }
  return { rows, cols };
}

/**
 * Rounds `x` to `digits` decimal places the way C's printf (and therefore a printed table) does:
 * via the exact binary value of `x` (`Number.prototype.toFixed`). `digits` undefined leaves `x` unchanged.
 */
export function roundDecimals(x: number, digits: number | undefined): number {
  if (digits === undefined) return x;
  return Number(x.toFixed(digits));
}

/** Validates an optional `digits` setting (integer in 0..20). */
export function assertDigits(digits: number | undefined, name = 'digits'): void {
  if (digits === undefined) return;
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) {
    throw new StatsInputError(`${name} must be an integer in 0..20, got ${String(digits)}`);
  }
}
