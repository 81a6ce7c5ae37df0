// Writes the fold file of experiments/subbkb-2022-table6.yaml (Sugahara, Aomi & Ueno 2022, Table 6): 10
// disjoint subsamples of magic, each 1/100 of its size (⌊19020/100⌋ = 190 rows, drawn stratified by class),
// each split into 10 stratified cross-validation folds. Column `sub<r>` is one repeat: rows outside the
// subsample are `out` (not part of that repeat), rows inside carry their test fold 1..10. Deterministic: the
// permutations come from the project's seeded Rng.
//
//   npx tsc -p tsconfig.json && node experiments/folds/subbkb-2022-table6.mjs
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
const SUBSAMPLES = 10;
const FOLDS = 10;
const { table } = loadDataset(loadRegistry().get(NAME));
const n = table.classColumn.length;
const size = Math.floor(n / 100);
const classCard = table.classLabels.length;
// One stratified permutation of all rows: each class's rows shuffled, then dealt to the subsamples in turn,
// so subsample r gets rows r, r + SUBSAMPLES, … of every class (disjoint, class shares as in the whole).
const rng = new Rng(`subbkb-2022-table6/${NAME}`);
const byClass = Array.from({ length: classCard }, () => []);
for (let i = 0; i < n; i++) byClass[table.classColumn[i]].push(i);
const order = byClass.flatMap((rows) => rng.shuffle(rows));
const cells = Array.from({ length: n }, () => new Array(SUBSAMPLES).fill('out'));
for (let r = 0; r < SUBSAMPLES; r++) {
  const rows = order.filter((_, i) => i % 100 === r).slice(0, size).sort((a, b) => a - b);
  const classes = Int32Array.from(rows, (i) => table.classColumn[i]);
  const folds = stratifiedKFold(classes, classCard, FOLDS, new Rng(`subbkb-2022-table6/${NAME}/sub ${r}`));
  rows.forEach((row, j) => (cells[row][r] = String(folds[j] + 1)));
}
const lines = [Array.from({ length: SUBSAMPLES }, (_, r) => `sub${r}`).join(',')];
for (const c of cells) lines.push(c.join(','));
const out = join(here, 'subbkb-2022-table6');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `${NAME}.csv`), lines.join('\n') + '\n');
console.log(`${NAME}: ${n} rows, ${SUBSAMPLES} subsamples of ${size} rows × ${FOLDS} folds`);
