// Writes the fold files of experiments/hdp-2018-learning-curves.yaml (Petitjean et al. 2018, Figure 7):
// for each data set, 10 runs × training sizes 128, 256, …, 16384 (powers of two below the row count).
// Column `x<size>_run<r>` is one repeat: its training rows are left empty (−1: never a test row) and every
// other row is test fold 1, so the job trains on exactly <size> rows and tests on the rest. Within a run the
// training sets are nested (the first <size> rows of one seeded permutation), as a learning curve needs.
// Repeat index = sizeIndex × 10 + run. Deterministic: the permutation comes from the project's seeded Rng.
//
//   npx tsc -p tsconfig.json && node experiments/folds/hdp-2018-learning-curves.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { loadRegistry } = await import(join(root, 'dist/src/datasets/registry.js'));
const { loadDataset } = await import(join(root, 'dist/src/datasets/load.js'));
const { Rng } = await import(join(root, 'dist/src/util/rng.js'));

const DATASETS = ['adult', 'magic'];
const RUNS = 10;
const out = join(here, 'hdp-2018-learning-curves');
mkdirSync(out, { recursive: true });
for (const name of DATASETS) {
  const { table } = loadDataset(loadRegistry().get(name));
  const n = table.classColumn.length;
  const sizes = [];
  for (let x = 128; x < n / 2; x *= 2) sizes.push(x);
  // rank[run][row]: position of the row in the run's permutation
  const rank = [];
  for (let r = 0; r < RUNS; r++) {
    const perm = new Rng(`hdp-2018-learning-curves/${name}/run ${r}`).shuffle(Array.from({ length: n }, (_, i) => i));
    const pos = new Int32Array(n);
    perm.forEach((row, i) => (pos[row] = i));
    rank.push(pos);
  }
  const lines = [sizes.flatMap((x) => Array.from({ length: RUNS }, (_, r) => `x${x}_run${r}`)).join(',')];
  for (let row = 0; row < n; row++) {
    const cells = [];
    for (const x of sizes) for (let r = 0; r < RUNS; r++) cells.push(rank[r][row] < x ? '' : '1');
    lines.push(cells.join(','));
  }
  writeFileSync(join(out, `${name}.csv`), lines.join('\n') + '\n');
  console.log(`${name}: ${n} rows, sizes ${sizes.join(', ')} × ${RUNS} runs`);
}
