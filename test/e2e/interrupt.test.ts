/** SIGINT: the first stops taking jobs and stores every finished result; the second exits at once. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli';
import { readDb } from '../helpers/db';

const RESUME = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-resume.yaml');

async function doneCount(db: string): Promise<number> {
  return readDb(db, async (s) => (await s.query(`SELECT count(*)::INTEGER AS n FROM jobs WHERE status = 'done'`))[0]!['n'] as number);
}

/** Start a run and send SIGINT `signals` times (10 ms apart) once results are being stored. */
async function interrupt(db: string, cwd: string, signals: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = cliSpawn(['run', RESUME, '--db', db, '--workers', '2', '--no-report'], { cwd });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  let sent = false;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (!sent && /progress: [1-9]\d*\/240/.test(stderr)) {
      sent = true;
      for (let i = 0; i < signals; i++) setTimeout(() => child.kill('SIGINT'), 10 * i);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, stdout, stderr };
}

describe('interrupting a run', () => {
  it('first SIGINT: no new job, every finished result stored, exit 130; the rerun does exactly the rest', async () => {
    const cwd = tempDir();
    const db = join(cwd, 'int.duckdb');
    const r = await interrupt(db, cwd, 1);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/bnclab: interrupted: storing \d+ finished results, then stopping \(interrupt again to exit at once\)/);
    const done = await doneCount(db);
    // What the run reports as done is what is stored.
    expect(r.stdout).toContain(`e2e-resume: ${done} jobs done, 0 failed, 0 already done, ${240 - done} not run`);
    expect(done).toBeLessThan(240);
    const again = cli(['run', RESUME, '--db', db, '--workers', '2', '--no-report'], { cwd });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`${done} already done, ${240 - done} to run`);
  });

  it('second SIGINT exits at once with 130, and what was stored is complete', async () => {
    const cwd = tempDir();
    const db = join(cwd, 'int2.duckdb');
    const r = await interrupt(db, cwd, 2);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/second interrupt: exiting now/);
    const done = await doneCount(db);
    const again = cli(['run', RESUME, '--db', db, '--workers', '2', '--no-report'], { cwd });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`${done} already done, ${240 - done} to run`);
  });
});
