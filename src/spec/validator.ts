/**
 * JSON Schema validators for specs, compiled once per schema rather than once per process. Compiling the
 * experiment schema with ajv costs more than the rest of reading a spec, so the validator's generated code
 * (ajv's standalone output: the very function ajv compiles) is kept in the cache (src/util/cache.ts) under
 * the sha256 of the schema, the options and ajv's version; a later process evaluates that code instead of
 * loading and running the compiler. A changed schema (a new method or parameter) is a different key.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { contentCacheKey, readContent, writeContent } from '../util/cache.js';
import { canonicalJson } from '../util/hash.js';

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
  writeContent(KIND, key, standaloneCode(ajv, validate));
  return validate;
}

/** Evaluate ajv's standalone CommonJS module text; undefined when it does not yield a function. */
function evaluate<T>(code: string): ValidateFunction<T> | undefined {
  const module: { exports: unknown } = { exports: {} };
  try {
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
  } catch {
    return undefined; // a damaged entry: compile afresh
  }
  return typeof module.exports === 'function' ? (module.exports as ValidateFunction<T>) : undefined;
}
