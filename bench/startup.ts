/**
 * The fixed cost of a bnclab process: whole-process CPU and wall (GNU time, bench/lib/process.ts) of
 * `node -e 0`, `bnclab plan experiments/quickstart.yaml`, a 1-job `bnclab run` (iris, holdout, nb with
 * Laplace estimates; a fresh database each time, report included) and `bnclab report` of the quickstart
 * (its database made once, before timing). Median of --runs, commands in turn, with the load average.
 * Each command runs warm (a cache folder filled by the warm-up round) and cold (an empty cache folder each
 * time: a fresh clone, CI, a cleared node_modules/.cache); the report cold twice: into the folder of the
 * previous report ("cold"), whose unchanged figures it takes from their files, and into a new folder
 * ("first": nothing drawn before). What a process left is set aside, not deleted, before the next one.
 * --other-bnclab DIR times a second built checkout (e.g. the main branch) in the same rounds, so its
 * figures are a before/after comparison taken side by side.
 *
 *   npm run build && node dist/bench/startup.js [--runs 5] [--other-bnclab DIR]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/util/paths.js';
import { alternate, loadAverage, setAside, summaryTable, type Command } from './lib/process.js';
import { intervalText, medianInterval, targetVerdict } from './lib/target.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'other-bnclab': { type: 'string' } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected an integer ≥ 1, got '${values.runs}'`);
const root = packageRoot(fileURLToPath(import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bnclab-startup-'));
// What a timed process leaves is set aside before the next, not deleted (lib/process.ts, setAside).
const trash = join(work, 'trash');

const ONE_JOB = `name: one_job
seed: 1
datasets: [iris]
resampling: { method: holdout }
structures: [nb]
estimators: [{ id: dirichlet, params: { alpha: 1 } }]
`;

try {
  const spec = join(work, 'one.yaml');
  writeFileSync(spec, ONE_JOB);
  const quickstart = join(root, 'experiments', 'quickstart.yaml');
  const builds = [
    { tag: 'this', dir: root },
    ...(values['other-bnclab'] ? [{ tag: values['other-bnclab'], dir: values['other-bnclab'] }] : []),
  ];
  const rows: Command[][][] = [[[{ label: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] }]]];
  for (const b of builds) {
    const cli = join(b.dir, 'dist', 'src', 'cli', 'main.js');
    // tsc alone leaves the CLI unbundled (scripts/bundle.mjs): it works, but starts slower than what users run.
    // (0.5.6 and before bundled in place of main.js, marked so; since 0.5.7 the bundle is dist/src/bundle/.)
    const bundled =
      existsSync(join(b.dir, 'dist', 'src', 'bundle', 'cli.cjs')) ||
      readFileSync(cli, 'utf8').includes('// bundled by scripts/bundle.mjs');
    if (!bundled) console.log(`startup: note: ${cli} is not bundled ('npm run build' bundles it)`);
    const tag = b.tag.replace(/[^A-Za-z0-9]/g, '_');
    const db = join(work, `one-${tag}.duckdb`);
    const qsDb = join(work, `qs-${tag}.duckdb`);
    execFileSync(process.execPath, [cli, 'run', quickstart, '--db', qsDb, '--quiet', '--no-report'], {
      cwd: work,
      stdio: 'ignore',
    });
    const warmCache = join(work, `cache-${tag}`);
    const coldCache = join(work, `cold-cache-${tag}`);
    // The command with its cache folder: warm (kept) or cold (emptied before each run).
    const variant = (label: string, args: string[], cold: boolean, before?: () => void): Command => ({
      label: `${label} ${cold ? 'cold' : 'warm'} (${b.tag})`,
      cmd: '/usr/bin/env',
      args: [`BNCLAB_CACHE_DIR=${cold ? coldCache : warmCache}`, process.execPath, cli, ...args],
      cwd: work,
      before: () => {
        if (cold) setAside(coldCache, trash);
        before?.();
      },
    });
    const freshDb = (): void => {
      setAside(db, trash);
      setAside(`${db}.wal`, trash);
    };
    const report = (out: string): string[] => ['report', quickstart, '--db', qsDb, '--out', join(work, out)];
    for (const cold of [false, true]) {
      rows.push([
        [variant('plan quickstart', ['plan', quickstart], cold)],
        [variant('run 1 job', ['run', spec, '--db', db, '--workers', '1', '--quiet'], cold, freshDb)],
        [variant('report quickstart', report(`report-${tag}`), cold)],
      ]);
    }
    rows.push([
      [
        {
          ...variant('report quickstart', report(`first-${tag}`), true, () =>
            setAside(join(work, `first-${tag}`), trash),
          ),
          label: `report quickstart first (${b.tag})`,
        },
      ],
    ]);
  }
  console.log(`startup: ${new Date().toISOString()}; load average ${loadAverage()}; median of ${runs}, in turn`);
  // One alternation over every command: node, then each build's plan, run, report, round after round.
  const groups = rows.flat();
  const summaries = alternate(groups, runs, (s) => process.stderr.write(`startup:${s}\n`));
  console.log(summaryTable(summaries));
  // The targets, read with their uncertainty (lib/target.ts): cold within 1.5 × warm, each round's
  // cold run over the same round's warm one; the quickstart's cold report within 0.4 CPU s.
  const byLabel = new Map(summaries.map((x) => [x.label, x]));
  for (const b of builds) {
    for (const command of ['plan quickstart', 'run 1 job', 'report quickstart']) {
      const warm = byLabel.get(`${command} warm (${b.tag})`)!.runs;
      const cold = byLabel.get(`${command} cold (${b.tag})`)!.runs;
      const ratio = medianInterval(cold.map((c, i) => c.cpuS / warm[i].cpuS));
      console.log(
        `${b.tag}, ${command}: cold ÷ warm CPU ${intervalText(ratio, (x) => x.toFixed(2))}; ≤ 1.5: ${targetVerdict(ratio, { atMost: 1.5 })}`,
      );
      if (command === 'report quickstart') {
        const cpu = medianInterval(cold.map((c) => c.cpuS));
        console.log(
          `${b.tag}, ${command} cold: CPU s ${intervalText(cpu, (x) => x.toFixed(3))}; ≤ 0.4: ${targetVerdict(cpu, { atMost: 0.4 })}`,
        );
      }
    }
  }
  console.log(`load average at the end: ${loadAverage()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
