/**
 * x·ln x for counts, read from one table shared by every score and information measure of a process: the
 * LL scores and the CMI of every attribute pair read millions of them. The table covers the integers below
 * XLOGX_TABLE_SIZE and grows to the largest count asked for; larger counts (a few cells of a table over many
 * rows) and weighted, fractional counts are computed as the table holds them, so a value is the same double
 * whether it came from the table or not. Without the cap the table grew to an entry per training row (72 MB
 * at 9·10^6 rows).
 */
const XLOGX_TABLE_SIZE = 1 << 16;

let table = new Float64Array(2);

/** The table, grown (by doubling, up to XLOGX_TABLE_SIZE entries) to hold the counts up to n. */
export function xlogxTable(n: number): Float64Array {
  if (n < table.length || table.length >= XLOGX_TABLE_SIZE) return table;
  const size = Math.min(XLOGX_TABLE_SIZE, Math.max(n + 1, table.length * 2));
  const t = new Float64Array(size);
  for (let v = 2; v < size; v++) t[v] = v * Math.log(v);
  table = t;
  return t;
}

/** v·ln v for a count v ≥ 0 (0 for v = 0): from t (xlogxTable) for an integer it holds, else computed. */
export function xlogx(t: Float64Array, v: number): number {
  return v < t.length && (v | 0) === v ? t[v] : v > 0 ? v * Math.log(v) : 0;
}
