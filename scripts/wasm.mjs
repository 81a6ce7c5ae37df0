/**
 * A step of `npm run build` (after tsc, before the bundle): assembles each WebAssembly text file under src/
 * (`*.wat`, written by hand) into the same place under dist/ (`*.wasm`), with wabt's wat2wasm from the npm
 * registry (a devDependency). Nothing is downloaded at run time: the modules read their .wasm from dist/
 * (src/estimators/hdp/sweep-kernel.ts), and without it they run the same computation in JavaScript.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import initWabt from 'wabt';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wabt = await initWabt();

function* watFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* watFiles(path);
    else if (e.name.endsWith('.wat')) yield path;
  }
}

for (const file of watFiles(join(root, 'src'))) {
  const rel = relative(root, file);
  const module = wabt.parseWat(rel, readFileSync(file, 'utf8'));
  try {
    module.resolveNames();
    module.validate();
    const out = join(root, 'dist', rel.replace(/\.wat$/, '.wasm'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}
