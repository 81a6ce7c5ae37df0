import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, cli, tempDir } from '../helpers/cli.js';
import { sbatchScript } from '../../src/cluster/submit.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');

describe('bnclab submit (without a cluster)', () => {
  it('writes a readable job-array script that bash accepts and that runs shard $SLURM_ARRAY_TASK_ID', () => {
    const dir = tempDir();
    const text = sbatchScript(SMALL, 'e2e-small', {
      shards: 12,
      dir,
      db: join(dir, 'm.duckdb'),
      partition: 'short',
      time: '01:30:00',
      mem: '4G',
      cpusPerTask: 3,
      maxRunning: 5,
      jobTimeout: 600,
      sbatchArgs: ['--account=abc'],
      bnclab: 'bnclab',
    });
    expect(text).toContain('#SBATCH --array=1-12%5');
    expect(text).toContain('#SBATCH --partition=short');
    expect(text).toContain('#SBATCH --time=01:30:00');
    expect(text).toContain('#SBATCH --mem=4G');
    expect(text).toContain('#SBATCH --cpus-per-task=3');
    expect(text).toContain('#SBATCH --account=abc');
    expect(text).toContain(`#SBATCH --output=${join(dir, 'logs', '%A_%a.out')}`);
    expect(text).toContain(
      `exec bnclab run ${SMALL} --shard "$I/$N" --db "$SHARD" --workers 3 --job-timeout 600 --no-report`,
    );
    const file = join(dir, 'submit.sbatch');
    writeFileSync(file, text);
    expect(spawnSync('bash', ['-n', file]).status).toBe(0);
    // Run as task 7 with a stand-in for bnclab: the shard file name is the one status and merge expect.
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'bnclab'), '#!/bin/sh\necho "$@"\n', { mode: 0o755 });
    const r = spawnSync('bash', [file], {
      encoding: 'utf8',
      env: { ...process.env, SLURM_ARRAY_TASK_ID: '7', PATH: `${join(dir, 'bin')}:${process.env['PATH']}` },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`--shard 7/12 --db ${join(dir, 'shards', 'shard-07-of-12.duckdb')}`);
  });

  it('says what is wrong in one line: no sbatch, unknown scheduler, bad --time', () => {
    const cwd = tempDir();
    const r = spawnSync(
      process.execPath,
      [CLI, 'submit', SMALL, '--scheduler', 'slurm', '--shards', '2', '--dir', join(cwd, 'c')],
      {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, PATH: '/nonexistent' },
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^bnclab: sbatch: not found; run this on a SLURM login node/);
    expect(r.stdout).toMatch(/\$ sbatch --parsable \S+submit\.sbatch/);
    expect(cli(['submit', SMALL, '--scheduler', 'pbs', '--shards', '2'], { cwd }).stderr).toContain(
      "unknown scheduler 'pbs'",
    );
    expect(cli(['submit', SMALL, '--scheduler', 'slurm', '--shards', '2', '--time', '5h'], { cwd }).stderr).toContain(
      '--time: expected [D-]HH:MM:SS',
    );
    expect(cli(['submit', SMALL, '--scheduler', 'slurm'], { cwd }).stderr).toContain('--shards N is required');
  });
});

describe('SLURM time limits', () => {
  it('reads every sbatch --time form', async () => {
    const { slurmTimeSeconds } = await import('../../src/cluster/submit.js');
    expect(slurmTimeSeconds('90')).toBe(5400);
    expect(slurmTimeSeconds('90:30')).toBe(5430);
    expect(slurmTimeSeconds('01:30:00')).toBe(5400);
    expect(slurmTimeSeconds('2-0')).toBe(172800);
    expect(slurmTimeSeconds('1-02:03')).toBe(86400 + 7200 + 180);
    expect(slurmTimeSeconds('1-02:03:04')).toBe(86400 + 7200 + 184);
    expect(() => slurmTimeSeconds('5h')).toThrow(/--time: expected/);
  });
});
