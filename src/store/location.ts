import { resolve } from 'node:path';

/** Where an experiment's database lives unless --db says otherwise: results/<name>.duckdb under the working directory. */
export function defaultDbPath(name: string): string {
  return resolve(process.cwd(), 'results', `${name}.duckdb`);
}
