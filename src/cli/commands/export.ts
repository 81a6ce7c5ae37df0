import type { Command } from '../command.js';
import { UserError } from '../../util/errors.js';

export const exportCommand: Command = {
  summary: "write an experiment's saved predictions (CSV, Parquet) or its per-fold results (ARFF, for Weka)",
  usage:
    'bnclab export predictions <spec.yaml> --out FILE.csv|FILE.parquet [--db FILE] [--long] | bnclab export results <spec.yaml> --out FILE.arff [--db FILE]',
  options: { out: { type: 'string' }, db: { type: 'string' }, long: { type: 'boolean' } },
  help: `Options:
  --out FILE   the file to write; .csv or .parquet
  --db FILE    results database (default: results/<spec name>.duckdb)

  --long       one row per test row and class label (columns label and prob) instead of a column per label

One row per test row of every job (experiment, dataset, method, repeat, fold, row, truth, predicted: the
most probable class, the first of tied ones) and one column p_<label> per class label; with --long, the
same keys and one row per class label. Predictions are kept by 'bnclab run --save-predictions' (or save_predictions:
true in the spec).`,
  async run(pos, v) {
    if (pos.length === 2 && pos[0] === 'results') return exportResults(pos[1]!, v);
    if (pos.length !== 2 || pos[0] !== 'predictions') throw new UserError(`usage: ${this.usage}`);
    const out = v['out'] as string | undefined;
    if (!out) throw new UserError(`export: --out FILE.csv|FILE.parquet is required`);
    const format = /\.parquet$/i.test(out) ? 'parquet' : /\.csv$/i.test(out) ? 'csv' : undefined;
    if (!format) throw new UserError(`export: --out ${out}: the file must end in .csv or .parquet`);
    const { resolve } = await import('node:path');
    const { loadSpecFile } = await import('../../spec/load.js');
    const { defaultDbPath } = await import('../../runner/run.js');
    const { ResultStore } = await import('../../store/db.js');
    const { spec } = loadSpecFile(pos[1]!);
    const db = v['db'] ? resolve(v['db'] as string) : defaultDbPath(spec.name);
    const store = await ResultStore.open(db, { readOnly: true });
    try {
      const n = await store.exportPredictions(spec.name, resolve(out), format, Boolean(v['long']));
      if (n === 0)
        throw new UserError(
          `${db}: experiment '${spec.name}' has no saved predictions; run it with --save-predictions`,
        );
      process.stdout.write(`${out}: ${n} predictions\n`);
      return 0;
    } finally {
      store.close();
    }
  },
};

async function exportResults(specFile: string, v: Record<string, unknown>): Promise<number> {
  const out = v['out'] as string | undefined;
  if (!out || !/\.arff$/i.test(out)) throw new UserError(`export results: --out FILE.arff is required`);
  const { renameSync, writeFileSync } = await import('node:fs');
  const { resolve } = await import('node:path');
  const { loadSpecFile } = await import('../../spec/load.js');
  const { buildPlanSummary } = await import('../../spec/plan.js');
  const { defaultDbPath } = await import('../../runner/run.js');
  const { ResultStore } = await import('../../store/db.js');
  const { resultsArff } = await import('../../report/results-arff.js');
  const { spec } = loadSpecFile(specFile);
  const db = v['db'] ? resolve(v['db'] as string) : defaultDbPath(spec.name);
  const plan = buildPlanSummary(spec);
  const store = await ResultStore.open(db, { readOnly: true });
  try {
    const rows = await store.resultsOf(
      spec.name,
      plan.jobs.map((j) => ({ key: j.key, dataset: j.dataset.handle.name, method: j.method.label })),
    );
    if (rows.length === 0) throw new UserError(`${db}: no finished job of '${spec.name}' to export`);
    const file = resolve(out);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, resultsArff(spec.name, rows));
    renameSync(tmp, file);
    process.stdout.write(`${out}: ${rows.length} results\n`);
    return 0;
  } finally {
    store.close();
  }
}
