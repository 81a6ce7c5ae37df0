import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CsvPieceReader, parseCsv, parseCsvBytes } from '../../src/datasets/csv.js';
import { loadRegistry } from '../../src/datasets/registry.js';
import { Rng } from '../../src/util/rng.js';
import { numericValues } from '../../src/datasets/table.js';

const enc = new TextEncoder();

/** parseCsvBytes at every chunk size must give exactly parseCsv's table (or exactly its error). */
function sameEitherWay(
  text: string,
  chunkSizes: number[],
  opts: Parameters<typeof parseCsv>[1] = { file: 't.csv' },
): void {
  let expected: unknown;
  try {
    expected = parseCsv(text, opts);
  } catch (e) {
    expected = (e as Error).message;
  }
  const bytes = enc.encode(text);
  for (const size of chunkSizes) {
    let got: unknown;
    try {
      got = parseCsvBytes(bytes, opts, size);
    } catch (e) {
      got = (e as Error).message;
    }
    expect(got, `chunk size ${size}`).toEqual(expected);
  }
}

describe('CSV read in pieces', () => {
  it('quotes, CRLF, lone CR, blank lines, BOM, multi-byte characters split across pieces', () => {
    const text =
      '\ufeffname, x ,class\r\n' +
      '"a, ""quoted""\nvalue",1.5,Yes\r\n' +
      '\r\n' +
      'é日本,?,No\r' +
      '  plain  , 2 ,Yes\n' +
      '"",3,\n' +
      'ü,4e1,No';
    sameEitherWay(text, [1, 2, 3, 4, 5, 7, 11, 64, 1 << 20]);
  });

  it('the same errors with the same line numbers', () => {
    sameEitherWay('a,class\n1,x\n2\n', [1, 3, 5, 100]);
    sameEitherWay('a,class\n1,x\n"open,y\n', [1, 3, 5, 100]);
    sameEitherWay('a,class\n1,x\n"q"z,y\n', [1, 3, 5, 100]);
    sameEitherWay('a,class\r\n\r\n1,x\r\nb,y\r\n', [1, 2, 3, 100], { file: 't.csv', columnTypes: { a: 'numeric' } });
  });

  it('labels only from rows that keep their class; numeric when every kept value is a number', () => {
    sameEitherWay('a,b,class\nzz,1,?\n1,2,A\n2,3,B\n', [1, 4, 100]);
    sameEitherWay('a,b,class\n1,q,A\n2,?,B\n', [1, 4, 100]);
  });

  it('random tables, random piece sizes', () => {
    const rng = new Rng('csv-stream');
    const pick = (xs: string[]): string => xs[rng.int(xs.length)];
    for (let t = 0; t < 30; t++) {
      const rows = ['p,q,class'];
      for (let r = 0; r < 40; r++)
        rows.push(
          [
            pick(['1', '2.5', '?', '', '"3"', 'x', ' 7 ']),
            pick(['u', 'v', '"w,z"', '?']),
            pick(['A', 'B', '?', '"C\nD"']),
          ].join(','),
        );
      sameEitherWay(rows.join(pick(['\n', '\r\n', '\r'])) + pick(['', '\n']), [1 + rng.int(9), 1 + rng.int(60)]);
    }
  });

  it('shipped CSV files with missing values and quoting read to the same table in 4 kB pieces', () => {
    const reg = loadRegistry();
    for (const e of ['breast-cancer', 'hepatitis', 'horse-colic', 'credit-a', 'zoo'].map((n) => reg.get(n))) {
      const bytes = readFileSync(join(reg.root, e.file));
      const opts = {
        file: e.file,
        name: e.name,
        ...(e.classColumn ? { classColumn: e.classColumn } : {}),
        ...(e.columnTypes ? { columnTypes: e.columnTypes } : {}),
      };
      expect(parseCsvBytes(bytes, opts, 1 << 12), e.name).toEqual(parseCsv(bytes.toString('utf8'), opts));
    }
  });

  it('short ASCII fields (read without making strings) keep their exact text', () => {
    const t = parseCsvBytes(enc.encode('a,b,class\nabcdefg,1,?\nabcdefgh,1.0,A\n ~! ,?,B\n~!,1,B\n?,2,A\n'), {
      file: 'p.csv',
    });
    expect(t.n).toBe(4); // the row with a missing class is dropped
    const a = t.columns[0];
    const b = t.columns[1];
    if (a.type !== 'categorical' || b.type !== 'numeric') throw new Error('unexpected column types');
    expect(a.labels).toEqual(['abcdefgh', '~!']); // 'abcdefg' was only in the dropped row; ' ~! ' trims to '~!'
    expect(Array.from(a.codes)).toEqual([0, 1, 1, -1]);
    expect(Array.from(numericValues(b))).toEqual([1, NaN, 1, 2]);
    expect(t.classLabels).toEqual(['A', 'B']);
  });
});

it('blank lines add no value to a column whose missing markers leave out the empty string', () => {
  // Read byte by byte, a blank line is one empty field; it must not reach the first column's dictionary.
  sameEitherWay('a,class\n\nx,p\n   \ny,q\n\n', [1, 2, 3, 100], { file: 'b.csv', missing: ['NA'] });
  sameEitherWay('a\n\nx\n\ny\n', [1, 2, 100], { file: 'b.csv', missing: ['NA'] });
});

it('a byte-order mark or a character after a closing quote cut by a piece boundary', () => {
  sameEitherWay('\ufeffa,class\n1,p\n', [1, 2, 3, 4]);
  sameEitherWay('a,class\n"x"日,p\n', [1, 2, 3, 9, 10, 11, 100]);
  sameEitherWay('a,class\n"x" \u00a0,p\n', [1, 2, 11, 12, 100]);
});

it('bytes that are not UTF-8 are one error at every piece size, wherever they fall', () => {
  const good = enc.encode('a,class\n1,p\né,q\n');
  for (const bad of [
    [0xff],
    [0xc3], // a lead byte without its continuation
    [0xe6, 0x97], // cut short
    [0x80], // a continuation byte alone
  ]) {
    for (const at of [8, 11, good.length]) {
      const bytes = new Uint8Array([...good.subarray(0, at), ...bad, ...good.subarray(at)]);
      for (const size of [1, 2, 3, 5, 100]) {
        expect(() => parseCsvBytes(bytes, { file: 'u.csv' }, size), `${bad} at ${at}, pieces of ${size}`).toThrow(
          'u.csv: the file is not UTF-8 text; convert it (e.g. iconv -f latin1 -t utf-8)',
        );
      }
    }
  }
});

describe('coded columns widen as their dictionaries grow', () => {
  it('columns grown a row or a few at a time, moved or widened, give the same table (dropped rows too)', () => {
    // Column a gets its 129th and 32,769th distinct label after many steps of growth, so the ids read so far
    // are widened; rows without a class (every 7th) are dropped, so the codes are not the ids row for row.
    const n = 33_000;
    const lines = ['a,x,class'];
    for (let r = 0; r < n; r++) lines.push(`k${r},${(r * 37) % 301},${r % 7 === 3 ? '?' : `c${r % 3}`}`);
    const text = lines.join('\n');
    const whole = parseCsv(text, { file: 'p.csv' });
    expect(whole.droppedRows).toBe(4714);
    // Reservations of 1 to 100 rows (the columns move to larger buffers many times), steps of 1 to 64 rows.
    for (const [reserveRows, stepRows] of [
      [1, 1],
      [3, 2],
      [100, 64],
      [1 << 16, 7],
    ] as const) {
      const got = parseCsvBytes(enc.encode(text), { file: 'p.csv' }, 1 << 14, { reserveRows, stepRows });
      expect(got, `reserve ${reserveRows}, step ${stepRows}`).toEqual(whole);
    }
    const a = whole.columns[0];
    if (a.type !== 'categorical') throw new Error('types');
    // The ids reached 33,000 while reading (Int32 pieces); the kept rows use 28,286 labels, so Int16 codes.
    expect(a.codes).toBeInstanceOf(Int16Array);
    expect(a.labels).toHaveLength(28_286);
    expect(whole.classColumn).toBeInstanceOf(Int8Array);
  });

  it('Int8 → Int16 → Int32 ids while reading; codes match the labels row by row', () => {
    // Column a: 40,000 distinct labels (past both widening points); x: 300 distinct numbers; y: 3 labels.
    const n = 40_000;
    const lines = ['a,x,y,class'];
    for (let r = 0; r < n; r++)
      lines.push(`k${(r * 7919) % n},${(r % 300) / 4},${r % 3 === 0 ? '?' : `v${r % 3}`},${r % 2}`);
    const t = parseCsvBytes(enc.encode(lines.join('\n')), { file: 'w.csv' }, 1 << 16);
    const [a, x, y] = t.columns;
    if (a.type !== 'categorical' || x.type !== 'numeric' || y.type !== 'categorical') throw new Error('types');
    expect(a.codes).toBeInstanceOf(Int32Array);
    expect(x.ids).toBeInstanceOf(Int16Array);
    expect(y.codes).toBeInstanceOf(Int8Array);
    const xs = numericValues(x);
    for (let r = 0; r < n; r++) {
      expect(a.labels[a.codes[r]]).toBe(`k${(r * 7919) % n}`);
      expect(xs[r]).toBe((r % 300) / 4);
      expect(y.codes[r] < 0 ? '?' : y.labels[y.codes[r]]).toBe(r % 3 === 0 ? '?' : `v${r % 3}`);
    }
  });
});

describe('a small file without quotes, read whole as text', () => {
  /** The table (or error) of the bytes read whole (as text) and byte by byte in pieces: the same. */
  function sameAsBytes(bytes: Uint8Array, opts: Parameters<typeof parseCsv>[1] = { file: 'w.csv' }): void {
    const read = (size: number): unknown => {
      try {
        return parseCsvBytes(bytes, opts, size);
      } catch (e) {
        return (e as Error).message;
      }
    };
    const asText = vi.spyOn(CsvPieceReader.prototype as unknown as { parseText(b: Buffer): void }, 'parseText');
    const whole = read(bytes.length + 1);
    expect(asText, 'read as text').toHaveBeenCalledTimes(1);
    asText.mockClear();
    for (const size of [1, 3, Math.max(1, bytes.length - 1)]) {
      if (size >= bytes.length) continue;
      expect(read(size), `pieces of ${size}`).toEqual(whole);
    }
    expect(asText, 'read byte by byte').not.toHaveBeenCalled();
    asText.mockRestore();
  }

  it('spaces, tabs and other white space around fields, blank lines, every line end, a byte-order mark', () => {
    for (const text of [
      'a, b ,class\n1,\tx ,p\n \t \n2 ,y,q',
      '\ufeffa,class\r\n\r\n1,p\r\n 2.0 ,q\r\n',
      'a,class\r1,p\r\r2,q\r',
      'a,class\n\u00a0x\u00a0,p\n\u000bx,q\n y\u2028,r\n',
      'a,b,class\n,,p\n?,,q\n , ,r\n',
      'a,class\n\n\n1,p\n\n',
      'é,日本,class\nü,ß,p\n€,ü,q\n',
      'a,class\nabcdefgh,p\nabcdefg,p\n~!,q\n',
    ])
      sameAsBytes(enc.encode(text));
    sameAsBytes(enc.encode('a,class\n\nx,p\n   \ny,q\n\n'), { file: 'b.csv', missing: ['NA'] });
    sameAsBytes(enc.encode('a,b,class\n1,u,A\n2,v,B\n3,w,A\n'), { file: 'c.csv', classColumn: 'b' });
    sameAsBytes(enc.encode('a,b,class\n1,u,A\n2,v,B\n3,w,A\n'), { file: 'c.csv', columnTypes: { a: 'categorical' } });
  });

  it('the same errors with the same line numbers', () => {
    for (const text of [
      'a,class\n1,x\n2\n',
      'a,class\n1,x\n2,y,z\n',
      'a,,class\n1,2,x\n',
      'a,a,class\n1,2,x\n',
      '\n\n',
      'a,class\n\n',
      'a,class\n1,?\n2,?\n',
      'a,class\n\n1,x\nb,y\n',
    ])
      sameAsBytes(enc.encode(text), { file: 'e.csv', columnTypes: { a: 'numeric' } });
    sameAsBytes(new Uint8Array([...enc.encode('a,class\n1,p\n'), 0xff, ...enc.encode(',q\n')]));
  });

  it('a file with a quote, or larger than it says, is read byte by byte', () => {
    const asText = vi.spyOn(CsvPieceReader.prototype as unknown as { parseText(b: Buffer): void }, 'parseText');
    const quoted = enc.encode('a,class\n"1",p\n2,q\n');
    expect(parseCsvBytes(quoted, { file: 'q.csv' })).toEqual(parseCsvBytes(quoted, { file: 'q.csv' }, 1));
    const reader = new CsvPieceReader({ file: 'g.csv' }, { bytes: 8 });
    reader.push(enc.encode('a,class\n'));
    reader.push(enc.encode('1,p\n'));
    expect(reader.finish().n).toBe(1);
    expect(asText).not.toHaveBeenCalled();
    asText.mockRestore();
  });
});
