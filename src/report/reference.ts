/**
 * Reproduction against published numbers. A reference file is a CSV in one of two shapes, told apart by
 * its header:
 *
 *   cells:  dataset,method,metric,value                          (a published table cell)
 *   W/D/L:  metric,method_a,method_b,wins,draws,losses,significant (a published win/draw/loss claim)
 *
 * A third shape, told apart by its columns id,kind,metric,method_a,relation,method_b,dataset,value, holds a
 * paper's stated claims; claims.ts evaluates those.
 *
 * Extra columns (note, source, p, …) are allowed and ignored. Lines starting with '#' are provenance notes
 * and are printed under the table. Published names map to ours through the spec's `methods:` / `datasets:`
 * (identity when a published name is already one of ours).
 *
 * Verdicts:
 * - a cell is reproduced when |ours − published| ≤ tolerance, where published is the value × scale, or
 *   for a value written with '%' the value / 100 (the scale is not applied to it);
 * - a W/D/L claim is reproduced when our wins − losses has the same sign as the published one and our
 *   sign test (the compare settings' α, draw convention and tolerance) agrees with the published
 *   significance; an empty `significant` is computed from the published counts with the same test. When
 *   neither side is significant only a direction agrees, and the verdict says so ("direction reproduced,
 *   not significant"), never a bare "reproduced" on noise. Every row prints our net wins (W − L) / n with
 *   its seeded 95% paired bootstrap interval over the data sets.
 */
import { readFileSync } from 'node:fs';
import type { ResultRow } from '../store/db.js';
import { pairOutcomes, signTest, tallyOutcomes } from '../stats/signtest.js';
import { type BootstrapInterval, pairedBootstrap } from '../stats/bootstrap.js';
import { sha256Hex } from '../util/hash.js';
import { roundDecimals } from '../stats/validate.js';
import { UserError } from '../util/errors.js';
import {
  CLAIM_BOOTSTRAP_RESAMPLES,
  CLAIM_COLUMNS,
  evaluateClaims,
  isClaimsHeader,
  type ClaimResult,
  type StructureInfo,
} from './claims.js';
import { foldValues, metricDef } from './compare.js';
import { readCsv } from './csv.js';
import type { CompareMetric, CompareSpec, ReferenceSpec } from '../spec/report-sections.js';
import { fmean } from '../stats/fsum.js';
import { provisionalReason, type UnfinishedCell } from './summary.js';
import { metricFromName, metricNames } from '../metrics/all.js';

type Verdict = 'reproduced' | 'direction reproduced, not significant' | 'not reproduced' | 'no data';

interface CellClaim {
  readonly line: number;
  readonly dataset: string;
  readonly method: string;
  readonly metric: CompareMetric;
  readonly published: number;
  readonly ourDataset: string | null;
  readonly ourMethod: string | null;
  readonly ours: number | null;
  readonly difference: number | null;
  readonly verdict: Verdict;
  readonly reason: string;
  /** Set when the run has not finished a dataset × method the verdict reads (claims.ts ClaimResult). */
  readonly provisional: string | null;
}

interface WdlCounts {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

export interface WdlClaim {
  readonly line: number;
  readonly metric: CompareMetric;
  readonly methodA: string;
  readonly methodB: string;
  readonly published: WdlCounts & {
    readonly significant: boolean;
    readonly significanceGiven: boolean;
    readonly p: number;
  };
  readonly ourA: string | null;
  readonly ourB: string | null;
  readonly ours:
    | (WdlCounts & {
        readonly p: number;
        readonly significant: boolean;
        readonly n: number;
        /** Net wins (W − L) / n with its seeded 95% paired bootstrap interval over the data sets; null below 2. */
        readonly net: BootstrapInterval | null;
      })
    | null;
  readonly verdict: Verdict;
  readonly reason: string;
  /** Set when the run has not finished a dataset × method the verdict reads (claims.ts ClaimResult). */
  readonly provisional: string | null;
}

export type ReferenceResult =
  | {
      readonly kind: 'cells';
      readonly ref: ReferenceSpec;
      readonly claims: readonly CellClaim[];
      readonly comments: readonly string[];
    }
  | {
      readonly kind: 'wdl';
      readonly ref: ReferenceSpec;
      readonly claims: readonly WdlClaim[];
      readonly comments: readonly string[];
    }
  | {
      readonly kind: 'claims';
      readonly ref: ReferenceSpec;
      readonly claims: readonly ClaimResult[];
      readonly comments: readonly string[];
    };

/** How many of a reference file's verdicts are provisional (they read a dataset × method not finished yet). */
export function provisionalCount(r: ReferenceResult): number {
  return (r.claims as readonly { readonly provisional: string | null }[]).filter((c) => c.provisional !== null).length;
}

/** A published metric name ('0/1-loss', 'RMSE', 'zero_one_loss', …) as one of ours, or undefined. */
export { metricFromName };
const CELL_COLUMNS = ['dataset', 'method', 'metric', 'value'];
const WDL_COLUMNS = ['metric', 'method_a', 'method_b', 'wins', 'draws', 'losses', 'significant'];

function parseBool(s: string, where: string): boolean | null {
  const v = s.trim().toLowerCase();
  if (v === '') return null;
  if (['true', 'yes', 'y', '1', 'bold', '*'].includes(v)) return true;
  if (['false', 'no', 'n', '0'].includes(v)) return false;
  throw new UserError(`${where}: significant: expected true/false (or empty), got '${s}'`);
}

function parseCount(s: string, where: string, field: string): number {
  const v = Number(s);
  if (!/^\d+$/.test(s.trim()) || !Number.isInteger(v))
    throw new UserError(`${where}: ${field}: expected a count, got '${s}'`);
  return v;
}

/** A published value in our units: 'x%' is x / 100; a plain number is multiplied by the file's scale. */
function parseValue(s: string, scale: number, where: string): number {
  const t = s.trim();
  const percent = t.endsWith('%');
  const v = Number(percent ? t.slice(0, -1) : t);
  if (t === '' || !Number.isFinite(v)) throw new UserError(`${where}: value: expected a number, got '${s}'`);
  return percent ? v / 100 : v * scale;
}

function mapName(name: string, mapping: Readonly<Record<string, string>>, ours: readonly string[]): string | null {
  if (name in mapping) return mapping[name];
  if (ours.includes(name)) return name;
  const lower = name.toLowerCase();
  return ours.find((o) => o.toLowerCase() === lower) ?? null;
}

/**
 * Read one reference file and put our results beside it. `info` (jobs.structure_info by job key) feeds the
 * info.* metrics of claims files. `unfinished` (summary.ts unfinishedCells) makes each verdict that reads an
 * unfinished dataset × method provisional, saying which.
 */
export function evaluateReference(
  ref: ReferenceSpec,
  rows: readonly ResultRow[],
  methods: readonly string[],
  settings: CompareSpec,
  info: StructureInfo = new Map(),
  unfinished: readonly UnfinishedCell[] = [],
): ReferenceResult {
  let text: string;
  try {
    text = readFileSync(ref.file, 'utf8');
  } catch {
    throw new UserError(`${ref.path}: cannot read the reference file`);
  }
  const doc = readCsv(text, ref.path);
  // Every published method name the file uses, to warn about `methods:` keys that match none (a key spelt
  // `TAN-HDP` for the file's `tan-hdp` left 16 claims "without our data" and said nothing).
  const seen = new Set<string>();
  const map: typeof mapName = (name, mapping, ours) => {
    seen.add(name);
    return mapName(name, mapping, ours);
  };
  const notes = (): string[] => {
    const unused = Object.keys(ref.methods).filter((k) => !seen.has(k));
    if (!unused.length) return [...doc.comments];
    const names = [...seen].sort();
    return [
      ...doc.comments,
      `warning: methods: ${unused.map((k) => `'${k}'`).join(', ')} name${unused.length === 1 ? 's' : ''} no method of ${ref.path} (names are matched exactly; the file's: ${names.join(', ')})`,
    ];
  };
  const has = (cols: string[]): boolean => cols.every((c) => doc.header.includes(c));
  const col = (name: string): number => doc.header.indexOf(name);
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  // Published names map to every method of the spec and every dataset of the plan, those without results yet
  // included: a row about one of them is "no data" (provisional), not about something absent.
  const knownDatasets = [...new Set([...datasets, ...unfinished.map((u) => u.dataset)])];
  const digits = settings.digits ?? undefined;
  const means = new Map<CompareMetric, Map<string, Map<string, number>>>();
  const meansOf = (metric: CompareMetric): Map<string, Map<string, number>> => {
    let m = means.get(metric);
    if (!m) {
      m = new Map();
      for (const [d, byMethod] of foldValues(rows, metricDef(metric).key)) {
        const inner = new Map<string, number>();
        for (const [meth, v] of byMethod) inner.set(meth, fmean(v));
        m.set(d, inner);
      }
      means.set(metric, m);
    }
    return m;
  };
  const metricOf = (s: string, where: string): CompareMetric => {
    const m = metricFromName(s);
    if (!m) throw new UserError(`${where}: metric: unknown metric '${s}' (${metricNames()})`);
    return m;
  };

  if (isClaimsHeader(doc.header)) {
    const claims = evaluateClaims(doc, {
      ref,
      rows,
      methods,
      settings,
      info,
      mapName: map,
      parseValue: (s, where) => parseValue(s, ref.scale, where),
      metricFromName,
      unfinished,
    });
    return { kind: 'claims', ref, claims, comments: notes() };
  }

  if (has(WDL_COLUMNS)) {
    const claims = doc.records.map(({ fields, line }): WdlClaim => {
      const where = `${ref.path}:${line}`;
      const get = (c: string): string => fields[col(c)];
      const metric = metricOf(get('metric'), where);
      const wins = parseCount(get('wins'), where, 'wins');
      const draws = parseCount(get('draws'), where, 'draws');
      const losses = parseCount(get('losses'), where, 'losses');
      const given = parseBool(get('significant'), where);
      const pubP = wins + losses + draws > 0 ? signTest(wins, draws, losses, { draws: settings.sign.draws }).p : NaN;
      const published = {
        wins,
        draws,
        losses,
        significant: given ?? pubP <= settings.alpha,
        significanceGiven: given !== null,
        p: pubP,
      };
      const methodA = get('method_a');
      const methodB = get('method_b');
      const ourA = map(methodA, ref.methods, methods);
      const ourB = map(methodB, ref.methods, methods);
      const provisional = provisionalReason(
        unfinished,
        [ourA, ourB].filter((m): m is string => m !== null),
      );
      const base = { line, metric, methodA, methodB, published, ourA, ourB, provisional };
      if (!ourA || !ourB) {
        const missing = [!ourA ? methodA : null, !ourB ? methodB : null].filter(Boolean).join(' and ');
        return {
          ...base,
          ours: null,
          verdict: 'no data',
          reason: `no results for ${missing} (map it under reference methods:)`,
        };
      }
      const m = meansOf(metric);
      const xa: number[] = [];
      const xb: number[] = [];
      for (const d of datasets) {
        const a = m.get(d)?.get(ourA);
        const b = m.get(d)?.get(ourB);
        if (a !== undefined && b !== undefined) {
          xa.push(roundDecimals(a, digits));
          xb.push(roundDecimals(b, digits));
        }
      }
      if (xa.length === 0)
        return { ...base, ours: null, verdict: 'no data', reason: 'no dataset on which both methods have results' };
      const pairRule = { lowerIsBetter: !metricDef(metric).higherIsBetter, tolerance: settings.sign.tolerance };
      // Each dataset's outcome once: the counts, the sign test and the bootstrap all read the same decisions.
      const decided = pairOutcomes(xa, xb, pairRule);
      const wdl = tallyOutcomes(decided);
      const p = signTest(wdl.wins, wdl.draws, wdl.losses, { draws: settings.sign.draws }).p;
      const outcomes = Array.from(decided);
      // Seeded by the outcomes themselves: the same comparison gets the same interval in every report.
      const net =
        outcomes.length >= 2
          ? pairedBootstrap(outcomes, `wdl/${sha256Hex(outcomes.join(','))}`, CLAIM_BOOTSTRAP_RESAMPLES)
          : null;
      const ours = {
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
        p,
        significant: p <= settings.alpha,
        n: wdl.n,
        net,
      };
      const dirPub = Math.sign(wins - losses);
      const dirOurs = Math.sign(ours.wins - ours.losses);
      let verdict: Verdict = 'reproduced';
      let reason = 'same direction and significance';
      if (dirPub === dirOurs && !ours.significant && !published.significant) {
        // What agrees is a direction that neither sign test can tell from chance: not a bare 'reproduced'.
        verdict = 'direction reproduced, not significant';
        reason = 'same direction, significant on neither side';
      } else if (dirPub !== dirOurs) {
        verdict = 'not reproduced';
        reason = dirOurs === 0 ? 'ours is a tie' : `ours favours ${dirOurs > 0 ? methodA : methodB}`;
      } else if (ours.significant !== published.significant) {
        verdict = 'not reproduced';
        reason = ours.significant
          ? 'ours is significant, the published result is not'
          : 'the published result is significant, ours is not';
      }
      if (ours.n !== wins + draws + losses) reason += ` (${ours.n} datasets here, ${wins + draws + losses} published)`;
      return { ...base, ours, verdict, reason };
    });
    return { kind: 'wdl', ref, claims, comments: notes() };
  }

  if (has(CELL_COLUMNS)) {
    const claims = doc.records.map(({ fields, line }): CellClaim => {
      const where = `${ref.path}:${line}`;
      const get = (c: string): string => fields[col(c)];
      const metric = metricOf(get('metric'), where);
      const published = parseValue(get('value'), ref.scale, where);
      const dataset = get('dataset');
      const method = get('method');
      const ourDataset = mapName(dataset, ref.datasets, knownDatasets);
      const ourMethod = map(method, ref.methods, methods);
      const provisional = ourDataset && ourMethod ? provisionalReason(unfinished, [ourMethod], [ourDataset]) : null;
      const base = { line, dataset, method, metric, published, ourDataset, ourMethod, provisional };
      const ours = ourDataset && ourMethod ? meansOf(metric).get(ourDataset)?.get(ourMethod) : undefined;
      if (ours === undefined) {
        const why = !ourDataset
          ? `dataset '${dataset}' is not in this experiment`
          : !ourMethod
            ? `method '${method}' is not in this experiment`
            : 'no results';
        return { ...base, ours: null, difference: null, verdict: 'no data', reason: why };
      }
      const difference = ours - published;
      const ok = Math.abs(difference) <= ref.tolerance + 1e-12;
      return {
        ...base,
        ours,
        difference,
        verdict: ok ? 'reproduced' : 'not reproduced',
        reason: ok ? `within ${ref.tolerance}` : `differs by more than ${ref.tolerance}`,
      };
    });
    return { kind: 'cells', ref, claims, comments: notes() };
  }
  throw new UserError(
    `${ref.path}:1: unknown reference format; the header must have the columns ${CELL_COLUMNS.join(',')} (cells), ${WDL_COLUMNS.join(',')} (W/D/L) or ${CLAIM_COLUMNS.join(',')} (claims)`,
  );
}
