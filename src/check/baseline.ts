/**
 * Baseline files for the CI regression gate: per dataset × method the mean and the per-fold values of
 * every metric, with the hash of the grid the spec defines and the code version that produced them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ExperimentSpec } from '../spec/load.js';
import type { ResultRow } from '../store/db.js';
import { canonicalJson, sha256Hex } from '../util/hash.js';
import { packageRoot } from '../util/paths.js';
import { UserError } from '../util/errors.js';
import { BNCLAB_VERSION, RESULTS_VERSION } from '../version.js';
import type { CompareMetric } from '../spec/report-sections.js';
import { SCORE_IDS } from '../metrics/all.js';
import { foldGroups } from '../report/summary.js';
import { codeOrder } from '../util/text.js';

const BASELINE_FORMAT = 'bnclab-baseline';
const BASELINE_VERSION = 1;

interface BaselineMetric {
  readonly mean: number;
  /** One value per fold, in the order of the entry's `folds`. */
  readonly folds: readonly number[];
}

export interface BaselineEntry {
  readonly dataset: string;
  readonly method: string;
  /** [repeat, fold] of each value, sorted. */
  readonly folds: readonly (readonly [number, number])[];
  readonly metrics: Readonly<Partial<Record<CompareMetric, BaselineMetric>>>;
}

export interface BaselineFile {
  readonly format: typeof BASELINE_FORMAT;
  readonly version: typeof BASELINE_VERSION;
  readonly experiment: string;
  /** The spec as given on the command line. */
  readonly spec: string;
  /** Hash of the part of the spec that defines the grid (name, seed, datasets, preprocessing, resampling,
   *  methods); not of compare: or reference:, nor of where the spec file lives. */
  readonly spec_hash: string;
  readonly code: { readonly bnclab: string; readonly results_version: number; readonly commit: string | null };
  /** Per dataset: content hash and the key of its split (the folds), so a changed split is noticed. */
  readonly datasets: Readonly<Record<string, { readonly sha256: string; readonly split: string }>>;
  readonly results: readonly BaselineEntry[];
}

/** Hash of the grid-defining part of a spec; independent of where the spec file lives. */
export function gridHash(spec: ExperimentSpec): string {
  return sha256Hex(
    canonicalJson({
      name: spec.name,
      seed: spec.seed,
      datasets: spec.datasets.map((d) => ({ ref: d.ref, name: d.name ?? null, class: d.classColumn ?? null })),
      preprocessing: spec.preprocessing,
      resampling: spec.resampling,
      methods: spec.methods.map((m) => ({
        kind: m.kind,
        label: m.label,
        structure: { id: m.structure.id, params: m.structure.params },
        estimator: m.estimator ? { id: m.estimator.id, params: m.estimator.params } : null,
      })),
    }),
  );
}

/** The checked-out commit, when the code runs from a git work tree (informational only). */
function codeCommit(): string | null {
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: packageRoot(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || null
    );
  } catch {
    return null;
  }
}

/** Group result rows into baseline entries (dataset, then method, folds in (repeat, fold) order). */
export function baselineEntries(rows: readonly ResultRow[]): BaselineEntry[] {
  const out: BaselineEntry[] = [];
  for (const g of foldGroups(rows)) {
    const metrics: Partial<Record<CompareMetric, BaselineMetric>> = {};
    for (const m of SCORE_IDS) {
      // A metric some job predates (NULL in the store) is left out of the entry rather than read as 0.
      if (g.some((r) => r[m] === null || r[m] === undefined)) continue;
      const folds = g.map((r) => Number(r[m]));
      metrics[m] = { mean: folds.reduce((a, b) => a + b, 0) / folds.length, folds };
    }
    out.push({
      dataset: g[0].dataset,
      method: g[0].method,
      folds: g.map((r) => [r.repeat, r.fold] as const),
      metrics,
    });
  }
  return out.sort((a, b) => codeOrder(a.dataset, b.dataset) || codeOrder(a.method, b.method));
}

export function makeBaseline(
  spec: ExperimentSpec,
  specArg: string,
  rows: readonly ResultRow[],
  datasets: Record<string, { sha256: string; split: string }>,
): BaselineFile {
  return {
    format: BASELINE_FORMAT,
    version: BASELINE_VERSION,
    experiment: spec.name,
    spec: specArg,
    spec_hash: gridHash(spec),
    code: { bnclab: BNCLAB_VERSION, results_version: RESULTS_VERSION, commit: codeCommit() },
    datasets,
    results: baselineEntries(rows),
  };
}

export function writeBaseline(file: string, b: BaselineFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, compactJson(b, '') + '\n');
}

/** Two-space JSON with every list of numbers on one line: one line per fold list keeps diffs readable. */
export function compactJson(v: unknown, indent: string): string {
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'number')) return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
    if (v.length === 0) return '[]';
    if (v.every((x) => Array.isArray(x) && x.every((y) => typeof y === 'number')))
      return `[${v.map((x) => compactJson(x, '')).join(', ')}]`;
    const inner = indent + '  ';
    return `[\n${v.map((x) => inner + compactJson(x, inner)).join(',\n')}\n${indent}]`;
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${compactJson(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function readBaseline(file: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`${file}: cannot read the baseline (record one with 'bnclab baseline <spec> --out ${file}')`);
  }
  let b: BaselineFile;
  try {
    b = JSON.parse(text) as BaselineFile;
  } catch (e) {
    throw new UserError(`${file}: not valid JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (b === null || typeof b !== 'object' || b.format !== BASELINE_FORMAT) {
    throw new UserError(`${file}: not a bnclab baseline (format must be '${BASELINE_FORMAT}')`);
  }
  if (b.version !== BASELINE_VERSION)
    throw new UserError(
      `${file}: baseline version ${String(b.version)}; this bnclab reads version ${BASELINE_VERSION}`,
    );
  if (!Array.isArray(b.results)) throw new UserError(`${file}: results: expected a list`);
  b.results.forEach((e, i) => {
    const ok =
      e &&
      typeof e.dataset === 'string' &&
      typeof e.method === 'string' &&
      Array.isArray(e.folds) &&
      e.metrics !== null &&
      typeof e.metrics === 'object' &&
      Object.values(e.metrics as Record<string, BaselineMetric>).every(
        (m) =>
          m &&
          typeof m.mean === 'number' &&
          Array.isArray(m.folds) &&
          m.folds.length === e.folds.length &&
          m.folds.every((v: unknown) => typeof v === 'number'),
      );
    if (!ok)
      throw new UserError(
        `${file}: results[${i}]: expected {dataset, method, folds, metrics: {<metric>: {mean, folds}}} with one value per fold`,
      );
  });
  return b;
}
