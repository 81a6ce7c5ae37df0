/**
 * `bnclab predict`: class probabilities for the rows of a CSV file from a fitted network (bnclab JSON, BIF or
 * XMLBIF; src/bn/read-model.ts), with the preprocessing the model was fitted with: each numeric cell falls in
 * the interval of the stored cut points, each categorical cell is matched to a state by name, a missing cell
 * ('?' or empty) takes the attribute's missing-value state when the model has one and is otherwise
 * marginalised exactly, as in a run. Columns the model does not name are ignored; an attribute without a
 * column is treated as missing in every row. Cells that match no state are treated as missing and counted.
 */
import { applyCuts } from '../datasets/discretize.js';
import { parseNumber } from '../datasets/columns.js';
import { codeColumn, MISSING, type DiscreteData } from '../bn/data.js';
import { networkModel, type NetworkFile } from '../bn/read-model.js';
import type { CsvRows } from '../datasets/csv-rows.js';

interface Prediction {
  readonly classLabels: readonly string[];
  /** The data's class column, when it has one (null cells: no class value). */
  readonly truth?: readonly (string | null)[];
  /** The most probable class per row (the first of tied ones, in the model's state order). */
  readonly predicted: readonly string[];
  /** n × classes, row-major. */
  readonly probs: Float64Array;
  /** Attributes the data has no column for. */
  readonly absent: readonly string[];
  /** Columns of the data the model does not use (its class column excepted). */
  readonly ignored: readonly string[];
  /** Per attribute, cells that match none of its states (treated as missing). */
  readonly unmatched: ReadonlyMap<string, number>;
}

export function predictRows(net: NetworkFile, data: CsvRows): Prediction {
  const { model, attributes, classNode } = networkModel(net);
  const n = data.rows.length;
  const col = new Map(data.header.map((h, i) => [h, i]));
  const absent: string[] = [];
  const unmatched = new Map<string, number>();
  const columns = attributes.map((a) => {
    const out = codeColumn(a.states.length, n);
    const at = col.get(a.name);
    if (at === undefined) {
      absent.push(a.name);
      out.fill(MISSING);
      return out;
    }
    const cuts = net.preprocessing.cuts[a.name];
    const missingCode = net.preprocessing.missingState.includes(a.name) ? a.states.length - 1 : MISSING;
    const index = new Map(a.states.map((s, k) => [s, k]));
    let bad = 0;
    for (let r = 0; r < n; r++) {
      const cell = data.rows[r][at]!;
      let code: number;
      if (cell === null) code = missingCode;
      else if (cuts) {
        const v = parseNumber(cell);
        code = Number.isNaN(v) ? -2 : applyCuts(v, cuts);
      } else code = index.get(cell) ?? numericMatch(cell, a.states);
      if (code === -2) {
        bad++;
        code = MISSING;
      }
      out[r] = code;
    }
    if (bad > 0) unmatched.set(a.name, bad);
    return out;
  });
  const d: DiscreteData = {
    n,
    names: attributes.map((a) => a.name),
    labels: attributes.map((a) => a.states),
    cards: Int32Array.from(attributes.map((a) => a.states.length)),
    columns,
    className: classNode.name,
    classLabels: classNode.states,
    classCard: classNode.states.length,
    classColumn: new Int32Array(n),
  };
  const probs = model.posterior(d);
  const k = classNode.states.length;
  const predicted = Array.from({ length: n }, (_, r) => {
    let best = 0;
    for (let c = 1; c < k; c++) if (probs[r * k + c] > probs[r * k + best]) best = c;
    return classNode.states[best];
  });
  const clsAt = col.get(classNode.name);
  const used = new Set([...attributes.map((a) => a.name), classNode.name]);
  return {
    classLabels: classNode.states,
    ...(clsAt !== undefined ? { truth: data.rows.map((r) => r[clsAt]!) } : {}),
    predicted,
    probs,
    absent,
    ignored: data.header.filter((h) => !used.has(h)),
    unmatched,
  };
}

/** A state written as the same number ('1' for '1.0'), or -2: no state matches. */
function numericMatch(cell: string, states: readonly string[]): number {
  const v = parseNumber(cell);
  if (Number.isNaN(v)) return -2;
  const k = states.findIndex((s) => parseNumber(s) === v);
  return k < 0 ? -2 : k;
}

function csvCell(s: string): string {
  return /[",\n\r]/.test(s) || s !== s.trim() || s === '' ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV `predict` writes: row (0-based, data rows), truth (when the data has the class), predicted, p_<label>. */
export function predictionCsv(p: Prediction): string {
  const k = p.classLabels.length;
  const head = ['row', ...(p.truth ? ['truth'] : []), 'predicted', ...p.classLabels.map((l) => `p_${l}`)];
  const lines = [head.map(csvCell).join(',')];
  for (let r = 0; r < p.predicted.length; r++) {
    const cells = [String(r)];
    if (p.truth) cells.push(p.truth[r] === null ? '' : csvCell(p.truth[r]!));
    cells.push(csvCell(p.predicted[r]));
    for (let c = 0; c < k; c++) cells.push(String(p.probs[r * k + c]));
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}
