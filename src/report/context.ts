/**
 * The one context every report section reads (sections/*.ts): the stored results and what the spec says about
 * them (ReportInput), the comparison computed once, and the registers of tables and figures with their ids.
 * build.ts creates it once with {@link createContext} and runs the section builders on it in report order.
 */
import type { MethodSpec } from '../spec/load.js';
import type { ResultRow } from '../store/db.js';
import type { StructureInfo } from './claims.js';
import { compareResults, type Comparison } from './compare.js';
import type { Block, Section } from './document.js';
import type { Figure } from './figures.js';
import type { CurvePoints } from './prediction-curves.js';
import { evaluateReference, type ReferenceResult } from './reference.js';
import type { CompareSpec, ReferenceSpec } from '../spec/report-sections.js';
import type { ArcsByJob } from './structures.js';
import {
  completeRows,
  REPORT_METRICS,
  summarize,
  unfinishedCells,
  type PlannedFolds,
  type SummaryTable,
} from './summary.js';
import type { Table } from './table.js';

export interface FailedJob {
  readonly dataset: string;
  readonly method: string;
  readonly repeat: number;
  readonly fold: number;
  readonly error: string;
}

export interface ReportInput {
  readonly experiment: string;
  readonly specFile: string;
  readonly specHash: string;
  /** Run settings (seed, preprocessing, resampling, database), printed at the top. */
  readonly settings: Readonly<Record<string, string>>;
  readonly methods: readonly MethodSpec[];
  /**
   * The spec's datasets in its order: the per-dataset tables and report.csv list them so (a paper's table
   * lists them as the spec does); datasets not named here follow in name order. Absent: name order.
   */
  readonly datasets?: readonly string[];
  /**
   * Folds the spec's plan has per dataset × method (`dataset\0method`): a cell with fewer finished folds is
   * marked and left out of averages, ranks, tests and claims. Absent: no cell is taken for partial.
   */
  readonly planned?: PlannedFolds;
  readonly rows: readonly ResultRow[];
  /**
   * A multi-seed experiment: each seed's rows, the first seed's being `rows` (the tables show those). Only the
   * claims read the others, one seed at a time (seed-stability.ts).
   */
  readonly seedRows?: readonly { readonly seed: string; readonly rows: readonly ResultRow[] }[];
  readonly expectedJobs: number;
  readonly failed: readonly FailedJob[];
  readonly compare: CompareSpec;
  readonly reference: readonly ReferenceSpec[];
  /** Results of the experiments named in compare.learning_curve, by experiment name. */
  readonly curveRows?: ReadonlyMap<string, readonly ResultRow[]>;
  /** jobs.structure_info by job key: the info.* metrics of claims files. */
  readonly structureInfo?: StructureInfo;
  /** Learned arcs by job key (the structures table), for the drawings of the learned structures. */
  readonly arcs?: ArcsByJob;
  /** ROC and reliability points from saved predictions (prediction-curves.ts), when there are any. */
  readonly curves?: CurvePoints;
}

/** A readable, file-safe stem. */
export function slug(s: string): string {
  return (
    s
      .replace(/[^A-Za-z0-9._+-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'x'
  );
}

function uniqueIds(): (stem: string) => string {
  const used = new Set<string>();
  return (stem) => {
    let id = slug(stem);
    for (let i = 2; used.has(id); i++) id = `${slug(stem)}-${i}`;
    used.add(id);
    return id;
  };
}

/**
 * The table with its datasets in the spec's order (those the order does not name after them, by name); the
 * averages and ranks are the table's own, computed in name order, so the order changes no number.
 */
export function inDatasetOrder(t: SummaryTable, order: readonly string[] | undefined): SummaryTable {
  if (!order) return t;
  const at = new Map(order.map((d, i) => [d, i]));
  const idx = [...t.datasets.keys()].sort((a, b) => {
    const x = at.get(t.datasets[a]) ?? Infinity;
    const y = at.get(t.datasets[b]) ?? Infinity;
    return x !== y ? x - y : a - b;
  });
  return { ...t, datasets: idx.map((i) => t.datasets[i]), cells: idx.map((i) => t.cells[i]) };
}

/**
 * What every section builder shares: the input, the comparison computed once, and the registers of tables
 * and figures. Ids and the order of `tables` / `figures` follow the order in which the builders run, which
 * is the order of the sections in the report.
 */
export interface ReportContext {
  readonly input: ReportInput;
  readonly s: CompareSpec;
  readonly labels: readonly string[];
  readonly digits: number | undefined;
  readonly comparison: Comparison;
  /** The experiment seed (settings.seed); the seeds of sampled statistics derive from it and from what they compare. */
  readonly seed: string;
  /**
   * The rows the statistics read: every row but those of a dataset × method with fewer finished folds than
   * planned (summary.ts partialGroups), which no test compares with complete ones.
   */
  readonly statRows: readonly ResultRow[];
  /** Per-metric summaries for display: datasets in the spec's order (input.datasets). */
  readonly summaries: readonly SummaryTable[];
  readonly references: readonly ReferenceResult[];
  readonly tableId: (stem: string) => string;
  readonly figureId: (stem: string) => string;
  readonly tables: Table[];
  readonly figures: Figure[];
  /** Registers a table (none when null) and returns its block(s). */
  addTable(t: Table | null): Block[];
  /** Registers a figure and returns its block. */
  addFigure(f: Figure): Block;
}

/**
 * The part of the context the sections of the added statistics read (sections/extra-statistics.ts and the
 * modules it calls), so that a test can build one without a whole report.
 */
export type StatsSectionContext = Pick<
  ReportContext,
  'comparison' | 'statRows' | 'seed' | 'tableId' | 'figureId' | 'addTable' | 'addFigure'
>;

/** A report section: its sections (none when it has nothing to show), read from the context. */
export type SectionBuilder = (c: ReportContext) => Section[] | Promise<Section[]>;

/** Runs the builders one after another (ids and figure order depend on it), concatenating their sections. */
export async function runBuilders(c: ReportContext, builders: readonly SectionBuilder[]): Promise<Section[]> {
  const sections: Section[] = [];
  for (const build of builders) sections.push(...(await build(c)));
  return sections;
}

/** The context of a report on `input`, built once: the comparison, the summaries and the references computed. */
export function createContext(input: ReportInput): ReportContext {
  const s = input.compare;
  const labels = input.methods.map((m) => m.label);
  const digits = s.digits ?? undefined;
  const comparison = compareResults(input.rows, labels, s, input.planned);
  const statRows = completeRows(input.rows, input.planned);
  const unfinished = unfinishedCells(input.rows, input.planned);
  const tables: Table[] = [];
  const figures: Figure[] = [];
  return {
    input,
    s,
    labels,
    digits,
    comparison,
    seed: input.settings['seed'] ?? '',
    statRows,
    summaries: REPORT_METRICS.map((m) =>
      inDatasetOrder(
        comparison.metrics.find((x) => x.metric.key === m.key)?.table ??
          summarize(input.rows, labels, m, digits, input.planned),
        input.datasets,
      ),
    ),
    references: input.reference.map((r) => evaluateReference(r, statRows, labels, s, input.structureInfo, unfinished)),
    tableId: uniqueIds(),
    figureId: uniqueIds(),
    tables,
    figures,
    addTable(t) {
      if (!t) return [];
      tables.push(t);
      return [{ kind: 'table', table: t }];
    },
    addFigure(f) {
      figures.push(f);
      return { kind: 'figure', figure: f };
    },
  };
}
