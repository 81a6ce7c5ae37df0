import type { Command } from '../command.js';
import { intOption } from '../command.js';
import { EXIT } from '../../util/errors.js';

export const uiCommand: Command = {
  summary: 'a local web page to watch runs and explore results (read-only; 127.0.0.1 unless --host)',
  usage:
    'bnclab ui [<spec.yaml> | <results.duckdb> | <folder of shards>]... [--db FILE] [--seeds N] [--port N] [--host H]',
  options: { db: { type: 'string' }, seeds: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
  help: `Serves a page at http://127.0.0.1:<port>/ (default port 8765; 0 picks a free one) with the experiments of
a results database and their progress (live while a run writes), the results of any selection of metric,
datasets and methods with the report's statistics for exactly that selection, and each dataset × method's folds.

Arguments:
  <spec.yaml>       its results database (results/<name>.duckdb, or --db), its jobs named as the spec names them
  <results.duckdb>  every experiment stored in it
  (none)            results/quickstart.duckdb
  several           several databases (two results files, two specs, a spec and a file…): the Compare page
                    sets an experiment of one beside an experiment of another; the other pages show the first

Options:
  --db FILE   the results database of a spec (default: results/<spec name>.duckdb)
  --seeds N   a spec run with --seeds N: its N seeds (as 'report --seeds N'; the claims say in how many
              seeds each verdict holds)
  --port N    the port (default 8765)
  --host H    listen on another interface than 127.0.0.1 (the page has no login: anyone who can reach it
              reads your results)

The database is opened read-only for each refresh and closed again, so 'bnclab run' can write to it
meanwhile; while it does, the page reads a snapshot copy. Nothing is fetched from the network. Ctrl-C stops.`,
  async run(pos, v) {
    const { UserError } = await import('../../util/errors.js');
    const port = intOption(v['port'], '--port', 0) ?? 8765;
    if (port > 65535) throw new UserError(`--port: expected an integer from 0 to 65535, got ${port}`);
    const host = v['host'] === undefined ? '127.0.0.1' : String(v['host']);
    const { existsSync, statSync } = await import('node:fs');
    const { defaultDbPath } = await import('../../store/location.js');
    const { loadSpecFile, withSeedCount } = await import('../../spec/load.js');
    const { UiData } = await import('../../ui/data.js');
    const { startUi } = await import('../../ui/server.js');
    // Several arguments: several databases (each opened read-only), whose experiments the Compare page sets
    // side by side; the other pages show the first.
    if (pos.length > 1 && v['db'] !== undefined)
      throw new UserError('--db goes with one spec; give each database (or spec) as an argument');
    const sources: InstanceType<typeof UiData>[] = [];
    for (const arg of pos.length ? pos : [undefined]) {
      if (arg !== undefined && /\.ya?ml$/i.test(arg)) {
        const spec = withSeedCount(loadSpecFile(arg).spec, intOption(v['seeds'], '--seeds', 1));
        sources.push(new UiData(v['db'] === undefined ? defaultDbPath(spec.name) : String(v['db']), spec));
        continue;
      }
      if (v['db'] !== undefined) throw new UserError('--db goes with a spec; give a database as the argument');
      if (v['seeds'] !== undefined) throw new UserError('--seeds goes with a spec (as for report)');
      const file = arg ?? defaultDbPath('quickstart');
      if (!existsSync(file)) throw new UserError(`${file}: no results database (run an experiment first)`);
      // A folder: its shard databases (*.duckdb), shown merged as one database.
      if (!statSync(file).isFile() && !statSync(file).isDirectory())
        throw new UserError(`${file}: not a results database file or a folder of shards`);
      sources.push(new UiData(file));
    }
    for (const d of sources) await d.refresh();
    const file = sources.map((d) => d.file).join(', ');
    const ui = await startUi(sources, host, port);
    const log = (s: string): void => void process.stderr.write(s + '\n');
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1')
      log(`warning: listening on ${host}, not only this machine: anyone who can reach it reads these results`);
    await new Promise<void>((done) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void ui.close().then(() => {
          for (const d of sources) d.dispose();
          done();
        });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      // The address is printed once the handlers are in place: a caller that stops the server as soon as it
      // reads the address (a script, a test) must not meet the default action of the signal.
      process.stdout.write(`bnclab ui: ${ui.url} (${file}; Ctrl-C stops)\n`);
    });
    return EXIT.ok;
  },
};
