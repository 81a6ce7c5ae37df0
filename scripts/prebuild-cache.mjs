/**
 * The last step of `npm run build`: fills dist/cache/ (src/util/cache.ts, SHIPPED_CACHE) with the content
 * entries that depend only on what the package ships, so that the first command after `npm install` (a fresh
 * clone, a CI job, an emptied node_modules/.cache) starts as fast as a warm one:
 *
 * - `ajv-validator`: the spec validator and every method's parameter validator (ajv's standalone code), with
 *   V8's code cache of each in `v8/` (made after validating the quickstart's spec);
 * - `registry-yaml`: configs/datasets.yaml parsed;
 * - `plan-dataset-1` and `file-sha256`: the facts of the quickstart's datasets (`npm start`) and the hashes of
 *   their files, recorded with each file's size, inode and times (a file changed since is hashed afresh);
 * - `text-metrics`: the Helvetica metrics of the installed pdfkit, by which figures measure their text;
 * - `vega-template`: the Vega templates of the scatter plots, the critical-difference diagrams and the fold box
 *   plots (src/report/figure-views.ts), which hold no data;
 * - `v8/`: V8's code cache of the validators, of dist/vega/vega.cjs (below) and of the CLI's bundle
 *   (scripts/code-cache.mjs).
 *
 * It runs the very functions a command runs (from tsc's output, not the bundle), with the cache folder
 * pointed at dist/cache, so the keys are the ones a command computes. Other specs' plans, data files and
 * figures are not prebuilt: they depend on the user's specs, data and results.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'dist', 'cache');
rmSync(dir, { recursive: true, force: true });
process.env['BNCLAB_CACHE_DIR'] = dir;
const load = (p) => import(pathToFileURL(join(root, 'dist', 'src', p)).href);

await load('methods.js');
const { listStructures, listEstimators, listBaselines } = await load('registry.js');
const { experimentSchema } = await load('spec/schema.js');
const { compileSchema } = await load('spec/validator.js');
const { loadRegistry } = await load('datasets/registry.js');
// As src/spec/load.ts compiles them (getValidator, paramValidator).
compileSchema(experimentSchema(false), true, true);
const methods = [...listStructures(), ...listEstimators(), ...listBaselines()];
for (const info of methods) compileSchema({ additionalProperties: false, ...info.params, type: 'object' }, false);
loadRegistry(root);
// The facts of the quickstart's datasets (their rows, classes and fold sizes under its resampling and seed),
// which `npm start` and `plan` of it read: the data ship with the package, so a fresh clone plans its first
// experiment without parsing them. Keyed by each file's sha256 and the spec's resampling, as a command keys
// them: another spec, or a changed file, computes its own.
const { loadSpecFile } = await load('spec/load.js');
const { buildPlanSummary } = await load('spec/plan.js');
buildPlanSummary(loadSpecFile(join(root, 'experiments', 'quickstart.yaml')).spec);
// V8's code cache of every validator's script, made now that the quickstart's spec has been validated (its
// validators' functions compiled into it); src/spec/validator.ts reads it.
const validatorCaches = (await load('spec/validator.js')).validatorCodeCaches();
// Methods whose parameters have the same schema share one validator's code, so fewer scripts than validators.
if (validatorCaches.length === 0) throw new Error("prebuild-cache: no validator's script was compiled");
for (const c of validatorCaches) {
  mkdirSync(dirname(c.path), { recursive: true });
  writeFileSync(c.path, c.data);
}
const { textWidth } = await load('report/figures.js');
textWidth('x', 10);

// V8's code cache of dist/vega/vega.cjs (src/report/vega-load.ts), made after drawing one figure of each kind
// the report draws, so that it holds the code they run. The figures themselves go to a folder thrown away.
const { resetCacheDir } = await load('util/cache.js');
const { tmpdir } = await import('node:os');
const scratch = mkdtempSync(join(tmpdir(), 'bnclab-prebuild-'));
process.env['BNCLAB_CACHE_DIR'] = scratch;
resetCacheDir();
const figures = await load('report/figures.js');
const points = ['a', 'b', 'c'].map((dataset, i) => ({ dataset, a: 0.5 + i / 10, b: 0.9 - i / 7 }));
await figures.scatterFigure('s1', 'm1', 'm2', 'accuracy', true, points);
await figures.scatterFigure('s2', 'm1', 'm3', 'accuracy', true, points);
await figures.cdFigure('cd', 'accuracy', ['m1', 'm2', 'm3'], [1.2, 2, 2.8], 1.1, [[0, 1]], 'Nemenyi');
const folds = points.flatMap((p) => ['m1', 'm2'].map((method, j) => ({ dataset: p.dataset, method, value: p.a + j / 9 })));
await figures.foldBoxplotFigure('folds', 'accuracy', ['m1', 'm2'], folds);
const curve = points.flatMap((p) => [10, 20].map((nTrain) => ({ dataset: p.dataset, method: 'm1', nTrain, value: p.a * nTrain })));
await figures.learningCurveFigure('curve', 'accuracy', curve);
const sweep = [1, 10, 100].map((x) => ({ series: 'm', x, wins: x % 3, losses: 1 }));
await figures.winLossSweepFigure('sweep', 'alpha', 1, 'alpha', 'accuracy', sweep);
// The templates of the scatter plots, the critical-difference diagrams and the fold box plots
// (src/report/figure-views.ts): they depend on no data, only on the kind's spec and the vega versions, so a
// report's first figure of a kind need not compile and parse it.
const { cpSync, readdirSync } = await import('node:fs');
const templates = join(scratch, 'vega-template');
if (readdirSync(templates).length !== 3) throw new Error('prebuild-cache: expected three figure templates');
cpSync(templates, join(dir, 'vega-template'), { recursive: true });
rmSync(scratch, { recursive: true, force: true });
const code = (await load('report/vega-load.js')).vegaCodeCache();
if (code === undefined) throw new Error('prebuild-cache: vega was not loaded from dist/vega/vega.cjs');
mkdirSync(dirname(code.path), { recursive: true });
writeFileSync(code.path, code.data);
// V8's code cache of the CLI's bundle (scripts/code-cache.mjs), in a process of its own: it runs commands.
const { spawnSync } = await import('node:child_process');
const maker = spawnSync(process.execPath, [join(root, 'scripts', 'code-cache.mjs')], { encoding: 'utf8' });
const made = /code-cache: (\d+) chunks\n$/.exec(maker.stdout ?? '');
if (maker.status !== 0 || !made)
  throw new Error(`prebuild-cache: scripts/code-cache.mjs failed (${maker.status}):\n${maker.stdout}${maker.stderr}`);
console.log(
  `prebuild-cache: ${methods.length + 1} validators, the dataset registry, the quickstart's dataset facts, text metrics, three figure templates, vega's code cache and the CLI bundle's (${made[1]} chunks) in dist/cache/`,
);
