/**
 * The `external` baseline's containment and its checks of what a program writes: every program runs in a
 * process group of its own, ended (children included) on its timeout, on --job-timeout and on an interrupt
 * of bnclab; a program that stays up for many folds (`server: true`) dies with its job when it crashes or
 * hangs, and the next job starts a new one; output of any size is read in pieces, stderr of any size is
 * drained; probabilities are finite decimals ≥ 0, normalised without under- or overflow.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';
import { parsePredictions } from '../../src/baselines/external.js';

const SLOW = 600_000;
const NODE = JSON.stringify(process.execPath);

function setup(name: string, baselines: string, datasets = '[iris]'): { dir: string; file: string; db: string } {
  const dir = tempDir();
  copyFileSync(join(ROOT, 'test/fixtures/external/nb.mjs'), join(dir, 'nb.mjs'));
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
datasets: ${datasets}
preprocessing: { discretize: median, missing: as-value }
resampling: { folds: 3 }
methods:
  - { name: NB, structure: nb, estimator: { id: dirichlet, params: { alpha: 1 } } }
baselines:
${baselines}`,
  );
  return { dir, file, db: join(dir, 'r.duckdb') };
}

/** True while any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded by the test's own timeout) until no process of the groups is left; their count then. */
async function aliveAfterWait(pgids: number[]): Promise<number> {
  for (let i = 0; i < 200 && pgids.some(groupAlive); i++) await new Promise((r) => setTimeout(r, 100));
  return pgids.filter(groupAlive).length;
}

/** Group ids the programs wrote (one line each) into `file`. */
function pgidsIn(file: string): number[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map(Number)
    : [];
}

async function errors(db: string): Promise<Record<string, string>> {
  const rows = await query(
    db,
    `SELECT e.method, j.dataset, j.fold, j.error FROM jobs j JOIN experiment_jobs e USING (job_key)
     WHERE j.error IS NOT NULL ORDER BY e.method, j.dataset, j.fold`,
  );
  const out: Record<string, string> = {};
  for (const r of rows) out[`${r['method']}/${r['dataset']}/${r['fold']}`] = String(r['error']);
  return out;
}

// A shell program that records its group (its pid: it leads the group bnclab made for it), starts nine
// children that would sleep ten minutes, and waits for them: the case of 9 orphaned `sleep 600`.
const SLEEPER = `echo $$ >> groups.txt; for i in 1 2 3 4 5 6 7 8 9; do sleep 600 & done; wait`;

describe('external: process groups', () => {
  it(
    'ends the whole group (children included) when the timeout ends the program',
    async () => {
      const { dir, file, db } = setup(
        'grp',
        `  - { id: external, name: sleeper, params: { timeout: 1, kill_after: 1, command: [sh, -c, ${JSON.stringify(SLEEPER)}] } }\n`,
      );
      const r = cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      expect(r.code).toBe(1);
      const groups = pgidsIn(join(dir, 'groups.txt'));
      expect(groups).toHaveLength(3);
      expect(await aliveAfterWait(groups)).toBe(0);
      const e = await errors(db);
      expect(Object.values(e)).toEqual(Array(3).fill(`external 'sh -c ${SLEEPER}': timed out after 1 s (timeout)`));
    },
    SLOW,
  );

  it(
    'ends the group on --job-timeout',
    async () => {
      const { dir, file, db } = setup(
        'jt',
        `  - { id: external, name: sleeper, params: { command: [sh, -c, ${JSON.stringify(SLEEPER)}] } }\n`,
      );
      const r = cli(['run', file, '--db', db, '--no-report', '--workers', '1', '--job-timeout', '4'], { cwd: dir });
      expect(r.code).toBe(1);
      // The job's time runs from when the pool sends it, so on a loaded machine a job can time out before its
      // worker and helper thread have started the program: each program that started wrote its group.
      const groups = pgidsIn(join(dir, 'groups.txt'));
      expect(groups.length).toBeGreaterThanOrEqual(1);
      expect(groups.length).toBeLessThanOrEqual(3);
      expect(await aliveAfterWait(groups)).toBe(0);
      const e = await errors(db);
      expect(Object.keys(e).filter((k) => k.startsWith('sleeper/'))).toHaveLength(3);
      expect(Object.values(e).every((m) => /timed out after 4 s \(--job-timeout\)/.test(m))).toBe(true);
    },
    SLOW,
  );

  for (const [signal, how] of [
    ['SIGINT', 'one-shot'],
    ['SIGTERM', 'one-shot'],
    ['SIGINT', 'server'],
  ] as const) {
    it(
      `ends the groups on ${signal} of bnclab (${how}); the interrupted jobs stay pending`,
      async () => {
        const params =
          how === 'server'
            ? `{ server: true, command: [sh, -c, 'echo $$ >> groups.txt; sleep 600 & wait'] }`
            : `{ command: [sh, -c, ${JSON.stringify(SLEEPER)}] }`;
        const { dir, file, db } = setup('int', `  - { id: external, name: sleeper, params: ${params} }\n`);
        const child = cliSpawn(['run', file, '--db', db, '--no-report', '--workers', '2'], { cwd: dir });
        const done = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
        // Two workers: two programs running at once.
        for (let i = 0; i < 600 && pgidsIn(join(dir, 'groups.txt')).length < 2; i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(pgidsIn(join(dir, 'groups.txt')).length).toBe(2);
        child.kill(signal);
        expect(await done).toBe(130);
        // Every program that ran, also one that started while bnclab was stopping, is gone.
        const groups = pgidsIn(join(dir, 'groups.txt'));
        expect(groups.length).toBeGreaterThanOrEqual(2);
        expect(await aliveAfterWait(groups)).toBe(0);
        // No job of the program was stored as failed: they run next time.
        expect(await errors(db)).toEqual({});
      },
      SLOW,
    );
  }

  // A program runs before the thread that started it has listed its group; an interrupt in between must
  // still end it. BNCLAB_TEST_HOLD_START_MS holds the thread there for 3 s, so the interrupt (sent once the
  // program has written its group) always comes in between: the pool's and the exit's lists would miss it,
  // and the helper thread, terminated while it holds, would never list it.
  for (const [signal, how] of [
    ['SIGTERM', 'one-shot'],
    ['SIGINT', 'server'],
  ] as const) {
    it(
      `ends a group started but not yet listed when bnclab gets ${signal} (${how})`,
      async () => {
        const program = JSON.stringify('echo $$ >> groups.txt; sleep 600 & wait');
        const params = `{ ${how === 'server' ? 'server: true, ' : ''}command: [sh, -c, ${program}] }`;
        const { dir, file, db } = setup('hold', `  - { id: external, name: sleeper, params: ${params} }\n`);
        const child = cliSpawn(['run', file, '--db', db, '--no-report', '--workers', '1'], {
          cwd: dir,
          env: { BNCLAB_TEST_HOLD_START_MS: '3000' },
        });
        const done = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
        for (let i = 0; i < 600 && pgidsIn(join(dir, 'groups.txt')).length < 1; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(pgidsIn(join(dir, 'groups.txt')).length).toBe(1);
        child.kill(signal);
        expect(await done).toBe(130);
        const groups = pgidsIn(join(dir, 'groups.txt'));
        expect(groups).toHaveLength(1);
        expect(await aliveAfterWait(groups)).toBe(0);
        expect(await errors(db)).toEqual({});
      },
      SLOW,
    );
  }
});

describe('external: server: true (one process for many folds)', () => {
  it(
    'gives the one-shot numbers with one process per worker (files or, with send: stdin, their bytes on stdin); a crash or a hang fails that job only and the next starts a new process',
    async () => {
      const entry = (name: string, mode: string, extra = '') =>
        `  - { id: external, name: ${name}, params: { server: true${extra}, command: [${NODE}, nb.mjs, --server, ${mode}] } }\n`;
      const { dir, file, db } = setup(
        'srv',
        entry('pids', 'pids') +
          `  - { id: external, name: once, params: { command: [${NODE}, nb.mjs] } }\n` +
          entry('crash', 'crash2') +
          entry('hang', 'hang2', ', timeout: 2, kill_after: 1') +
          entry('error', 'error') +
          entry('junk', 'junk') +
          entry('stdin', 'ok', ', send: stdin') +
          `  - { id: external, name: nosrv, params: { send: stdin, command: [${NODE}, nb.mjs, ok] } }\n`,
        '[iris, breast-cancer]',
      );
      const r = cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      expect(r.code).toBe(1);
      // pids: 6 folds, one process (one worker).
      const pids = readFileSync(join(dir, 'pids.txt'), 'utf8').trim().split('\n');
      expect(pids).toHaveLength(6);
      expect(new Set(pids).size).toBe(1);
      const acc = await query(
        db,
        `SELECT e.method, j.dataset, j.fold, m.log_loss FROM jobs j JOIN experiment_jobs e USING (job_key)
         JOIN job_metrics m USING (job_key) WHERE e.method IN ('NB', 'pids', 'once', 'crash', 'hang', 'stdin') AND j.status = 'done'
         ORDER BY j.dataset, j.fold, e.method`,
      );
      const byFold = new Map<string, Map<string, number>>();
      for (const a of acc) {
        const k = `${a['dataset']}/${a['fold']}`;
        if (!byFold.has(k)) byFold.set(k, new Map());
        byFold.get(k)!.set(String(a['method']), Number(a['log_loss']));
      }
      expect(byFold.size).toBe(6);
      for (const m of byFold.values()) {
        expect(m.get('pids')).toBe(m.get('once'));
        expect(m.get('stdin')).toBe(m.get('once')); // the files' bytes on stdin: the same numbers
        expect(m.get('pids')).toBeCloseTo(m.get('NB')!, 10);
      }
      const e = await errors(db);
      // crash2 and hang2 fail the second fold each process gets: a new process answers the next fold, and
      // fails its own second one, so of 6 folds 3 are done and 3 failed.
      const crash = Object.entries(e).filter(([k]) => k.startsWith('crash/'));
      expect(crash.map(([k]) => k)).toEqual(['crash/breast-cancer/0', 'crash/breast-cancer/2', 'crash/iris/1']);
      for (const [, m] of crash)
        expect(m).toMatch(
          /^external '.*nb\.mjs --server crash2': exited with status 139 in the middle of a fold: segmentation fault \(on purpose\)$/,
        );
      const hang = Object.entries(e).filter(([k]) => k.startsWith('hang/'));
      expect(hang.map(([k]) => k)).toEqual(['hang/breast-cancer/0', 'hang/breast-cancer/2', 'hang/iris/1']);
      for (const [, m] of hang) expect(m).toMatch(/: timed out after 2 s \(timeout\)$/);
      expect([...byFold.values()].filter((m) => m.has('crash')).length).toBe(3);
      expect([...byFold.values()].filter((m) => m.has('hang')).length).toBe(3);
      expect(Object.entries(e).filter(([k]) => k.startsWith('error/'))).toHaveLength(6);
      expect(e['error/iris/0']).toMatch(/: answered error: cannot fit fold 1: no such feature$/);
      expect(Object.keys(e).filter((k) => k.startsWith('nosrv/'))).toHaveLength(6);
      expect(e['nosrv/iris/0']).toMatch(
        /^external '.*nb\.mjs ok': send: stdin needs server: true \(a program run once per fold gets files\)$/,
      );
      expect(e['junk/iris/0']).toMatch(
        /: answered 'Loading model\.\.\.' on stdout where 'ok' or 'error <message>' was expected; its process was ended$/,
      );
    },
    SLOW,
  );
});

describe('external: what a program writes', () => {
  it(
    'reads output of any size in pieces (too many rows stop at the first extra) and drains stderr of any size',
    async () => {
      // 600 MB of probability rows for 50 test rows; 80 MB of stderr before exiting 1.
      const big = `printf 'Iris-setosa,Iris-versicolor,Iris-virginica\\n' > "$3"; yes 0.2,0.3,0.5 | head -c 600000000 >> "$3"`;
      const noisy = `head -c 80000000 /dev/zero | tr '\\0' x >&2; echo >&2; echo the real cause >&2; exit 1`;
      const { dir, file, db } = setup(
        'big',
        `  - { id: external, name: big, params: { command: [sh, -c, ${JSON.stringify(big)}, sh] } }\n` +
          `  - { id: external, name: noisy, params: { command: [sh, -c, ${JSON.stringify(noisy)}, sh] } }\n`,
      );
      cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      const e = await errors(db);
      expect(e['big/iris/0']).toMatch(/: wrote more than 50 probability rows for 50 test rows$/);
      expect(e['noisy/iris/0']).toMatch(/: exited with status 1: the real cause$/);
    },
    SLOW,
  );

  it('takes only finite decimal numbers ≥ 0 and normalises a row without under- or overflow', () => {
    const C = ['a', 'b', 'c'];
    expect(Array.from(parsePredictions('a,b,c\n1e308,1e308,1e308\n', C, 1, 'x'))).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(Array.from(parsePredictions('a,b,c\n1e-320,3e-320,0\n', C, 1, 'x'))).toEqual([0.25, 0.75, 0]);
    expect(Array.from(parsePredictions('a,b,c\n1.5E+2,50.,.0\n', C, 1, 'x'))).toEqual([0.75, 0.25, 0]);
    for (const bad of ['0x1', 'Infinity', '1e400', 'NaN', '-0.5', '1_0', '0b1', ' ', '1e', '+1'])
      expect(() => parsePredictions(`a,b,c\n${bad},1,1\n`, C, 1, 'x')).toThrow(
        /^x: output line 2: '.*' is not a probability \(a finite decimal number ≥ 0\)$/,
      );
    expect(() => parsePredictions('a,b,c\n0.5,0.5,0\n0,0,0\n', C, 2, 'x')).toThrow(
      /^x: output line 3 \(test row 2\): every probability is 0$/,
    );
    expect(() => parsePredictions(`a,b,c\n${'1'.repeat(1024 * 1024 + 1)},0,0\n`, C, 1, 'x')).toThrow(
      /^x: output line 2 is longer than 1048576 characters \(the limit\)$/,
    );
  });
});

describe('plan: the programs a spec runs', () => {
  it('lists every external command with its method', () => {
    const { dir, file } = setup(
      'plan',
      `  - { id: external, name: W, params: { command: [java, -cp, /x y/weka.jar, ../learners/WekaPredict.java, weka.classifiers.bayes.NaiveBayes] } }\n`,
    );
    const r = cli(['plan', file], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`programs this spec runs on every 'run' and 'check', in ${dir} (1):\n`);
    expect(r.stdout).toContain(
      "  W: java -cp '/x y/weka.jar' ../learners/WekaPredict.java weka.classifiers.bayes.NaiveBayes\n",
    );
  });
});
