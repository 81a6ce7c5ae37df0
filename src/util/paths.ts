import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The nearest folder at or above `start` holding a package.json; by default bnclab's own root, whether
 * running from src/ (tests) or dist/src/ (the CLI).
 */
export function packageRoot(start?: string): string {
  if (!start && root) return root;
  let dir = start ?? dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) {
      if (!start) root = dir;
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json found above ${start ?? fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}
