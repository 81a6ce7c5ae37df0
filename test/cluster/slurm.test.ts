/**
 * The real SLURM end-to-end test: `bnclab submit --scheduler slurm --shards 4 --wait` against a running
 * cluster (scripts/slurm-local.sh start gives a one-node one), one task cancelled mid-run with scancel,
 * resubmitted by submit, merged; the merged tables must equal a local run bit for bit, with every job run
 * to completion exactly once. Skipped, with the reason, where no SLURM cluster answers.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';
import { SAME_TABLES, differences } from '../helpers/db-compare.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'specs', 'slurm-e2e.yaml');
const JOBS = 240;

/**
 * The fixture plus one baseline whose jobs wait 400 ms each (test/fixtures/external/nb.mjs, mode slow): a
 * shard then runs for seconds after its first progress line on any machine, so the task cancelled there
 * is still running when scancel reaches it. (With learners alone a shard could end first on an idle
 * machine; the cancelled task was then complete and, rightly, not resubmitted.)
 */
function writeSpec(dir: string): string {
  copyFileSync(join(ROOT, 'test', 'fixtures', 'external', 'nb.mjs'), join(dir, 'nb.mjs'));
  const spec = join(dir, 'slurm-e2e.yaml');
  writeFileSync(
    spec,
    `${readFileSync(FIXTURE, 'utf8')}baselines:\n  - { id: external, name: slow-nb, params: { command: [${JSON.stringify(process.execPath)}, nb.mjs, slow] } }\n`,
  );
  return spec;
}

function slurmAvailable(): { ok: boolean; reason: string } {
  const which = spawnSync('sh', ['-c', 'command -v sbatch && command -v squeue && command -v scancel'], {
    encoding: 'utf8',
  });
  if (which.status !== 0)
    return {
      ok: false,
      reason: 'sbatch/squeue/scancel not installed (scripts/slurm-local.sh start sets up a local cluster)',
    };
  const info = spawnSync('sinfo', ['-h', '-o', '%t'], { encoding: 'utf8', timeout: 10_000 });
  if (info.status !== 0 || !/idle|mix|alloc/.test(info.stdout))
    return { ok: false, reason: 'no SLURM cluster answers (run scripts/slurm-local.sh start)' };
  return { ok: true, reason: '' };
}

const slurm = slurmAvailable();
if (!slurm.ok) console.log(`SLURM end-to-end test skipped: ${slurm.reason}`);

describe('SLURM job array end to end', () => {
  it.skipIf(!slurm.ok)(
    `4 shards, one cancelled and resubmitted, merged = local run bit for bit${slurm.ok ? '' : ` (skipped: ${slurm.reason})`}`,
    async () => {
      const cwd = tempDir('bnclab-slurm-');
      const SPEC = writeSpec(cwd);
      const local = join(cwd, 'local.duckdb');
      expect(cli(['run', SPEC, '--db', local, '--workers', '2', '--no-report', '--quiet'], { cwd }).code).toBe(0);

      const dir = join(cwd, 'cluster');
      const merged = join(cwd, 'merged.duckdb');
      const child = cliSpawn(
        [
          'submit',
          SPEC,
          '--scheduler',
          'slurm',
          '--shards',
          '4',
          '--cpus-per-task',
          '1',
          '--wait',
          '--poll',
          '1',
          '--dir',
          dir,
          '--db',
          merged,
        ],
        { cwd },
      );
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
      // Cancel the first task whose log shows it is running jobs.
      let cancelled: number | undefined;
      const logs = join(dir, 'logs');
      const started = Date.now();
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        const timer = setInterval(() => {
          const id = /submitted job array (\d+)/.exec(out)?.[1];
          if (id && existsSync(logs)) {
            for (const f of readdirSync(logs)) {
              const m = new RegExp(`^${id}_(\\d+)\\.out$`).exec(f);
              if (!m) continue;
              const text = readFileSync(join(logs, f), 'utf8');
              if (/progress: [1-9]/.test(text) && !/jobs done/.test(text)) {
                cancelled = Number(m[1]);
                const r = spawnSync('scancel', [`${id}_${cancelled}`], { encoding: 'utf8' });
                clearInterval(timer);
                if (r.status !== 0) reject(new Error(`scancel failed: ${r.stderr}`));
                else resolve();
                return;
              }
            }
          }
          if (child.exitCode !== null || Date.now() - started > 100_000) {
            clearInterval(timer);
            reject(new Error(`no task to cancel was seen running; submit said:\n${out}\n${err}`));
          }
        }, 100);
      });
      const code = await exited;
      // BNCLAB_SLURM_TRANSCRIPT=FILE keeps what submit printed (the scheduler commands), for the record.
      if (process.env['BNCLAB_SLURM_TRANSCRIPT'])
        writeFileSync(process.env['BNCLAB_SLURM_TRANSCRIPT'], `cancelled task ${cancelled}\n${out}${err}`);
      expect(err).toBe('');
      expect(code).toBe(0);
      // Every scheduler command is printed; the cancelled task was found incomplete and resubmitted once.
      expect(out).toMatch(/\$ sbatch --parsable \S+submit\.sbatch/);
      expect(out).toMatch(/\$ squeue -h -j \d+/);
      expect(out).toContain(`shards not complete: ${cancelled}; resubmitting them once`);
      expect(out).toContain(`$ sbatch --parsable --array=${cancelled} `);
      expect(out).toContain('merged: ');
      expect(out).toContain('report:');
      expect(existsSync(join(dir, 'submit.sbatch'))).toBe(true);
      // The resubmitted task resumed its shard: the jobs stored before the cancel were not run again.
      const second = /submitted job array (\d+)[\s\S]*submitted job array (\d+)/.exec(out)![2];
      const resumed = readFileSync(join(logs, `${second}_${cancelled}.out`), 'utf8');
      expect(Number(/(\d+) already done/.exec(resumed)![1])).toBeGreaterThan(0);

      expect(await differences(local, merged, SAME_TABLES)).toEqual(
        Object.fromEntries(Object.keys(SAME_TABLES).map((t) => [t, 0])),
      );
      // No job ran twice to completion: each was recorded exactly once (attempts = 1), in the shards too.
      const store = await ResultStore.open(merged, { readOnly: true });
      try {
        const a = await store.query(`SELECT attempts, count(*)::INTEGER AS n FROM jobs GROUP BY attempts`);
        expect(a).toEqual([{ attempts: 1, n: JOBS }]);
      } finally {
        store.close();
      }
    },
    300_000,
  );
});
