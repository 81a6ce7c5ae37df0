/**
 * The last step of `npm run build`: fills dist/cache/ (src/util/cache.ts, SHIPPED_CACHE) with the content
 * entries that depend only on what the package ships, so that the first command after `npm install` (a fresh
 * clone, a CI job, an emptied node_modules/.cache) starts as fast as a warm one:
 *
 * - `ajv-validator`: the spec validator and every method's parameter validator (ajv's standalone code);
 * - `registry-yaml`: configs/datasets.yaml parsed;
 * - `text-metrics`: the Helvetica metrics of the installed pdfkit, by which figures measure their text.
 *
 * It runs the very functions a command runs (from tsc's output, not the bundle), with the cache folder
 * pointed at dist/cache, so the keys are the ones a command computes. Data files, figures and plans are not
 * prebuilt: they depend on the user's data and results.
 */
import { rmSync } from 'node:fs';
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
const { textWidth } = await load('report/figures.js');
textWidth('x', 10);
console.log(`prebuild-cache: ${methods.length + 1} validators, the dataset registry and text metrics in dist/cache/`);
