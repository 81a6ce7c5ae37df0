import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/datasets/csv.js';
import { numericValues, type RawColumn, type RawTable } from '../../src/datasets/table.js';
import { UserError } from '../../src/util/errors.js';

const FIX = new URL('../fixtures/datasets/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, FIX), 'utf8');

function col(t: RawTable, name: string): RawColumn {
  const c = t.columns.find((x) => x.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
}

function decoded(t: RawTable, name: string): (string | null)[] {
  const c = col(t, name);
  if (c.type !== 'categorical') throw new Error(`${name} is numeric`);
  return Array.from(c.codes, (k) => (k < 0 ? null : c.labels[k]));
}

function numbers(t: RawTable, name: string): number[] {
  const c = col(t, name);
  if (c.type !== 'numeric') throw new Error(`${name} is categorical`);
  return Array.from(numericValues(c));
}

/** The UserError message thrown by f (fails the test if f does not throw a UserError). */
function userError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    const msg = (e as Error).message;
    expect(msg).not.toContain('\n');
    return msg;
  }
  throw new Error('expected a UserError');
}

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and trims unquoted fields', () => {
    const text =
      'name, note ,class\n' + '  a  ,"x, y",p\n' + 'b,"say ""hi""",q\n' + 'c,"two\nlines",p\n' + 'd, " kept " ,q\n';
    const t = parseCsv(text, { file: 'q.csv' });
    expect(t.n).toBe(4);
    expect(t.columns.map((c) => c.name)).toEqual(['name', 'note']);
    expect(decoded(t, 'name')).toEqual(['a', 'b', 'c', 'd']);
    expect(decoded(t, 'note')).toEqual(['x, y', 'say "hi"', 'two\nlines', ' kept ']);
    expect(t.classLabels).toEqual(['p', 'q']);
    expect(Array.from(t.classColumn)).toEqual([0, 1, 0, 1]);
    expect(t.name).toBe('q');
  });

  it('strips a UTF-8 BOM and handles CRLF line ends (fixture)', () => {
    const t = parseCsv(fixture('bom-crlf.csv'), { file: 'bom-crlf.csv' });
    expect(t.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(numbers(t, 'a')).toEqual([1, 2]);
    expect(decoded(t, 'b')).toEqual(['x, y', 'z']);
    expect(t.classLabels).toEqual(['p', 'q']);
  });

  it('treats ? and empty fields as missing, infers types, skips blank lines', () => {
    const text = 'x,y,class\n1.5,a,p\n?,b,q\n\n  \n-2e1,,p\n3,?,q\n';
    const t = parseCsv(text, { file: 'm.csv' });
    expect(col(t, 'x').type).toBe('numeric');
    expect(numbers(t, 'x')).toEqual([1.5, NaN, -20, 3]);
    expect(decoded(t, 'y')).toEqual(['a', 'b', null, null]);
    expect(t.n).toBe(4);
  });

  it('uses a configurable missing list', () => {
    const t = parseCsv('x,class\nNA,p\n?,q\n', { file: 'na.csv', missing: ['NA'] });
    expect(decoded(t, 'x')).toEqual([null, '?']);
  });

  it('orders categorical labels independently of row order: numeric-aware when all look numeric, else by code units', () => {
    const a = parseCsv('k,s,class\n10,b,y\n9,B,x\n1.0,a,y\n1,a,x\n', {
      file: 'a.csv',
      columnTypes: { k: 'categorical' },
    });
    const b = parseCsv('k,s,class\n1,a,x\n1.0,a,y\n9,B,x\n10,b,y\n', {
      file: 'b.csv',
      columnTypes: { k: 'categorical' },
    });
    for (const t of [a, b]) {
      const k = col(t, 'k');
      const s = col(t, 's');
      expect(k.type === 'categorical' && k.labels).toEqual(['1', '1.0', '9', '10']);
      expect(s.type === 'categorical' && s.labels).toEqual(['B', 'a', 'b']);
      expect(t.classLabels).toEqual(['x', 'y']);
    }
  });

  it('is categorical as soon as one value is not a plain decimal number (hex and Infinity are not numbers)', () => {
    const t = parseCsv('h,i,class\n1,1,p\n0x10,Infinity,q\n', { file: 'h.csv' });
    expect(col(t, 'h').type).toBe('categorical');
    expect(col(t, 'i').type).toBe('categorical');
  });

  it("picks 'class', else the last column, else the named one; the class is always categorical", () => {
    const t1 = parseCsv('class,a\n1,x\n2,y\n', { file: 'c.csv' });
    expect(t1.className).toBe('class');
    expect(t1.columns.map((c) => c.name)).toEqual(['a']);
    expect(t1.classLabels).toEqual(['1', '2']);
    const t2 = parseCsv('a,b,label\nx,1,10\ny,2,9\n', { file: 'c.csv' });
    expect(t2.className).toBe('label');
    expect(t2.classLabels).toEqual(['9', '10']);
    const t3 = parseCsv('a,b,label\nx,1,10\ny,2,9\n', { file: 'c.csv', classColumn: 'a' });
    expect(t3.className).toBe('a');
    expect(t3.columns.map((c) => c.name)).toEqual(['b', 'label']);
  });

  it('drops rows whose class is missing and counts them', () => {
    const t = parseCsv('a,class\n1,p\n2,?\n3,\n4,q\n', { file: 'd.csv' });
    expect(t.n).toBe(2);
    expect(t.droppedRows).toBe(2);
    expect(numbers(t, 'a')).toEqual([1, 4]);
  });

  it('applies registry column types', () => {
    const t = parseCsv('z,legs,class\n0,4,p\n1,2,q\n', {
      file: 'zoo.csv',
      columnTypes: { z: 'categorical', legs: 'numeric' },
    });
    expect(col(t, 'z').type).toBe('categorical');
    expect(col(t, 'legs').type).toBe('numeric');
  });
});

describe('parseCsv errors (one line, naming file and line)', () => {
  it('empty file', () => {
    expect(userError(() => parseCsv(fixture('empty.csv'), { file: 'empty.csv' }))).toBe(
      'empty.csv: empty file (no header row)',
    );
    expect(userError(() => parseCsv('\n  \n', { file: 'blank.csv' }))).toBe('blank.csv: empty file (no header row)');
  });

  it('header only', () => {
    expect(userError(() => parseCsv(fixture('header-only.csv'), { file: 'header-only.csv' }))).toBe(
      'header-only.csv: no data rows after the header',
    );
  });

  it('ragged row', () => {
    expect(userError(() => parseCsv(fixture('ragged.csv'), { file: 'ragged.csv' }))).toBe(
      'ragged.csv:3: row has 2 fields, header has 3',
    );
  });

  it('ragged row after a quoted line break reports the physical line', () => {
    expect(userError(() => parseCsv('a,class\n"x\ny",p\n1\n', { file: 'r.csv' }))).toBe(
      'r.csv:4: row has 1 fields, header has 2',
    );
  });

  it('unterminated quote names the line where the quote opened', () => {
    expect(userError(() => parseCsv(fixture('unterminated.csv'), { file: 'unterminated.csv' }))).toBe(
      'unterminated.csv:2: unterminated quoted field',
    );
  });

  it('text after a closing quote', () => {
    expect(userError(() => parseCsv('a,class\n"x"y,p\n', { file: 'x.csv' }))).toBe(
      "x.csv:2: unexpected character 'y' after a closing quote",
    );
  });

  it('missing class column', () => {
    expect(userError(() => parseCsv('a,b\n1,2\n', { file: 'k.csv', classColumn: 'target' }))).toBe(
      "k.csv: class column 'target' not found (columns: a, b)",
    );
  });

  it('duplicate and empty column names', () => {
    expect(userError(() => parseCsv('a,b,a\n1,2,3\n', { file: 'dup.csv' }))).toBe(
      "dup.csv:1: duplicate column name 'a' in the header",
    );
    expect(userError(() => parseCsv('a,,class\n1,2,3\n', { file: 'e.csv' }))).toBe(
      'e.csv:1: header field 2 is empty (every column needs a name)',
    );
  });

  it('non-numeric value in a column the registry declares numeric', () => {
    expect(
      userError(() => parseCsv('x,class\n1,p\n2,q\nabc,p\n', { file: 'n.csv', columnTypes: { x: 'numeric' } })),
    ).toBe("n.csv:4: column 'x' is declared numeric in the dataset's entry but has value 'abc'");
  });

  it('registry column absent from the header', () => {
    expect(userError(() => parseCsv('x,class\n1,p\n', { file: 'g.csv', columnTypes: { y: 'numeric' } }))).toBe(
      "g.csv: column 'y', declared numeric in the dataset's entry (its numeric: list), is not in the header (columns: x, class)",
    );
  });

  it('every class missing', () => {
    expect(userError(() => parseCsv('x,class\n1,?\n', { file: 'c.csv' }))).toBe(
      "c.csv: every row has a missing class value in column 'class'",
    );
  });
});
