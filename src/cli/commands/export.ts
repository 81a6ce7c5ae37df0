import { type Command, noteSnapshot } from '../command.js';
import type { ExperimentSpec } from '../../spec/load.js';
import { EXIT, UserError } from '../../util/errors.js';

/** Thrown inside the temporary write when the database holds no predictions, so no file is left. */
class NoPredictions extends UserError {
  constructor() {
    super('no saved predictions');
  }
}

export const exportCommand: Command = {
  summary: "write an experiment's saved predictions (CSV, Parquet) or its per-fold results (ARFF, for Weka)",
  usage:
    'bnclab export predictions <spec.yaml> --out FILE.csv|FILE.parquet [--db FILE] [--long] [--force] | bnclab export results <spec.yaml> --out FILE.arff [--db FILE] [--force]',
  options: { out: { type: 'string' }, db: { type: 'string' }, long: { type: 'boolean' }, force: { type: 'boolean' } },
  help: `Options:
  --out FILE   the file to write; .csv or .parquet (written to a temporary file, then renamed into place)
  --db FILE    results database (default: results/<spec name>.duckdb)
  --force      overwrite FILE if it exists (never the database or the spec)

  --long       one row per test row and class label (columns label and prob) instead of a column per label

One row per test row of every job (experiment, dataset, method, repeat, fold, row, truth, predicted: the
most probable class, the first of tied ones) and one column p_<label> per class label; with --long, the
same keys and one row per class label. Predictions are kept by 'bnclab run --save-predictions' (or save_predictions:
true in the spec).`,
  async run(pos, v) {
    if (pos.length === 2 && pos[0] === 'results') return exportResults(pos[1], v);
    if (pos.length !== 2 || pos[0] !== 'predictions') throw new UserError(`usage: ${this.usage}`);
    const out = v['out'] as string | undefined;
    if (!out) throw new UserError(`export: --out FILE.csv|FILE.parquet is required`);
    const format = /\.parquet$/i.test(out) ? 'parquet' : /\.csv$/i.test(out) ? 'csv' : undefined;
    if (!format) throw new UserError(`export: --out ${out}: the file must end in .csv or .parquet`);
    const { writeThroughTemporary } = await import('../../util/output.js');
    const { ResultStore } = await import('../../store/db.js');
    const { spec, db, file } = await exportTarget(pos[1], out, v);
    const store = await ResultStore.open(db, { readOnly: true });
    noteSnapshot(db, store.snapshotOf);
    try {
      let n = 0;
      await writeThroughTemporary(file, async (tmp) => {
        n = await store.exportPredictions(spec.name, tmp, format, Boolean(v['long']));
        // Nothing to export: leave no file (an empty CSV would look like an export).
        if (n === 0) throw new NoPredictions();
      }).catch((e: unknown) => {
        if (!(e instanceof NoPredictions)) throw e;
      });
      if (n === 0)
        throw new UserError(
          `${db}: experiment '${spec.name}' has no saved predictions; 'bnclab run ${pos[1]} --save-predictions${v['db'] ? ` --db ${String(v['db'])}` : ''}' saves them (jobs done without them run again)`,
        );
      process.stdout.write(`${out}: ${n} predictions\n`);
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};

async function exportResults(specFile: string, v: Record<string, unknown>): Promise<number> {
  const out = v['out'] as string | undefined;
  if (!out || !/\.arff$/i.test(out)) throw new UserError(`export results: --out FILE.arff is required`);
  const { writeFileAtomic } = await import('../../util/output.js');
  const { buildPlanSummary } = await import('../../spec/plan.js');
  const { ResultStore } = await import('../../store/db.js');
  const { resultsArff } = await import('../../report/results-arff.js');
  const { spec, db, file } = await exportTarget(specFile, out, v);
  const plan = buildPlanSummary(spec);
  const store = await ResultStore.open(db, { readOnly: true });
  noteSnapshot(db, store.snapshotOf);
  try {
    // A multi-seed spec exports its first seed's results, as its report's tables show them (the runs of two
    // seeds would repeat each dataset × method × repeat × fold).
    const first = plan.seeds?.[0]?.seed;
    const rows = await store.resultsOf(
      spec.name,
      plan.jobs
        .filter((j) => first === undefined || j.specSeed === first)
        .map((j) => ({ key: j.key, dataset: j.dataset.handle.name, method: j.method.label })),
    );
    if (rows.length === 0) throw new UserError(`${db}: no finished job of '${spec.name}' to export`);
    writeFileAtomic(file, resultsArff(spec.name, rows));
    process.stdout.write(`${out}: ${rows.length} results\n`);
    return EXIT.ok;
  } finally {
    store.close();
  }
}

/**
 * The spec, the database and the checked output file of an export: the file may be neither the database nor
 * the spec (not even with --force) and needs --force to replace another file; a default database that does
 * not exist is named with where to look.
 */
async function exportTarget(
  specFile: string,
  out: string,
  v: Record<string, unknown>,
): Promise<{ spec: ExperimentSpec; db: string; file: string }> {
  const { resolve } = await import('node:path');
  const { existsSync } = await import('node:fs');
  const { checkOutputFile } = await import('../../util/output.js');
  const { loadSpecFile } = await import('../../spec/load.js');
  const { defaultDbPath } = await import('../../runner/run.js');
  const { spec } = loadSpecFile(specFile);
  const db = v['db'] ? resolve(v['db'] as string) : defaultDbPath(spec.name);
  const file = checkOutputFile(out, {
    option: '--out',
    force: v['force'] === true,
    protect: [
      { path: db, what: 'the results database' },
      { path: specFile, what: 'the spec file' },
    ],
  });
  if (!v['db'] && !existsSync(db)) {
    const { missingDatabaseMessage } = await import('../../store/location.js');
    throw new UserError(missingDatabaseMessage(db, spec.name, specFile));
  }
  return { spec, db, file };
}
