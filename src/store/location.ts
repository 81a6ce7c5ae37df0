import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where an experiment's database lives unless --db says otherwise: results/<name>.duckdb under the working directory. */
export function defaultDbPath(name: string): string {
  return resolve(process.cwd(), 'results', `${name}.duckdb`);
}

/**
 * When the working folder has no results/<name>.duckdb, the one a run started from the spec's folder (or
 * its parent, for specs under experiments/) would have made: the first of those that exists, if any.
 */
export function databaseBesideSpec(name: string, specFile: string): string | undefined {
  const specDir = dirname(resolve(specFile));
  const here = defaultDbPath(name);
  for (const dir of [specDir, dirname(specDir)]) {
    const p = resolve(dir, 'results', `${name}.duckdb`);
    if (p !== here && existsSync(p)) return p;
  }
  return undefined;
}

/** The one line for a missing default database: which file was looked for, and where one is, if anywhere. */
export function missingDatabaseMessage(path: string, name: string, specFile: string): string {
  const other = databaseBesideSpec(name, specFile);
  return (
    `${path}: no results database (results/ is relative to the working folder ${process.cwd()})` +
    (other ? `; there is one beside the spec: --db ${other}` : `; run the experiment first, or give --db FILE`)
  );
}
