/**
 * Claims of a multi-seed experiment (`seeds:` or `run --seeds N`): each claim is evaluated on each seed's
 * results alone (a seed's folds are never pooled with another's), and its row says in how many seeds the
 * verdict was 'reproduced', with the margin a − b each seed gave (docs/reports.md, "Several seeds").
 */
import type { ClaimResult, ClaimVerdict } from './claims.js';
import type { ResultRow } from '../store/db.js';
import type { ReferenceResult, WdlClaim } from './reference.js';
import { completeRows, type PlannedFolds } from './summary.js';

/** One claim's verdict under one seed, and its margin there. */
interface ClaimOutcome {
  /**
   * A stated claim's method_a value minus the other side's (ClaimResult a − b); a published win/draw/loss
   * row's net wins (W − L) / n. Null when the claim had no numbers there.
   */
  readonly margin: number | null;
  readonly verdict: ClaimVerdict | WdlClaim['verdict'];
}

interface SeedOutcome extends ClaimOutcome {
  readonly seed: string;
}

/** A stated claim's outcome: its verdict and the margin a − b. */
function statedClaimOutcome(c: ClaimResult): ClaimOutcome {
  return { margin: c.a !== null && c.b !== null ? c.a - c.b : null, verdict: c.verdict };
}

/** A published win/draw/loss row's outcome: its verdict and our net wins (W − L) / n. */
function wdlOutcome(c: WdlClaim): ClaimOutcome {
  return { margin: c.ours && c.ours.n > 0 ? (c.ours.wins - c.ours.losses) / c.ours.n : null, verdict: c.verdict };
}

/** The outcomes of a reference file's rows (stated claims and win/draw/loss rows; none for published cells). */
function outcomesOf(r: ReferenceResult): ClaimOutcome[] {
  if (r.kind === 'claims') return r.claims.map(statedClaimOutcome);
  if (r.kind === 'wdl') return r.claims.map(wdlOutcome);
  return [];
}

export interface ClaimStability {
  /** Seeds whose verdict is 'reproduced'. */
  readonly reproduced: number;
  /** Seeds where the claim held only within noise ('direction reproduced, not significant', 'tie within noise'). */
  readonly withinNoise: number;
  readonly seeds: number;
  readonly outcomes: readonly SeedOutcome[];
}

/**
 * A reference file evaluated on each seed's rows alone (a multi-seed experiment), as the first seed's are: the
 * dataset × method cells with fewer finished folds than planned left out. Undefined for fewer than two seeds.
 * The report and the ui's Claims page both call this.
 */
export function stabilityAcrossSeeds(
  seedRows: readonly { readonly seed: string; readonly rows: readonly ResultRow[] }[] | null | undefined,
  planned: PlannedFolds | undefined,
  evaluate: (rows: readonly ResultRow[]) => ReferenceResult,
): ClaimStability[] | undefined {
  if (!seedRows || seedRows.length < 2) return undefined;
  return claimStability(
    seedRows.map(({ seed, rows }) => ({ seed, claims: outcomesOf(evaluate(completeRows(rows, planned))) })),
  );
}

/**
 * One stability per claim, from the claims evaluated under each seed (the same claims file, so the same rows
 * in the same order for every seed).
 */
function claimStability(perSeed: readonly { seed: string; claims: readonly ClaimOutcome[] }[]): ClaimStability[] {
  const n = perSeed[0]?.claims.length ?? 0;
  for (const s of perSeed) {
    if (s.claims.length !== n) throw new Error(`seed ${s.seed}: ${s.claims.length} claims, expected ${n}`);
  }
  return Array.from({ length: n }, (_, i) => {
    const outcomes = perSeed.map(({ seed, claims }): SeedOutcome => {
      const c = claims[i];
      return { seed, margin: c.margin, verdict: c.verdict };
    });
    return {
      reproduced: outcomes.filter((o) => o.verdict === 'reproduced').length,
      withinNoise: outcomes.filter(
        (o) => o.verdict === 'direction reproduced, not significant' || o.verdict === 'tie within noise',
      ).length,
      seeds: outcomes.length,
      outcomes,
    };
  });
}

function signedMargin(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '–';
  const t = Math.abs(x).toFixed(4);
  return Number(t) === 0 ? t : `${x < 0 ? '−' : '+'}${t}`;
}

/**
 * 'reproduced in 2 of 3 seeds (margins: seed 1 +0.0120, seed 2 −0.0031, seed 3 +0.0200)', with ', held within
 * noise in m' when some seeds gave a margin whose interval covers zero.
 */
export function stabilityText(s: ClaimStability): string {
  return (
    `reproduced in ${s.reproduced} of ${s.seeds} seeds${s.withinNoise ? `, held within noise in ${s.withinNoise}` : ''} ` +
    `(margins: ${s.outcomes.map((o) => `seed ${o.seed} ${signedMargin(o.margin)}`).join(', ')})`
  );
}

/** 'Across the 3 seeds (1, 2, 3): 2 claims reproduced in every seed, 1 in some, 0 in none.' */
export function stabilitySummary(all: readonly ClaimStability[]): string {
  const n = all[0]?.seeds ?? 0;
  const seeds = all[0]?.outcomes.map((o) => o.seed).join(', ') ?? '';
  const every = all.filter((s) => s.reproduced === s.seeds).length;
  const none = all.filter((s) => s.reproduced === 0).length;
  return `Across the ${n} seeds (${seeds}): ${every} claims reproduced in every seed, ${all.length - every - none} in some, ${none} in none.`;
}
