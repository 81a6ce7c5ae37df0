import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder holding bnclab's package.json, whether running from src/ (tests) or dist/src/ (the CLI). */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the bnclab package root');
    dir = up;
  }
}
