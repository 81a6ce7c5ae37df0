/**
 * JSON Schema validators for specs, compiled once per schema rather than once per process. Compiling the
 * experiment schema with ajv costs more than the rest of reading a spec, so the validator's generated code
 * (ajv's standalone output: the very function ajv compiles) is kept in the cache (src/util/cache.ts) under
 * the sha256 of the schema, the options and ajv's version; a later process evaluates that code instead of
 * loading and running the compiler. A changed schema (a new method or parameter) is a different key.
 *
 * That code is compiled as a script with V8's code cache where the build left one (dist/cache/v8/, made by
 * scripts/prebuild-cache.mjs after validating the quickstart, so it holds the bytecode of the functions that
 * ran): the experiment schema's validator is large, and parsing it and then compiling it on its first call
 * cost about 15 ms of a command's CPU. V8 checks the cache against its version and flags and compiles the
 * source where it does not fit; the file's name holds the code's sha256 (util/v8-cache.ts). Either way the
 * function run is the one of the code.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { contentCacheKey, readContent, writeContent } from '../util/cache.js';
import { canonicalJson } from '../util/hash.js';
import { withDefaultFlags } from '../util/optimiser.js';
import { packageRoot } from '../util/paths.js';
import { codeCacheFile } from '../util/v8-cache.js';

// ajv is a CommonJS package: require() skips the ES-module wrapper's scan of its exports.
const require = createRequire(import.meta.url);

const KIND = 'ajv-validator';

/** A validator for `schema` (ajv, `strict: false`); `allErrors` as ajv's option of that name. */
export function compileSchema<T = unknown>(schema: object, allErrors: boolean, verbose = false): ValidateFunction<T> {
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const key = contentCacheKey(KIND, ajvVersion, String(allErrors), String(verbose), canonicalJson(schema));
  const code = readContent(KIND, key);
  if (code !== undefined) {
    const loaded = evaluate<T>(code);
    if (loaded) return loaded;
  }
  const { Ajv } = require('ajv') as typeof import('ajv');
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone/index.js')).default;
  const ajv = new Ajv({ allErrors, verbose, strict: false, code: { source: true } });
  const validate = ajv.compile<T>(schema);
  const standalone = standaloneCode(ajv, validate);
  writeContent(KIND, key, standalone);
  // The standalone code is what every later process runs; this one runs it too (the function ajv compiled is
  // the same code), so that the build's code cache is made of the scripts the commands compile.
  return evaluate<T>(standalone) ?? validate;
}

/** The validators' scripts this process compiled, by their code, with whether V8 took a shipped cache. */
const scripts = new Map<string, { readonly script: vm.Script; readonly cache: 'taken' | 'rejected' | 'none' }>();

/** Evaluate ajv's standalone CommonJS module text; undefined when it does not yield a function. */
function evaluate<T>(code: string): ValidateFunction<T> | undefined {
  const module: { exports: unknown } = { exports: {} };
  try {
    let compiled = scripts.get(code);
    if (compiled === undefined) {
      let cachedData: Buffer | undefined;
      try {
        cachedData = readFileSync(codeCacheFile(packageRoot(), KIND, code));
      } catch {
        cachedData = undefined; // none shipped for this schema: compiled from its source
      }
      // The cache was made with V8's default flags; a report has switched the optimiser off (util/optimiser.ts).
      const script = withDefaultFlags(
        () =>
          new vm.Script(`(function (require, module, exports) {${code}\n})`, {
            filename: `${KIND}.js`,
            ...(cachedData ? { cachedData } : {}),
          }),
      );
      compiled = {
        script,
        cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'taken',
      };
      scripts.set(code, compiled);
    }
    (compiled.script.runInThisContext() as (...args: unknown[]) => void)(require, module, module.exports);
  } catch {
    return undefined; // a damaged entry: compile afresh
  }
  return typeof module.exports === 'function' ? (module.exports as ValidateFunction<T>) : undefined;
}

/** How many validators' scripts this process compiled from a shipped code cache, had it rejected, or had none. */
export function validatorCodeCacheUse(): Record<'taken' | 'rejected' | 'none', number> {
  const use = { taken: 0, rejected: 0, none: 0 };
  for (const c of scripts.values()) use[c.cache]++;
  return use;
}

/**
 * V8's code cache of every validator's script this process compiled (the functions run so far included), with
 * the file each belongs in. For the build (scripts/prebuild-cache.mjs), under V8's default flags.
 */
export function validatorCodeCaches(): { path: string; data: Buffer }[] {
  return [...scripts].map(([code, { script }]) => ({
    path: codeCacheFile(packageRoot(), KIND, code),
    data: script.createCachedData(),
  }));
}
