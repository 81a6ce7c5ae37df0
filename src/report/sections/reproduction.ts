/**
 * reference: the published numbers, win–draw–loss counts and stated claims against ours: a summary and one
 * section per reference file, with each claim's verdict across seeds in a multi-seed experiment.
 */
import { metricDef } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { evaluateReference, provisionalCount, type ReferenceResult } from '../reference.js';
import { wdlText } from './kit.js';
import { type ClaimStability, stabilityAcrossSeeds, stabilitySummary, stabilityText } from '../seed-stability.js';
import { cell, fixed, formatP, type Table, type TableCell } from '../table.js';

/** '+0.18 [−0.05, 0.41]': net wins with the bounds of its interval. */
function netWinsText(net: { mean: number; lo: number; hi: number }): string {
  const f = (x: number): string => {
    const t = Math.abs(x).toFixed(2);
    return Number(t) === 0 ? t : `${x < 0 ? '−' : '+'}${t}`;
  };
  return `${f(net.mean)} [${f(net.lo)}, ${f(net.hi)}]`;
}

/** A note or why with the substitutes it reads appended ('' when none). */
function withSubstitute(text: string, substitute: string): string {
  if (!substitute) return text;
  return text ? `${text} (${substitute})` : substitute;
}

export function referenceTable(
  id: string,
  r: ReferenceResult,
  alpha: number,
  stability?: readonly ClaimStability[],
): Table {
  const title = r.ref.title ?? r.ref.path;
  // A verdict on an unfinished run is what the finished part says: marked (in the CSV too, so that a script
  // counting 'reproduced' does not count it), never bold, and the why says what is missing.
  const verdictCell = (c: { verdict: string; provisional: string | null }): TableCell =>
    c.provisional ? cell(`${c.verdict} (provisional)`) : cell(c.verdict, { bold: c.verdict === 'reproduced' });
  const why = (c: { reason: string; provisional: string | null }, substitute = ''): TableCell =>
    cell(withSubstitute(c.provisional ? `${c.provisional}; ${c.reason}` : c.reason, substitute));
  // A method of ours standing in for the published one (`substitutes:`) is said beside every verdict that reads it.
  const substituted = (names: readonly (string | null)[]): string =>
    [...new Set(names.filter((n): n is string => !!n).map((n) => r.ref.methods[n] ?? n))]
      .filter((label) => r.ref.substitutes[label] !== undefined)
      .map((label) => `${label} is a substitute: ${r.ref.substitutes[label]}`)
      .join('; ');
  if (r.kind === 'claims') {
    const seeds = stability?.[0]?.outcomes.map((o) => o.seed);
    return {
      id,
      caption:
        `${title}: the paper's stated claims, each evaluated on our results (docs/reports.md, "Stated claims"); per-dataset values are means over folds, tests use α = ${alpha} unless the claim gives its own threshold.` +
        (seeds
          ? ` Ours, verdict and why are seed ${seeds[0]}'s; "across seeds" evaluates the claim on each of the seeds ${seeds.join(', ')} alone (margin: method_a's value minus the other side's).`
          : ''),
      columns: [
        { header: 'id', align: 'l' },
        { header: 'source', align: 'l' },
        { header: 'claim', align: 'l', prose: true },
        { header: 'ours', align: 'l', prose: true },
        { header: 'verdict', align: 'l' },
        ...(stability ? [{ header: 'across seeds', align: 'l' as const, prose: true }] : []),
        { header: 'why', align: 'l', prose: true },
        { header: 'note', align: 'l', prose: true },
      ],
      rows: r.claims.map((c, i) => ({
        cells: [
          cell(c.id),
          cell(c.source),
          cell(c.claim),
          cell(c.ours, { value: c.ours === '–' ? null : c.ours }),
          verdictCell(c),
          ...(stability ? [cell(stabilityText(stability[i]))] : []),
          why(c),
          cell(withSubstitute(c.note, substituted([c.methodA, ...c.methodB]))),
        ],
      })),
      notes: r.comments,
    };
  }
  if (r.kind === 'wdl') {
    const seeds = stability?.[0]?.outcomes.map((o) => o.seed);
    return {
      id,
      caption:
        `${title}: published win–draw–loss against ours (bold W–D–L: significant; ours: sign test at α = ${alpha}; net wins: (W − L) / n with its 95% paired bootstrap interval over the data sets, seeded).` +
        (seeds
          ? ` Ours, verdict and why are seed ${seeds[0]}'s; "across seeds" evaluates the row on each of the seeds ${seeds.join(', ')} alone (margin: net wins).`
          : ''),
      columns: [
        { header: 'metric', align: 'l' },
        { header: 'published a vs b', align: 'l' },
        { header: 'ours', align: 'l', prose: true },
        { header: 'published W–D–L', align: 'c' },
        { header: 'our W–D–L', align: 'c' },
        { header: 'our p', align: 'r' },
        { header: 'net wins [95% interval]', align: 'r' },
        { header: 'verdict', align: 'l' },
        ...(stability ? [{ header: 'across seeds', align: 'l' as const, prose: true }] : []),
        { header: 'why', align: 'l', prose: true },
      ],
      rows: r.claims.map((c, i) => ({
        cells: [
          cell(metricDef(c.metric).title, { value: c.metric }),
          cell(`${c.methodA} vs ${c.methodB}`),
          cell(c.ourA && c.ourB ? `${c.ourA} vs ${c.ourB}` : '–'),
          cell(wdlText(c.published), { bold: c.published.significant }),
          cell(c.ours ? wdlText(c.ours) : '–', { bold: c.ours?.significant ?? false }),
          cell(formatP(c.ours?.p), { value: c.ours?.p ?? null }),
          cell(c.ours?.net ? netWinsText(c.ours.net) : '–', { value: c.ours?.net ? netWinsText(c.ours.net) : null }),
          verdictCell(c),
          ...(stability ? [cell(stabilityText(stability[i]))] : []),
          why(c, substituted([c.ourA, c.ourB])),
        ],
      })),
      notes: r.comments,
    };
  }
  return {
    id,
    caption: `${title}: published values${r.ref.scale !== 1 ? ` (× ${r.ref.scale})` : ''} beside ours (per-dataset means over folds); reproduced when they differ by at most ${r.ref.tolerance}.`,
    columns: [
      { header: 'dataset', align: 'l' },
      { header: 'method', align: 'l' },
      { header: 'metric', align: 'l' },
      { header: 'published', align: 'r' },
      { header: 'ours', align: 'r' },
      { header: 'difference', align: 'r' },
      { header: 'verdict', align: 'l' },
    ],
    rows: r.claims.map((c) => {
      const d = metricDef(c.metric).digits;
      return {
        cells: [
          cell(c.ourDataset && c.ourDataset !== c.dataset ? `${c.dataset} (${c.ourDataset})` : c.dataset, {
            value: c.dataset,
          }),
          cell(c.ourMethod && c.ourMethod !== c.method ? `${c.method} (${c.ourMethod})` : c.method, {
            value: c.method,
          }),
          cell(metricDef(c.metric).title, { value: c.metric }),
          cell(fixed(c.published, d), { value: c.published }),
          cell(fixed(c.ours, d), { value: c.ours }),
          cell(c.difference === null ? '–' : `${c.difference >= 0 ? '+' : '−'}${Math.abs(c.difference).toFixed(d)}`, {
            value: c.difference,
          }),
          verdictCell(c),
        ],
      };
    }),
    notes: [...r.comments, ...[substituted(r.claims.map((c) => c.ourMethod))].filter(Boolean)],
  };
}

/** The claims whose margin is within noise (their bootstrap interval covers zero), when there are any. */
function noiseText(verdicts: readonly string[]): string {
  const n = (v: string): number => verdicts.filter((x) => x === v).length;
  const dir = n('direction reproduced, not significant');
  const tie = n('tie within noise');
  return (dir ? `${dir} direction reproduced but not significant, ` : '') + (tie ? `${tie} tie within noise, ` : '');
}

/** reference: the published numbers and claims against ours, a summary and one section per file. */
export function reproductionSections(c: ReportContext): Section[] {
  const { references } = c;
  if (!references.length) return [];
  const all: string[] = references.flatMap((r) => r.claims.map((cl) => cl.verdict));
  const notEvaluable = all.filter((v) => v === 'not evaluable').length;
  const provisionalAll = references.reduce((n, r) => n + provisionalCount(r), 0);
  const { input } = c;
  const unfinishedJobs = input.expectedJobs - input.rows.length;
  const sections: Section[] = [
    {
      title: 'Reproduction of published results',
      level: 2,
      blocks: [
        {
          kind: 'p',
          text:
            `${all.filter((v) => v === 'reproduced').length} of ${all.length} published claims reproduced, ${noiseText(all)}${all.filter((v) => v === 'not reproduced').length} not reproduced, ${all.filter((v) => v === 'no data').length} without our data${notEvaluable ? `, ${notEvaluable} not evaluable here` : ''}.` +
            (provisionalAll
              ? ` ${provisionalAll} of these verdicts are provisional: the run has not finished ${unfinishedJobs} of its ${input.expectedJobs} jobs (not run yet or failed), and each of them reads a dataset × method among those, so it may change when they finish.`
              : ''),
        },
      ],
    },
  ];
  for (const r of references) {
    const stability =
      r.kind !== 'cells'
        ? stabilityAcrossSeeds(c.input.seedRows, c.input.planned, (rows) =>
            evaluateReference(r.ref, rows, c.labels, c.s, c.input.structureInfo),
          )
        : undefined;
    const t = referenceTable(
      c.tableId(`reference-${r.ref.path.replace(/^.*[\\/]/, '').replace(/\.csv$/i, '')}`),
      r,
      c.s.alpha,
      stability,
    );
    const counts = (v: string): number =>
      (r.claims as readonly { verdict: string }[]).filter((cl) => cl.verdict === v).length;
    sections.push({
      title: r.ref.title ?? r.ref.path,
      level: 3,
      blocks: [
        {
          kind: 'p',
          text:
            (r.kind === 'claims'
              ? `${counts('reproduced')} reproduced, ${noiseText(r.claims.map((cl) => cl.verdict))}${counts('not reproduced')} not reproduced, ${counts('not evaluable')} not evaluable here (${r.ref.path}).` +
                (stability?.length ? ` ${stabilitySummary(stability)}` : '')
              : `${counts('reproduced')} reproduced, ${noiseText(r.claims.map((cl) => cl.verdict))}${counts('not reproduced')} not reproduced, ${counts('no data')} without our data (${r.ref.path}).` +
                (stability?.length ? ` ${stabilitySummary(stability)}` : '')) +
            (provisionalCount(r) ? ` ${provisionalCount(r)} provisional (the run is not finished).` : ''),
        },
        ...c.addTable(t),
      ],
    });
  }
  return sections;
}
