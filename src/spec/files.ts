/**
 * Files a method's parameters name (an external learner's script, say) are part of its identity: the spec
 * loader records the sha256 of each in params.files, so the job key, and with it the result, follows the
 * file's content rather than its name.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MethodInfo, Params } from '../registry.js';
import { readFileInPieces } from '../util/cache.js';

/** params with `files: {<value as written>: sha256}` for every fileParams value naming a file (relative to dir). */
export function withFileHashes(info: MethodInfo, params: Params, dir: string): Params {
  if (!info.fileParams) return params;
  const files: Record<string, string> = {};
  for (const value of info.fileParams(params)) {
    const path = resolve(dir, value);
    let isFile = false;
    try {
      isFile = statSync(path).isFile();
    } catch {
      // not a file (a program on PATH, an option): nothing to hash
    }
    // The content's sha256, recorded with the file's stamp like a data set's: an unchanged file (a 7 MB
    // weka.jar, say) is not read and hashed again on every run.
    if (isFile)
      files[value] = readFileInPieces(
        path,
        () => false,
        () => true,
      );
  }
  return { ...params, files };
}
