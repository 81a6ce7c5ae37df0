import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseArff } from '../../src/datasets/arff.js';
import { numericValues, type RawTable } from '../../src/datasets/table.js';
import { UserError } from '../../src/util/errors.js';

const FIX = new URL('../fixtures/datasets/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, FIX), 'utf8');

function userError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('expected a UserError');
}

function labelsOf(t: RawTable, name: string): string[] {
  const c = t.columns.find((x) => x.name === name)!;
  if (c.type !== 'categorical') throw new Error('numeric');
  return c.labels;
}

const head = '@relation r\n@attribute a numeric\n@attribute class {p,q}\n@data\n';

describe('parseArff', () => {
  it('reads the weather fixture: comments, quoted names and values, missing, declaration order', () => {
    const t = parseArff(fixture('weather.arff'), { file: 'weather.arff' });
    expect(t.name).toBe('weather');
    expect(t.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'outlook:categorical',
      'temperature:numeric',
      'relative humidity:numeric',
      'windy:categorical',
    ]);
    // No attribute is named 'class', so the last one is the class; labels keep declaration order.
    expect(t.className).toBe('play');
    expect(t.classLabels).toEqual(['yes', 'no']);
    expect(Array.from(t.classColumn)).toEqual([1, 1, 0, 0, 0, 1]);
    expect(labelsOf(t, 'outlook')).toEqual(['sunny', 'overcast', 'rainy']);
    expect(labelsOf(t, 'windy')).toEqual(['TRUE', 'FALSE']);
    const outlook = t.columns[0];
    expect(outlook.type === 'categorical' && Array.from(outlook.codes)).toEqual([0, 0, 1, 2, 2, 2]);
    const hum = t.columns[2];
    expect(hum.type === 'numeric' && Array.from(numericValues(hum))).toEqual([85, 90, 86, NaN, 80, 70]);
  });

  it("prefers an attribute named 'class', accepts double quotes, escapes and string attributes", () => {
    const text = [
      '% header comment',
      '@RELATION "quoted relation"',
      '@ATTRIBUTE class {"c d", e}',
      '@attribute s string',
      '@attribute n INTEGER',
      '@data',
      "\"c d\", 'it\\'s', 3",
      'e, abc, ?',
      "e, '?', 5 % trailing comment",
    ].join('\n');
    const t = parseArff(text, { file: 'q.arff' });
    expect(t.className).toBe('class');
    expect(t.classLabels).toEqual(['c d', 'e']);
    expect(Array.from(t.classColumn)).toEqual([0, 1, 1]);
    // String attributes become categorical with sorted labels; a quoted '?' is a value, not missing.
    expect(labelsOf(t, 's')).toEqual(['?', 'abc', "it's"]);
    const n = t.columns[1];
    expect(n.type === 'numeric' && Array.from(numericValues(n))).toEqual([3, NaN, 5]);
  });

  it('drops rows with a missing class and keeps declared but unused nominal values', () => {
    const t = parseArff('@relation r\n@attribute a {x,y,z}\n@attribute class {p,q,r}\n@data\nx,p\ny,?\nx,q\n', {
      file: 'd.arff',
    });
    expect(t.n).toBe(2);
    expect(t.droppedRows).toBe(1);
    expect(t.classLabels).toEqual(['p', 'q', 'r']);
    expect(labelsOf(t, 'a')).toEqual(['x', 'y', 'z']);
  });

  it('turns a numeric class into a categorical one in numeric order', () => {
    const t = parseArff('@relation r\n@attribute a {x}\n@attribute y numeric\n@data\nx,10\nx,9\nx,10\n', {
      file: 'n.arff',
    });
    expect(t.className).toBe('y');
    expect(t.classLabels).toEqual(['9', '10']);
    expect(Array.from(t.classColumn)).toEqual([1, 0, 1]);
  });

  it('honours classColumn', () => {
    const t = parseArff(head + '1,p\n', { file: 'c.arff', classColumn: 'class' });
    expect(t.className).toBe('class');
    expect(userError(() => parseArff(head + '1,p\n', { file: 'c.arff', classColumn: 'zzz' }))).toBe(
      "c.arff: class column 'zzz' not found (columns: a, class)",
    );
  });
});

describe('parseArff errors', () => {
  it('sparse rows are rejected', () => {
    expect(userError(() => parseArff(fixture('sparse.arff'), { file: 'sparse.arff' }))).toBe(
      'sparse.arff:6: sparse ARFF rows are not supported; save the data as dense ARFF or CSV',
    );
  });

  it('wrong number of values', () => {
    expect(userError(() => parseArff(head + '1,p\n2\n', { file: 'w.arff' }))).toBe(
      'w.arff:6: row has 1 values, 2 attributes declared',
    );
  });

  it('undeclared nominal value', () => {
    expect(userError(() => parseArff(head + '1,p\n2,zz\n', { file: 'u.arff' }))).toBe(
      "u.arff:6: value 'zz' is not declared for nominal attribute 'class'",
    );
  });

  it('non-numeric value in a numeric attribute', () => {
    expect(userError(() => parseArff(head + 'abc,p\n', { file: 'v.arff' }))).toBe(
      "v.arff:5: attribute 'a' is numeric but has value 'abc'",
    );
  });

  it('unsupported types, unknown declarations, missing sections', () => {
    expect(userError(() => parseArff('@relation r\n@attribute d date "yyyy"\n@data\n', { file: 't.arff' }))).toBe(
      "t.arff:2: attribute 'd': date attributes are not supported",
    );
    expect(userError(() => parseArff('@relation r\n@attribute a foo\n', { file: 't.arff' }))).toBe(
      "t.arff:2: attribute 'a' has unknown type 'foo'",
    );
    expect(userError(() => parseArff('@relation r\n@attribute a numeric\n', { file: 't.arff' }))).toBe(
      't.arff: no @data section',
    );
    expect(userError(() => parseArff(head, { file: 't.arff' }))).toBe('t.arff: no data rows after @data');
    expect(userError(() => parseArff('', { file: 'e.arff' }))).toBe('e.arff: empty file (no @attribute declarations)');
    expect(userError(() => parseArff('@relation r\nhello\n', { file: 'h.arff' }))).toBe(
      "h.arff:2: expected @relation, @attribute or @data, got 'hello'",
    );
    expect(userError(() => parseArff("@relation r\n@attribute a {x}\n@data\n'x\n", { file: 'q.arff' }))).toBe(
      'q.arff:4: unterminated quoted value',
    );
    expect(
      userError(() =>
        parseArff('@relation r\n@attribute a numeric\n@attribute a {x}\n@data\n1,x\n', { file: 'd.arff' }),
      ),
    ).toBe("d.arff:3: duplicate attribute name 'a'");
  });
});
