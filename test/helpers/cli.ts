/** Run the built CLI (dist/) as a child process, as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], opts: { cwd?: string } = {}): CliResult {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npm run build' (npm test does it)`);
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Start the CLI without waiting; for kill/resume tests. */
export function cliSpawn(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  return spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, CI: 'true', ...opts.env },
  });
}

/** The folders tempDir made in this test file; test/helpers/cleanup.ts removes them when the file ends. */
const madeFolders: string[] = [];

export function tempDir(prefix = 'bnclab-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeFolders.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of madeFolders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The URL of a built module (`dist/src/<module>`), for a child script's `import()`. */
export function distModule(module: string): string {
  return pathToFileURL(join(ROOT, 'dist', 'src', module)).href;
}

/**
 * Run an ES-module script in a Node process of its own (for what is the whole process's, such as V8's flags).
 * The script is a file, not `-e`: worker threads it starts inherit the process's options, and `--input-type`
 * refuses a file.
 */
export function nodeScript(script: string, env: Record<string, string> = {}): CliResult {
  const file = join(tempDir(), 'child.mjs');
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
