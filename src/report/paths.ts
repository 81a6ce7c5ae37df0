/**
 * Paths as a report prints them: never absolute, so a report (or a database shipped with one) does not carry
 * the home folder or the layout of the machine that wrote it. A path inside the folder bnclab was run from is
 * shown relative to it (as the user typed it, usually); any other path by its file name alone.
 */
import { basename, isAbsolute, relative, resolve } from 'node:path';

export function reportPath(p: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, p));
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split('\\').join('/');
  return basename(p);
}
