/**
 * JSON Schema validators for specs, compiled once per schema rather than once per process. Compiling the
 * experiment schema with ajv costs more than the rest of reading a spec, so the validator's generated code
 * (ajv's standalone output: the very function ajv compiles) is kept in the cache (src/util/cache.ts) under
 * the sha256 of the schema, the options and ajv's version; a later process evaluates that code instead of
 * loading and running the compiler. A changed schema (a new method or parameter) is a different key.
 *
 * That code is compiled as a script with V8's code cache where the build left one (util/v8-cache.ts; made by
 * scripts/prebuild-cache.mjs after validating the quickstart, so it holds the bytecode of the functions that
 * ran): the experiment schema's validator is large, and parsing it and then compiling it on its first call
 * cost 17–24 ms of a command's CPU, 7–12 from the cache (docs/performance.md).
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { contentCacheKey, readContent, writeContent } from '../util/cache.js';
import { canonicalJson } from '../util/hash.js';
import { packageRoot } from '../util/paths.js';
import { type CachedScript, type CodeCacheUse, codeCacheUse, compileWithCodeCache } from '../util/v8-cache.js';

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

/** The validators' scripts this process compiled, by their code. */
const scripts = new Map<string, CachedScript>();

/** Evaluate ajv's standalone CommonJS module text; undefined when it does not yield a function. */
function evaluate<T>(code: string): ValidateFunction<T> | undefined {
  const module: { exports: unknown } = { exports: {} };
  try {
    let compiled = scripts.get(code);
    if (compiled === undefined) {
      const wrapped = `(function (require, module, exports) {${code}\n})`;
      compiled = compileWithCodeCache(packageRoot(), KIND, code, wrapped, `${KIND}.js`);
      scripts.set(code, compiled);
    }
    (compiled.script.runInThisContext() as (...args: unknown[]) => void)(require, module, module.exports);
  } catch {
    return undefined; // a damaged entry: compile afresh
  }
  return typeof module.exports === 'function' ? (module.exports as ValidateFunction<T>) : undefined;
}

/** How many validators' scripts this process compiled from a shipped code cache, had it rejected, or had none. */
export function validatorCodeCacheUse(): Record<CodeCacheUse, number> {
  return codeCacheUse(scripts.values());
}

/**
 * V8's code cache of every validator's script this process compiled (the functions run so far included), with
 * the file each belongs in. For the build (scripts/prebuild-cache.mjs), under V8's default flags.
 */
export function validatorCodeCaches(): { path: string; data: Buffer }[] {
  return [...scripts.values()].map((s) => ({ path: s.cacheFile, data: s.script.createCachedData() }));
}
