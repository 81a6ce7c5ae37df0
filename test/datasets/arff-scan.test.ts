/**
 * The single-pass ARFF scanner (src/datasets/arff.ts) against an independent oracle
 * (test/datasets/arff-oracle.ts, written from the format and sharing no code with it): the same table — labels,
 * codes, numbers, dropped rows — or the same one-line error message, on shipped data sets written as ARFF
 * and on 3,000 seeded random files full of the awkward cases (quotes and escapes, comments, CR/CRLF/LF,
 * Unicode spaces, missing classes, undeclared values, ragged rows, weights, sparse rows, bad class names).
 */
import { describe, expect, it } from 'vitest';
import { parseArff } from '../../src/datasets/arff.js';
import { loadDataset } from '../../src/datasets/load.js';
import { loadRegistry } from '../../src/datasets/registry.js';
import type { RawTable } from '../../src/datasets/table.js';
import { UserError } from '../../src/util/errors.js';
import { Rng } from '../../src/util/rng.js';
import { parseArffOracle } from './arff-oracle.js';

type Outcome = { table: RawTable } | { error: string };

function outcome(f: () => RawTable): Outcome {
  try {
    return { table: f() };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { error: e.message };
  }
}

function same(text: string, file: string, classColumn?: string): Outcome {
  const opts = { file, ...(classColumn !== undefined ? { classColumn } : {}) };
  const ours = outcome(() => parseArff(text, opts));
  const theirs = outcome(() => parseArffOracle(text, opts));
  expect(ours).toEqual(theirs);
  return ours;
}

/** ARFF quoting as Weka writes it. */
const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A registry data set written as ARFF: nominal columns with their labels, numeric ones as numbers. */
function asArff(name: string): string {
  const { table } = loadDataset(loadRegistry().get(name));
  const lines = [`@relation ${q(name)}`];
  for (const c of table.columns) {
    lines.push(
      c.type === 'numeric'
        ? `@attribute ${q(c.name)} numeric`
        : `@attribute ${q(c.name)} {${c.labels.map(q).join(',')}}`,
    );
  }
  lines.push(`@attribute ${q(table.className)} {${table.classLabels.map(q).join(',')}}`, '@data');
  for (let r = 0; r < table.n; r++) {
    const row = table.columns.map((c) => {
      if (c.type === 'numeric') return c.ids[r] < 0 ? '?' : String(c.distinct[c.ids[r]]);
      return c.codes[r] < 0 ? '?' : q(c.labels[c.codes[r]]);
    });
    row.push(q(table.classLabels[table.classColumn[r]]));
    lines.push(row.join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe('parseArff equals the independent oracle', () => {
  it('on shipped data sets written as ARFF (missing values, numbers, many rows)', () => {
    for (const name of ['car', 'tic-tac-toe', 'house-votes-84', 'iris', 'letter']) {
      const text = asArff(name);
      const out = same(text, `${name}.arff`);
      expect('table' in out).toBe(true);
      const t = (out as { table: RawTable }).table;
      const orig = loadDataset(loadRegistry().get(name)).table;
      expect(t.n).toBe(orig.n);
      expect(Array.from(t.classColumn)).toEqual(Array.from(orig.classColumn));
    }
    // house-votes-84 has '?' cells: they come back as code -1.
    const hv = (same(asArff('house-votes-84'), 'hv.arff') as { table: RawTable }).table;
    expect(hv.columns.some((c) => c.type === 'categorical' && c.codes.includes(-1))).toBe(true);
  });

  it('on 3,000 random files, valid and broken', () => {
    const rng = new Rng('test/arff-scan');
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
    const LABELS = ['a', 'b', 'c d', "it's", '?', '1', '10', '2.5', 'x%y', 'p,q', 'é', '\\', '"dq"', ' sp '];
    const PAD = ['', '', '', ' ', '\t', '  ', '\u00a0', '\u2003'];
    const EOL = ['\n', '\n', '\r\n', '\r'];
    let tables = 0;
    let errors = 0;
    const messages = new Set<string>();
    for (let it = 0; it < 3000; it++) {
      const eol = pick(EOL);
      const clean = rng.int(2) === 0; // half the files without deliberate breakage
      const bad = (k: number): boolean => rng.int(k) === 0 && !clean;
      const m = 1 + rng.int(4);
      const types: ('nominal' | 'numeric' | 'string')[] = [];
      const labels: string[][] = [];
      const lines: string[] = [];
      if (rng.int(20) === 0) lines.push('\ufeff% bom');
      if (rng.int(3) === 0) lines.push('% a comment');
      lines.push(rng.int(2) ? '@relation r' : "@RELATION 'the rel' % c");
      const names: string[] = [];
      for (let a = 0; a < m; a++) {
        const t = pick(['nominal', 'nominal', 'numeric', 'string'] as const);
        types.push(t);
        const name = a === m - 1 && rng.int(2) ? 'class' : bad(30) && a > 0 ? names[0] : `at ${a}`;
        names.push(name);
        const ls = t === 'nominal' ? [...new Set(Array.from({ length: 1 + rng.int(4) }, () => pick(LABELS)))] : [];
        labels.push(ls);
        const typeText =
          t === 'nominal'
            ? `{${ls.map((l) => (rng.int(2) ? q(l) : `"${l.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(', ')}}`
            : rng.int(2)
              ? t
              : t.toUpperCase();
        lines.push(`@attribute ${q(name)} ${typeText}${rng.int(5) === 0 ? ' % note' : ''}`);
        if (bad(100)) lines.push('@attribute broken foo');
      }
      lines.push(rng.int(2) ? '@data' : '@DATA');
      const nRows = rng.int(8);
      for (let r = 0; r < nRows; r++) {
        if (rng.int(8) === 0) lines.push(pick(['', '   ', '% comment row', '\t% x']));
        const cells: string[] = [];
        const n = bad(25) ? m + pick([-1, 1]) : m;
        for (let a = 0; a < n; a++) {
          const t = types[a] ?? 'string';
          let v: string;
          const roll = rng.int(10);
          if (roll === 0) v = '?';
          else if (roll === 1) v = "'?'";
          else if (t === 'numeric')
            v = bad(3) ? pick(['abc', '0x1', '1e', '']) : pick(['1', '-2.5', '3e2', '.5', '7', ' 4 ']);
          else if (t === 'nominal' && (roll < 8 || !bad(2)))
            v = rng.int(2) ? q(pick(labels[a])) : pick(labels[a]).replace(/[,%'"]/g, '');
          else v = rng.int(2) ? q(pick(LABELS)) : pick(['zz', 'a', 'b', '10', '9', '2']);
          if (bad(60)) v = `'open`;
          if (bad(60)) v = `'x'y`;
          if (rng.int(60) === 0) v = `'a\\nb\\tc\\rd\\qe'`;
          cells.push(pick(PAD) + v + pick(PAD));
        }
        let row = cells.join(',');
        if (rng.int(12) === 0) row += ' % trailing';
        if (bad(40)) row += ',{2}';
        if (bad(60)) row = `{0 ${pick(LABELS)}}`;
        if (bad(60)) row += ',';
        lines.push(row);
      }
      const text = lines.join(eol) + (rng.int(2) ? eol : '');
      const cls = pick([undefined, undefined, 'class', 'at 0', clean ? undefined : 'nope']);
      const out = same(text, `f${it}.arff`, cls);
      if ('table' in out) tables++;
      else {
        errors++;
        messages.add(
          out.error
            .replace(/^f\d+\.arff(:\d+)?: /, '')
            .replace(/'[\s\S]*$/, '')
            .replace(/\d+/g, 'N'),
        );
      }
    }
    // Both outcomes are well represented, and so are the different error paths.
    expect(tables).toBeGreaterThan(300);
    expect(errors).toBeGreaterThan(1000);
    expect(messages.size).toBeGreaterThanOrEqual(10);
  });

  it('keeps line numbers across CRLF, CR and comment lines in value errors', () => {
    const text = '@relation r\r\n@attribute a {x}\r\n@attribute class {p}\r\n@data\r\n% c\r\nx,p\r\rx,q\r\n';
    expect(same(text, 'l.arff')).toEqual({
      error: "l.arff:8: value 'q' is not declared for nominal attribute 'class'",
    });
    // A malformed row later in the file is reported before an undeclared value earlier on (whole-file order).
    expect(same('@relation r\n@attribute a {x}\n@data\ny\nx,x\n', 'o.arff')).toEqual({
      error: 'o.arff:5: row has 2 values, 1 attributes declared',
    });
    // Undeclared values in rows dropped for a missing class are not errors.
    const t = same('@relation r\n@attribute a {x}\n@attribute class {p}\n@data\nzz,?\nx,p\n', 'k.arff') as {
      table: RawTable;
    };
    expect(t.table.n).toBe(1);
    expect(t.table.droppedRows).toBe(1);
  });
});
