import { type Command, noteSnapshot } from '../command.js';
import { EXIT, UserError } from '../../util/errors.js';

export const sqlCommand: Command = {
  summary: 'run a read-only SQL query on a results database (table, CSV or JSON output; no duckdb install needed)',
  usage: 'bnclab sql <db.duckdb> "<query>" [--csv | --json]',
  options: { csv: { type: 'boolean' }, json: { type: 'boolean' } },
  help: `Options:
  --csv    RFC 4180 CSV with a header line (lists and structs as JSON text)
  --json   one JSON object per row (JSON Lines)

The database is opened read-only and nothing else is reachable: one statement that only reads (SELECT,
WITH, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN); COPY, EXPORT, ATTACH, SET, LOAD, INSTALL and reading other files
(read_csv, glob, …) are refused. A database a run is writing is queried through a snapshot copy of what
it has stored (said on stderr). Exit 2 for a refused or wrong query, 4 for a database that cannot be read. Tables: experiments, datasets,
splits, folds, jobs, experiment_jobs, job_metrics, structures, predictions; view results (one row per finished
job). Example:
  bnclab sql results/quickstart.duckdb "SELECT dataset, method, avg(accuracy) AS acc FROM results GROUP BY ALL ORDER BY ALL"`,
  async run(pos, v) {
    if (pos.length !== 2) throw new UserError(`usage: ${this.usage}`);
    if (v['csv'] && v['json']) throw new UserError('sql: choose one of --csv and --json');
    const { resolve } = await import('node:path');
    const { readOnlyQuery } = await import('../../store/sql.js');
    const { formatSqlResult } = await import('../sql-format.js');
    const r = await readOnlyQuery(resolve(pos[0]), pos[1]);
    noteSnapshot(pos[0]!, r.snapshotOf);
    process.stdout.write(formatSqlResult(r, v['csv'] ? 'csv' : v['json'] ? 'json' : 'table'));
    return EXIT.ok;
  },
};
