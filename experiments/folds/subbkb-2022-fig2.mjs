// Writes the fold file of experiments/subbkb-2022-fig2.yaml (Sugahara, Aomi & Ueno 2022, Figure 2: APSES of
// KB100 and SubbKB10 against the sample size): one class-stratified subsample of magic per size in SIZES, each
// split into 10 stratified cross-validation folds. Column `n<size>` is one repeat: rows outside the subsample
// are `out`, rows inside carry their test fold 1..10. The subsamples are nested (each size's rows are the
// first rows of one stratified permutation), so a larger sample adds rows to a smaller one. Deterministic: the
// permutation comes from the project's seeded Rng.
//
//   npx tsc -p tsconfig.json && node experiments/folds/subbkb-2022-fig2.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { loadRegistry } = await import(join(root, 'dist/src/datasets/registry.js'));
const { loadDataset } = await import(join(root, 'dist/src/datasets/load.js'));
const { Rng } = await import(join(root, 'dist/src/util/rng.js'));
const { stratifiedKFold } = await import(join(root, 'dist/src/folds/split.js'));

const NAME = 'magic';
const SIZES = [100, 200, 500, 1000, 2000, 5000];
const FOLDS = 10;
const { table } = loadDataset(loadRegistry().get(NAME));
const n = table.classColumn.length;
const classCard = table.classLabels.length;
// A stratified permutation: each class's rows shuffled, then interleaved in proportion to the class sizes,
// so every prefix has (within one row) the class shares of the whole.
const rng = new Rng(`subbkb-2022-fig2/${NAME}`);
const byClass = Array.from({ length: classCard }, () => []);
for (let i = 0; i < n; i++) byClass[table.classColumn[i]].push(i);
const shuffled = byClass.map((rows) => rng.shuffle(rows));
const keyed = shuffled.flatMap((rows) => rows.map((row, j) => [(j + 0.5) / rows.length, row]));
const order = keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, row]) => row);
const cells = Array.from({ length: n }, () => new Array(SIZES.length).fill('out'));
SIZES.forEach((size, r) => {
  const rows = order.slice(0, size).sort((a, b) => a - b);
  const classes = Int32Array.from(rows, (i) => table.classColumn[i]);
  const folds = stratifiedKFold(classes, classCard, FOLDS, new Rng(`subbkb-2022-fig2/${NAME}/n ${size}`));
  rows.forEach((row, j) => (cells[row][r] = String(folds[j] + 1)));
});
const lines = [SIZES.map((s) => `n${s}`).join(',')];
for (const c of cells) lines.push(c.join(','));
const out = join(here, 'subbkb-2022-fig2');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `${NAME}.csv`), lines.join('\n') + '\n');
console.log(`${NAME}: ${n} rows, subsamples of ${SIZES.join(', ')} rows × ${FOLDS} folds`);
