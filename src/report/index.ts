/** `bnclab report`: read the experiment's results from the store and write the report files. */
import { resolve } from 'node:path';
import { loadSpecFile } from '../spec/load.js';
import { specHash } from '../spec/plan.js';
import { ResultStore } from '../store/db.js';
import { defaultDbPath } from '../runner/run.js';
import { writeReport } from './summary.js';
import '../methods.js';

export async function writeExperimentReport(
  specFile: string,
  opts: { db?: string; out?: string } = {},
): Promise<{ markdown: string; csv: string }> {
  const { spec } = loadSpecFile(specFile);
  const dbPath = opts.db ? resolve(opts.db) : defaultDbPath(spec.name);
  const store = await ResultStore.open(dbPath, { readOnly: true });
  try {
    const rows = await store.results(spec.name);
    const failed = await store.failedJobs(spec.name);
    const summary = await store.jobSummary(spec.name);
    const expectedJobs = summary.reduce((a, s) => a + s.n, 0);
    const r = spec.resampling;
    const settings: Record<string, string> = {
      seed: spec.seed,
      preprocessing: `discretize ${spec.preprocessing.discretize.method}${spec.preprocessing.discretize.bins ? ` (${spec.preprocessing.discretize.bins} bins)` : ''}, missing values ${spec.preprocessing.missing}`,
      resampling:
        typeof r.folds === 'number'
          ? r.method === 'cv'
            ? `${r.repeats > 1 ? `${r.repeats} × ` : ''}${r.folds}-fold ${r.stratified ? 'stratified ' : ''}cross-validation`
            : `holdout, test fraction ${r.test_fraction}, ${r.repeats} repeat(s)`
          : `folds from ${r.folds.file}`,
      database: dbPath,
    };
    const out = opts.out ? resolve(opts.out) : resolve(process.cwd(), 'results', spec.name);
    return writeReport(out, {
      experiment: spec.name,
      specFile,
      specHash: specHash(spec),
      settings,
      methods: spec.methods.map((m) => m.label),
      rows,
      expectedJobs,
      failed,
    });
  } finally {
    store.close();
  }
}
