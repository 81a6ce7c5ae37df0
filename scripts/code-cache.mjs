/**
 * Makes V8's code cache of the CLI's bundle (src/util/bundle.ts), run by scripts/prebuild-cache.mjs in a
 * process of its own (V8's default flags, its output discarded): loads dist/src/bundle/cli.cjs as the CLI
 * does, runs in a scratch folder the commands a new user runs first (`plan` of the quickstart, a 1-job `run`,
 * which runs its job in this thread, and a 12-job `run` with its worker threads and a report of two methods on
 * two datasets), then writes the cache of every chunk this process loaded, with the bytecode of every
 * function those commands ran. Its last line of output: `code-cache: N chunks`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { loadBundle, saveBundleCodeCache } = await import(
  pathToFileURL(join(root, 'dist', 'src', 'util', 'bundle.js')).href
);
const cli = loadBundle('cli');
if (cli === undefined) throw new Error('code-cache: dist/src/bundle/cli.cjs is missing (scripts/bundle.mjs makes it)');

const scratch = mkdtempSync(join(tmpdir(), 'bnclab-code-cache-'));
try {
  // The commands' own caches go to the scratch folder: the shipped cache holds only what the package decides.
  process.env['BNCLAB_CACHE_DIR'] = join(scratch, 'cache');
  process.chdir(scratch);
  const spec = (name, datasets, resampling, structures) =>
    `name: ${name}\nseed: 1\ndatasets: [${datasets}]\nresampling: ${resampling}\nstructures: [${structures}]\n` +
    'estimators: [{ id: dirichlet, params: { alpha: 1 } }]\n';
  writeFileSync('one.yaml', spec('one', 'iris', '{ method: holdout }', 'nb'));
  writeFileSync('two.yaml', spec('two', 'iris, zoo', '{ method: cv, folds: 3 }', 'nb, tan'));
  const commands = [
    ['plan', join(root, 'experiments', 'quickstart.yaml')],
    ['run', 'one.yaml', '--db', 'one.duckdb', '--quiet'],
    ['run', 'two.yaml', '--db', 'two.duckdb', '--workers', '2', '--quiet'],
  ];
  for (const args of commands) {
    const code = await cli.runCli(args);
    if (code !== 0) throw new Error(`code-cache: 'bnclab ${args.join(' ')}' exited with ${code}`);
  }
} finally {
  process.chdir(root);
  rmSync(scratch, { recursive: true, force: true });
}
// A report switches V8's optimiser off (util/optimiser.ts); V8 stamps a cache with the flags it is made under,
// and a new process starts with the default ones.
v8.setFlagsFromString('--turbofan');
process.stdout.write(`code-cache: ${saveBundleCodeCache()} chunks\n`);
