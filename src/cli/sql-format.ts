/** Text forms of a query result for `bnclab sql`: an aligned table (numbers right-aligned), CSV or JSON Lines. */
import { csvField } from '../report/table.js';
import type { SqlResult } from '../store/sql.js';

function jsonValue(v: unknown): unknown {
  return typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v;
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v, (_k, x: unknown) => jsonValue(x));
}

export function formatSqlResult(r: SqlResult, format: 'table' | 'csv' | 'json'): string {
  if (format === 'json') {
    return r.rows
      .map(
        (row) =>
          JSON.stringify(Object.fromEntries(r.columns.map((c, i) => [c, row[i] ?? null])), (_k, x: unknown) =>
            jsonValue(x),
          ) + '\n',
      )
      .join('');
  }
  if (format === 'csv') {
    const lines = [r.columns.map((c) => csvField(c)).join(',')];
    for (const row of r.rows)
      lines.push(
        row
          .map((v) => (typeof v === 'number' ? csvField(v) : csvField(v === null || v === undefined ? null : text(v))))
          .join(','),
      );
    return lines.join('\n') + '\n';
  }
  const cells = r.rows.map((row) => row.map(text));
  const numeric = r.columns.map(
    (_, i) =>
      r.rows.length > 0 &&
      r.rows.every((row) => row[i] === null || typeof row[i] === 'number' || typeof row[i] === 'bigint'),
  );
  const widths = r.columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (row: readonly string[]): string =>
    row
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(r.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
  out.push(`(${r.rows.length} row${r.rows.length === 1 ? '' : 's'})`);
  return out.join('\n') + '\n';
}
