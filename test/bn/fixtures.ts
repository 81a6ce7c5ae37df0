/**
 * The worked example shared by the bn/structures/estimators tests: 3 attributes, 2 classes, 8 rows, one
 * missing value (X2 in row 7).
 *
 *   row  X0 X1 X2  C
 *    0    0  0  0  0
 *    1    0  0  1  0
 *    2    0  1  2  0
 *    3    1  1  0  0
 *    4    1  1  1  1
 *    5    1  0  2  1
 *    6    1  1  0  1
 *    7    0  1  -  1
 */
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';

export function tinyData(): DiscreteData {
  return discreteFromArrays({
    cards: [2, 2, 3],
    rows: [
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 2],
      [1, 1, 0],
      [1, 1, 1],
      [1, 0, 2],
      [1, 1, 0],
      [0, 1, -1],
    ],
    classes: [0, 0, 0, 0, 1, 1, 1, 1],
    classCard: 2,
  });
}

/** Minimal CSV reader for the shipped UCI files: comma separated, header row, empty field = missing. */
export function readCsvAsDiscrete(text: string): DiscreteData {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const header = lines[0].split(',');
  const m = header.length - 1;
  const labels: string[][] = header.map(() => []);
  const codes: number[][] = header.map(() => []);
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    f.forEach((v, k) => {
      if (v === '') {
        codes[k].push(-1);
        return;
      }
      let c = labels[k].indexOf(v);
      if (c < 0) {
        c = labels[k].length;
        labels[k].push(v);
      }
      codes[k].push(c);
    });
  }
  const n = lines.length - 1;
  return {
    n,
    names: header.slice(0, m),
    labels: labels.slice(0, m),
    cards: Int32Array.from(labels.slice(0, m).map((l) => l.length)),
    columns: codes.slice(0, m).map((c) => Int32Array.from(c)),
    className: header[m],
    classLabels: labels[m],
    classCard: labels[m].length,
    classColumn: Int32Array.from(codes[m]),
  };
}
