/** compare.sweeps: wins, draws and losses of each swept method against the same method at the reference value. */
import type { MethodSpec } from '../../spec/load.js';
import type { CompareMetric, SweepSpec } from '../../spec/report-sections.js';
import { metricDef } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Block, Section } from '../document.js';
import { winLossSweepFigure, type SweepPoint } from '../figures.js';
import { meanByDataset } from './kit.js';
import { cell, type TableRow } from '../table.js';
import { codeOrder } from '../../util/text.js';

function choiceText(id: string, given: Readonly<Record<string, unknown>>, drop: string | null): string {
  const keys = Object.keys(given)
    .filter((k) => k !== drop)
    .sort();
  return keys.length
    ? `${id}(${keys.map((k) => `${k}=${typeof given[k] === 'string' ? given[k] : JSON.stringify(given[k])}`).join(',')})`
    : id;
}

export interface SweepComparison {
  /** The methods that differ only in the x parameter share a series name (the label without it). */
  readonly series: string;
  /** Value of the x parameter (the swept parameter unless the sweep names another x). */
  readonly x: number | string;
  readonly method: string;
  /** The same method with the swept parameter at its reference value. */
  readonly reference: string;
}

function parameterPath(path: string): ['structure' | 'estimator', string] {
  return path.split('.') as ['structure' | 'estimator', string];
}

/**
 * Every method whose swept parameter differs from the reference value, paired with the method that is
 * identical except for that parameter at the reference value.
 */
export function sweepComparisons(methods: readonly MethodSpec[], sweep: SweepSpec): SweepComparison[] {
  const [part, param] = parameterPath(sweep.parameter);
  const [xPart, xParam] = parameterPath(sweep.x ?? sweep.parameter);
  const bnc = methods.filter(
    (m) => m.kind === 'bnc' && m.estimator && param in (part === 'structure' ? m.structure : m.estimator).params,
  );
  const without = (m: MethodSpec): string =>
    JSON.stringify([
      m.structure.id,
      Object.entries(m.structure.params).filter(([k]) => !(part === 'structure' && k === param)),
      m.estimator!.id,
      Object.entries(m.estimator!.params).filter(([k]) => !(part === 'estimator' && k === param)),
    ]);
  const value = (m: MethodSpec, p: 'structure' | 'estimator', k: string): unknown =>
    (p === 'structure' ? m.structure : m.estimator!).params[k];
  const refs = new Map<string, MethodSpec>();
  for (const m of bnc) if (value(m, part, param) === sweep.reference) refs.set(without(m), m);
  const out: SweepComparison[] = [];
  for (const m of bnc) {
    if (value(m, part, param) === sweep.reference) continue;
    const ref = refs.get(without(m));
    const x = value(m, xPart, xParam);
    if (!ref || x === undefined) continue;
    const series = `${choiceText(m.structure.id, m.structure.given, xPart === 'structure' ? xParam : null)}/${choiceText(m.estimator!.id, m.estimator!.given, xPart === 'estimator' ? xParam : null)}`;
    out.push({ series, x: typeof x === 'number' ? x : String(x), method: m.label, reference: ref.label });
  }
  return out.sort(
    (a, b) =>
      codeOrder(a.series, b.series) ||
      (typeof a.x === 'number' && typeof b.x === 'number' ? a.x - b.x : codeOrder(String(a.x), String(b.x))),
  );
}

/** compare.sweeps: wins, draws and losses of each swept method against its reference value. */
export async function sweepSections(c: ReportContext): Promise<Section[]> {
  const { s } = c;
  const sections: Section[] = [];
  for (const sw of s.sweeps) {
    const comparisons = sweepComparisons(c.input.methods, sw);
    const xName = sw.x ?? sw.parameter;
    const metricKeys: CompareMetric[] = sw.metric ? [sw.metric] : [...s.metrics];
    const b: Block[] = [];
    for (const key of metricKeys) {
      const metric = metricDef(key);
      const means = meanByDataset(c.statRows, metric, c.digits);
      const points: SweepPoint[] = [];
      const rows: TableRow[] = [];
      for (const sc of comparisons) {
        let w = 0;
        let d = 0;
        let l = 0;
        for (const mm of means.values()) {
          const x = mm.get(sc.method);
          const r = mm.get(sc.reference);
          if (x === undefined || r === undefined) continue;
          const diff = x - r;
          if (Math.abs(diff) <= s.sign.tolerance) d++;
          else if (diff > 0 === metric.higherIsBetter) w++;
          else l++;
        }
        if (w + d + l === 0) continue;
        points.push({ series: sc.series, x: sc.x, wins: w, losses: l });
        rows.push({
          cells: [
            cell(sc.method),
            cell(sc.reference),
            cell(String(sc.x), { value: sc.x }),
            cell(String(w), { value: w }),
            cell(String(d), { value: d }),
            cell(String(l), { value: l }),
          ],
        });
      }
      if (points.length === 0) continue;
      b.push(
        ...c.addTable({
          id: c.tableId(`sweep-${sw.parameter}${sw.x ? `-by-${sw.x}` : ''}-${key}`),
          caption: `${metric.title}: wins, draws and losses over datasets of each method against the same method with ${sw.parameter} = ${String(sw.reference)}.`,
          columns: [
            { header: 'method', align: 'l' },
            { header: 'against', align: 'l' },
            { header: xName, align: 'r' },
            { header: 'wins', align: 'r' },
            { header: 'draws', align: 'r' },
            { header: 'losses', align: 'r' },
          ],
          rows,
        }),
      );
      b.push(
        c.addFigure(
          await winLossSweepFigure(
            c.figureId(`sweep-${sw.parameter}${sw.x ? `-by-${sw.x}` : ''}-${key}`),
            sw.parameter,
            sw.reference,
            xName,
            metric.title,
            points,
          ),
        ),
      );
    }
    if (b.length)
      sections.push({ title: `Win/loss against ${sw.parameter} = ${String(sw.reference)}`, level: 3, blocks: b });
  }
  return sections;
}
