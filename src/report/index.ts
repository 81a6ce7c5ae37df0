/**
 * `bnclab report`: read the experiment's results from the store and write results/<name>/:
 * report.md, report.html (self-contained), report.csv (long form), tables/*.tex and tables/*.csv,
 * figures/*.svg and *.pdf. Reads only the store; never re-runs a learner.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadSpecFile, withSeedCount, type ExperimentSpec } from '../spec/load.js';
import { buildPlanSummary, specHash, type PlanSummary } from '../spec/plan.js';
import { staleJobs } from '../spec/revision.js';
import { resamplingReportLine } from '../spec/resampling.js';
import { codeStateText } from '../util/provenance.js';
import { ResultStore, type JobRef, type ResultRow } from '../store/db.js';
import { defaultDbPath, missingDatabaseMessage } from '../store/location.js';
import { EXIT, UserError } from '../util/errors.js';
import { describeFsError, holdsBytes, makeFolder, realPath, writeFileAtomic } from '../util/output.js';
import { closest } from '../util/text.js';
import { buildReport, type ReportDoc, type ReportInput } from './build.js';
import { provisionalCount } from './reference.js';
import { loadStructureInfo } from './claims.js';
import { emText } from '../bn/em.js';
import { renderHtml, renderMarkdown } from './render.js';
import { COMPARE_METRICS, type CompareMetric, type CompareSpec } from '../spec/report-sections.js';
import type { SummaryTable } from './summary.js';
import { csvField, tableSummaryCsv, tableToCsv, tableToLatex } from './table.js';
import { installedVersions } from './figures.js';
import { reportPath } from './paths.js';
import { loadPredictionCurves } from './prediction-curves.js';
import { contentCacheKey, readContent, writeContent } from '../util/cache.js';
import { FIGURE_KEYS, reuseFiguresOf, writeFigureKeys } from './figure-keys.js';
import { cellKey } from '../util/keys.js';
import { optimiserOffForRestOfProcess } from '../util/optimiser.js';

export { buildReport, type ReportDoc, type ReportInput } from './build.js';
export { compareResults, type Comparison, type MetricComparison, type PairComparison } from './compare.js';
export { renderHtml, renderMarkdown } from './render.js';

interface ReportOptions {
  readonly db?: string;
  readonly out?: string;
  /** Command-line overrides of the spec's compare: section. */
  readonly control?: string;
  readonly alpha?: number;
  readonly metrics?: readonly string[];
  /** The spec as already loaded from specFile (by `run`, just before): not read and checked a second time. */
  readonly spec?: ExperimentSpec;
  /** The results database, already open (by `run`); the caller closes it. */
  readonly store?: ResultStore;
  /** The spec's plan, already built (by `run`): its jobs are what the report shows. */
  readonly plan?: PlanSummary;
  /**
   * The process ends after this report (the `report`, `run` and `submit` commands): V8's optimising compiler
   * is switched off for the rest of it (util/optimiser.ts).
   */
  readonly endsProcess?: boolean;
  /** Write each figure as a one-page PDF too (`report --pdf`); by default only the SVG. */
  readonly pdf?: boolean;
  /** `report --seeds N`: the spec's seed and the N − 1 after it, as `run --seeds N` ran them. */
  readonly seeds?: number;
}

/**
 * The jobs of a plan as the spec names them (dataset name, method label). Of a multi-seed plan, one seed's
 * (the first unless `seed` names another): the folds of different seeds are not more folds of one run.
 */
export function planJobRefs(plan: PlanSummary, seed: string | undefined = plan.seeds?.[0]?.seed): JobRef[] {
  const jobs = seed === undefined ? plan.jobs : plan.jobs.filter((j) => j.specSeed === seed);
  return jobs.map((j) => ({ key: j.key, dataset: j.dataset.handle.name, method: j.method.label }));
}

/** Planned folds (repeat × fold jobs) per dataset × method, keyed `dataset\0method`. */
export function plannedFolds(jobs: readonly JobRef[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const j of jobs) {
    const k = cellKey(j.dataset, j.method);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

interface ReportFiles {
  readonly dir: string;
  readonly markdown: string;
  readonly html: string;
  readonly csv: string;
  readonly tables: readonly string[];
  readonly figures: readonly string[];
  /** The published-claim verdicts and how many of them are provisional (docs/reports.md, "Provisional verdicts"). */
  readonly verdicts: { readonly total: number; readonly provisional: number };
  /** Read from a snapshot copy: the database and the process that was writing it. */
  readonly snapshot?: { readonly db: string; readonly holder: string } | undefined;
}

/**
 * The code that computed the results shown (one state, or each with its job count when they differ), and
 * the jobs whose only stored result comes from an older revision of their method (not shown).
 */
async function provenanceSettings(store: ResultStore, plan: PlanSummary): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const states = await store.codeStatesOf(plan.jobs.map((j) => j.key));
  const text = (s: (typeof states)[number]): string =>
    s.id === null ? 'not recorded (stored before bnclab recorded code states)' : codeStateText(s);
  if (states.length === 1) out['code'] = text(states[0]);
  else if (states.length > 1) {
    out['code'] =
      `the results come from ${states.length} code states: ` +
      states.map((s) => `${s.jobs} jobs by ${text(s)}${s.id ? ` [${s.id}]` : ''}`).join('; ');
  }
  const older = plan.jobs.flatMap((j) => j.olderKeys ?? []);
  if (older.length > 0) {
    const done = await store.doneKeysAmong([...older, ...plan.jobs.filter((j) => j.olderKeys).map((j) => j.key)]);
    const stale = staleJobs(plan.jobs, (k) => done.has(k)).length;
    if (stale > 0)
      out['stale results'] =
        `${stale} jobs have only a result made by an older revision of their method; not shown (bnclab run --rerun-stale recomputes them)`;
  }
  return out;
}

function applyOverrides(c: CompareSpec, labels: readonly string[], o: ReportOptions): CompareSpec {
  let out = c;
  if (o.control !== undefined) {
    if (o.control !== 'best' && !labels.includes(o.control)) {
      const near = closest(o.control, labels);
      throw new UserError(
        `--control: no method labelled '${o.control}'${near ? ` (did you mean '${near}'?)` : ''}; methods: ${labels.join(', ')}`,
      );
    }
    out = { ...out, control: o.control };
  }
  if (o.alpha !== undefined) {
    if (!(o.alpha > 0 && o.alpha < 1)) throw new UserError(`--alpha: expected a number in (0, 1), got ${o.alpha}`);
    out = { ...out, alpha: o.alpha };
  }
  if (o.metrics !== undefined) {
    const bad = o.metrics.find((m) => !COMPARE_METRICS.includes(m as CompareMetric));
    if (bad !== undefined || o.metrics.length === 0) {
      throw new UserError(
        `--metrics: unknown metric '${bad ?? ''}'; use a comma-separated list of ${COMPARE_METRICS.join(', ')}`,
      );
    }
    out = { ...out, metrics: [...new Set(o.metrics as CompareMetric[])] };
  }
  return out;
}

export async function writeExperimentReport(specFile: string, opts: ReportOptions = {}): Promise<ReportFiles> {
  if (opts.endsProcess) optimiserOffForRestOfProcess();
  const spec = opts.spec ?? withSeedCount(loadSpecFile(specFile).spec, opts.seeds);
  const labels = spec.methods.map((m) => m.label);
  const compare = applyOverrides(spec.compare, labels, opts);
  const dbPath = opts.db ? resolve(opts.db) : defaultDbPath(spec.name);
  // The report shows what this spec asks for: its plan's jobs, found by key (whichever spec of this name, or
  // other experiment in the database, ran them), named as this spec names them. A spec run in phases under
  // one name, or a subset of it run last, hides nothing from the report of the whole spec.
  const plan = opts.plan ?? buildPlanSummary(spec);
  const jobs = planJobRefs(plan);
  if (!opts.store && !opts.db && !existsSync(dbPath))
    throw new UserError(missingDatabaseMessage(dbPath, spec.name, specFile));
  const store = opts.store ?? (await ResultStore.open(dbPath, { readOnly: true, oneThread: true }));
  let input: ReportInput;
  try {
    const rows = await store.resultsOf(spec.name, jobs);
    // A multi-seed experiment: every seed's rows, for the claims' stability across seeds.
    const seedRows = plan.seeds
      ? await Promise.all(
          plan.seeds.map(async ({ seed }, i) => ({
            seed,
            rows: i === 0 ? rows : await store.resultsOf(spec.name, planJobRefs(plan, seed)),
          })),
        )
      : undefined;
    const failed = await store.failedJobsOf(jobs);
    const expectedJobs = jobs.length;
    let curveRows: Map<string, ResultRow[]> | undefined;
    if (compare.learningCurve) {
      curveRows = new Map();
      const names = compare.learningCurve.experiments.length ? compare.learningCurve.experiments : [spec.name];
      for (const name of names) {
        const r = name === spec.name ? rows : await store.results(name);
        if (r.length === 0)
          throw new UserError(`compare.learning_curve.experiments: no results for experiment '${name}' in ${dbPath}`);
        curveRows.set(name, r);
      }
    }
    const provenance = await provenanceSettings(store, plan);
    input = {
      experiment: spec.name,
      specFile: reportPath(specFile),
      specHash: specHash(spec),
      settings: {
        seed: spec.seeds
          ? `${spec.seeds.join(', ')} (the tables are seed ${spec.seed}'s; each claim is evaluated under every seed)`
          : spec.seed,
        preprocessing: `discretize ${spec.preprocessing.discretize.method}${spec.preprocessing.discretize.bins ? ` (${spec.preprocessing.discretize.bins} bins)` : ''}, missing values ${spec.preprocessing.missing}${emText(spec.preprocessing.em)}`,
        resampling: resamplingReportLine(spec.resampling),
        database: store.snapshotOf
          ? `${reportPath(dbPath)} (read from a snapshot copy: ${store.snapshotOf} was writing it)`
          : reportPath(dbPath),
        ...provenance,
      },
      methods: spec.methods,
      datasets: plan.datasets.map((d) => d.handle.name),
      planned: plannedFolds(jobs),
      rows,
      ...(seedRows ? { seedRows } : {}),
      expectedJobs,
      failed,
      compare,
      reference: spec.reference,
      curveRows,
      // Structure diagnostics are read only when the report tabulates them or a reference file may use them.
      structureInfo:
        spec.reference.length || compare.diagnostics.length
          ? await loadStructureInfo(
              store,
              // every seed's jobs: each seed's claims read their own
              (plan.seeds ? plan.jobs : jobs).map((j) => j.key),
            )
          : undefined,
      arcs: await store.learnedArcsOf(jobs.map((j) => j.key)),
      curves: await loadPredictionCurves(store, jobs),
    };
  } finally {
    if (!opts.store) store.close();
  }
  const dir = opts.out ? resolve(opts.out) : resolve(process.cwd(), 'results', spec.name);
  // A figure the previous report in this folder drew from the same data is taken from its file.
  reuseFiguresOf(join(dir, 'figures'));
  const snapshot = store.snapshotOf ? { db: dbPath, holder: store.snapshotOf } : undefined;
  const doc = await buildReport(input);
  // A reference mapping that matches nothing is said where the user looks, not only in the report.
  for (const r of doc.references)
    for (const note of r.comments) if (note.startsWith('warning: ')) process.stderr.write(`bnclab: ${note}\n`);
  const files = await writeReportFiles(
    dir,
    doc,
    [
      { path: dbPath, what: 'the results database' },
      { path: specFile, what: 'the spec file' },
    ],
    { pdf: opts.pdf === true },
  );
  return { ...files, snapshot };
}

/**
 * Long-form CSV: one row per metric × dataset × method and nothing else, so that tools reading it (scmamp,
 * autorank, pandas) see only datasets; the averages and ranks are in renderSummaryCsv.
 */
export function renderLongCsv(tables: readonly SummaryTable[]): string {
  // mean and sd are empty where the metric is undefined on some fold (no mean); folds < planned_folds marks a
  // dataset × method with jobs failed or not run yet (planned_folds empty when the plan is not known).
  const out = ['metric,dataset,method,mean,sd,folds,planned_folds'];
  const num = (x: number): string => (Number.isFinite(x) ? String(x) : '');
  for (const t of tables) {
    t.datasets.forEach((d, i) =>
      t.methods.forEach((m, j) => {
        const c = t.cells[i][j];
        if (c)
          out.push([t.metric.key, csvField(d), csvField(m), num(c.mean), num(c.sd), c.n, c.planned ?? ''].join(','));
      }),
    );
  }
  return out.join('\n') + '\n';
}

/** Per metric × method: the average over the complete datasets and the average rank (report-summary.csv). */
function renderSummaryCsv(tables: readonly SummaryTable[]): string {
  const out = ['metric,method,average,average_rank,complete_datasets'];
  for (const t of tables) {
    t.methods.forEach((m, j) =>
      out.push([t.metric.key, csvField(m), csvField(t.average[j]), csvField(t.ranks[j]), t.completeDatasets].join(',')),
    );
  }
  return out.join('\n') + '\n';
}

const MANIFEST = '.bnclab-generated';

/**
 * Start a generated folder afresh: remove the files the previous report listed in its manifest (and only
 * those, so a user's own files in an --out folder are never touched), then record the new list.
 */
function freshFolder(dir: string, files: readonly string[], put: (file: string, data: string) => void): void {
  makeFolder(dir);
  const manifest = join(dir, MANIFEST);
  if (existsSync(manifest)) {
    for (const f of readFileSync(manifest, 'utf8').split('\n')) {
      if (f && !f.includes('/') && !f.includes('\\') && !files.includes(f)) rmSync(join(dir, f), { force: true });
    }
  }
  put(manifest, files.join('\n') + '\n');
}

/**
 * Write the report's files into `dir`. A folder that cannot be created or written (read-only, full disk, a
 * file in the way) is one line naming it and the cause, exit 5: the results are stored, only the report is not.
 */
async function writeReportFiles(
  dir: string,
  doc: ReportDoc,
  protect: readonly { readonly path: string; readonly what: string }[] = [],
  opts: { readonly pdf?: boolean } = {},
): Promise<ReportFiles> {
  // Each file goes through a temporary file, so a full or read-only disk leaves no partial one; none may
  // land on the database or the spec (an --out folder that holds them).
  // The protected files' real paths once, not once per file written (a report writes a hundred).
  const guarded = protect.map((p) => ({ what: p.what, real: realPath(p.path) }));
  const put = (file: string, data: string | Uint8Array): void => {
    const real = realPath(file);
    const hit = guarded.find((p) => p.real === real);
    if (hit) throw new UserError(`report: ${file} is ${hit.what}; refusing to overwrite it`, EXIT.report);
    // A file that already holds these bytes is left as it is (a report made again from the same results
    // changes no file and no file's time, so a paper's build that uses its tables and figures redoes nothing).
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (holdsBytes(file, bytes)) return;
    writeFileAtomic(file, bytes, EXIT.report, false);
  };
  try {
    return await writeReportFilesIn(dir, doc, put, opts);
  } catch (e) {
    if (e instanceof UserError)
      throw e.message.startsWith('report:') ? e : new UserError(`report: ${e.message}`, e.exitCode);
    const path = (e as NodeJS.ErrnoException).path;
    throw new UserError(`report: cannot write ${path ?? dir}: ${describeFsError(e)}`, EXIT.report);
  }
}

async function writeReportFilesIn(
  dir: string,
  doc: ReportDoc,
  put: (file: string, data: string | Uint8Array) => void,
  opts: { readonly pdf?: boolean },
): Promise<ReportFiles> {
  const tablesDir = join(dir, 'tables');
  const figuresDir = join(dir, 'figures');
  const summaryCsv = new Map(
    doc.tables.flatMap((t) => {
      const s = tableSummaryCsv(t);
      return s === null ? [] : [[t.id, s] as const];
    }),
  );
  freshFolder(
    tablesDir,
    doc.tables.flatMap((t) => [`${t.id}.tex`, `${t.id}.csv`, ...(summaryCsv.has(t.id) ? [`${t.id}-summary.csv`] : [])]),
    put,
  );
  // Without --pdf, a previous report's PDFs are removed with the rest: they may show other data.
  freshFolder(
    figuresDir,
    [...doc.figures.flatMap((f) => [`${f.id}.svg`, ...(opts.pdf ? [`${f.id}.pdf`] : [])]), FIGURE_KEYS],
    put,
  );
  const tables: string[] = [];
  for (const t of doc.tables) {
    put(join(tablesDir, `${t.id}.tex`), tableToLatex(t, doc.experiment));
    put(join(tablesDir, `${t.id}.csv`), tableToCsv(t));
    const s = summaryCsv.get(t.id);
    if (s !== undefined) put(join(tablesDir, `${t.id}-summary.csv`), s);
    tables.push(join(tablesDir, `${t.id}.tex`));
  }
  const figures: string[] = [];
  for (const f of doc.figures) {
    const file = join(figuresDir, `${f.id}.svg`);
    put(file, f.svg);
    if (opts.pdf) put(join(figuresDir, `${f.id}.pdf`), await figurePdf(f.svg, f.title));
    figures.push(file);
  }
  writeFigureKeys(figuresDir, doc.figures);
  const markdown = join(dir, 'report.md');
  const html = join(dir, 'report.html');
  const csv = join(dir, 'report.csv');
  put(markdown, renderMarkdown(doc));
  put(html, renderHtml(doc));
  put(csv, renderLongCsv(doc.summaries));
  put(join(dir, 'report-summary.csv'), renderSummaryCsv(doc.summaries));
  const verdicts = {
    total: doc.references.reduce((n, r) => n + r.claims.length, 0),
    provisional: doc.references.reduce((n, r) => n + provisionalCount(r), 0),
  };
  return { dir, markdown, html, csv, tables, figures, verdicts };
}

/**
 * A figure's PDF. Drawing is deterministic (no creation date), so the PDF is cached under the SVG, the title
 * and the pdfkit versions, like the SVG itself; pdfkit is loaded only when a figure changed.
 */
/** How pdf.ts draws beyond the packages' versions (the embedded font): part of a figure PDF's cache key. */
const PDF_RENDERING = 'arimo-embedded-1';

export async function figurePdf(svg: string, title: string): Promise<Buffer> {
  const kind = 'figure-pdf';
  const key = contentCacheKey(kind, installedVersions(['pdfkit', 'svg-to-pdfkit']), PDF_RENDERING, title, svg);
  const hit = readContent(kind, key);
  if (hit?.startsWith('JVBER')) return Buffer.from(hit, 'base64'); // "%PDF" in base64
  const { svgToPdf } = await import('./pdf.js');
  const pdf = Buffer.from(await svgToPdf(svg, title));
  writeContent(kind, key, pdf.toString('base64'));
  return pdf;
}
