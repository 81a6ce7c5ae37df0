/**
 * Stored results → the report as a document model (sections of text, tables and figures), which
 * render.ts turns into Markdown and HTML and index.ts writes to files. Nothing here re-runs a learner.
 *
 * Each section is a module of sections/ exporting its builder; every builder reads the one context
 * (context.ts) built here once. This file lists the sections in report order: ids and the order of the
 * tables and figures follow it.
 */
import type { Comparison } from './compare.js';
import { createContext, runBuilders, type ReportContext, type ReportInput, type SectionBuilder } from './context.js';
import type { Block, Section } from './document.js';
import type { Figure } from './figures.js';
import type { ReferenceResult } from './reference.js';
import { comparisonOverviewSection } from './sections/comparison-overview.js';
import { controlSections } from './sections/control.js';
import { diagnosticsSection } from './sections/diagnostics.js';
import { extraStatisticsSections } from './sections/extra-statistics.js';
import { failedJobsSection } from './sections/failed-jobs.js';
import { foldBoxplotSection } from './sections/fold-boxplot.js';
import { friedmanSection } from './sections/friedman.js';
import { introBlocks } from './sections/intro.js';
import { learnedStructureSection } from './sections/learned-structures.js';
import { learningCurveSection } from './sections/learning-curve.js';
import { metricSections } from './sections/metric-tables.js';
import { predictionCurveSections } from './sections/prediction-curves.js';
import { reproductionSections } from './sections/reproduction.js';
import { scatterSection } from './sections/scatter.js';
import { sweepSections } from './sections/sweeps.js';
import { wdlSection } from './sections/wdl.js';
import { wilcoxonSection } from './sections/wilcoxon.js';
import type { SummaryTable } from './summary.js';
import type { Table } from './table.js';

export type { Block, Section } from './document.js';
export { inDatasetOrder, slug, type FailedJob, type ReportContext, type ReportInput } from './context.js';
export { comparisonSettings } from './sections/comparison-overview.js';
export { curvePoints, CURVE_MERGE } from './sections/learning-curve.js';
export { PARTIAL_MARK, UNDEFINED_MARK } from './sections/metric-tables.js';
export { referenceTable } from './sections/reproduction.js';
export { sweepComparisons, type SweepComparison } from './sections/sweeps.js';

export interface ReportDoc {
  readonly title: string;
  /** The experiment's name: prefixes the LaTeX labels so that two experiments in one paper do not collide. */
  readonly experiment?: string;
  readonly intro: readonly Block[];
  readonly sections: readonly Section[];
  readonly tables: readonly Table[];
  readonly figures: readonly Figure[];
  readonly comparison: Comparison;
  readonly references: readonly ReferenceResult[];
  /** Per-metric summaries (every REPORT_METRICS entry), for report.csv. */
  readonly summaries: readonly SummaryTable[];
}

/** Every statistical section, in report order; none without results. */
const STATISTICS: readonly SectionBuilder[] = [
  comparisonOverviewSection,
  friedmanSection,
  controlSections,
  wdlSection,
  wilcoxonSection,
  extraStatisticsSections,
  scatterSection,
  foldBoxplotSection,
  sweepSections,
];

async function statisticsSections(c: ReportContext): Promise<Section[]> {
  if (c.input.rows.length === 0) return [];
  return runBuilders(c, STATISTICS);
}

/** The report's sections, in order. */
const SECTIONS: readonly SectionBuilder[] = [
  metricSections,
  statisticsSections,
  learningCurveSection,
  learnedStructureSection,
  predictionCurveSections,
  diagnosticsSection,
  reproductionSections,
  failedJobsSection,
];

export async function buildReport(input: ReportInput): Promise<ReportDoc> {
  const c = createContext(input);
  const sections = await runBuilders(c, SECTIONS);
  return {
    title: `${input.experiment}: results`,
    experiment: input.experiment,
    intro: introBlocks(c),
    sections,
    tables: c.tables,
    figures: c.figures,
    comparison: c.comparison,
    references: c.references,
    summaries: c.summaries,
  };
}
