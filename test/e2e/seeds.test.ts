/**
 * Multi-seed experiments (`seeds:` and `--seeds N`): seeds are one more axis of the grid, each seed's jobs keep
 * exactly the keys a single-seed spec of that seed gives (so no stored result changes key), each seed has its
 * own folds and results, and the report says for every claim in how many seeds its verdict was reproduced:
 * the count checked against the single-seed reports of each seed.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';
import { runExperiment } from '../../src/runner/run.js';
import { writeExperimentReport } from '../../src/report/index.js';
import { loadSpecFile, parseSpec, withSeedCount } from '../../src/spec/load.js';
import { buildPlanSummary } from '../../src/spec/plan.js';

const BODY = `datasets: [zoo]
resampling: { method: cv, folds: 3 }
structures: [nb, tan]
estimators: [dirichlet]
compare: { metrics: [accuracy] }
reference: [claims.csv, wdl.csv]
`;
const CLAIMS = `id,kind,metric,method_a,relation,method_b,dataset,value
C1,dataset,accuracy,tan/dirichlet,>,nb/dirichlet,zoo,
C2,dataset,accuracy,nb/dirichlet,>,tan/dirichlet,zoo,
C3,dataset-best,accuracy,nb/dirichlet,max,,zoo,
`;

// A published win/draw/loss row (the shape of the HDP paper's tables): its stability across seeds too.
const WDL = `metric,method_a,method_b,wins,draws,losses,significant
accuracy,tan/dirichlet,nb/dirichlet,1,0,0,false
`;

const BARE = BODY.replace('reference: [claims.csv, wdl.csv]\n', '');

function write(dir: string, file: string, text: string): string {
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

describe('spec: seeds', () => {
  it('seeds: and seed: exclude each other; a seed listed twice, --seeds on a non-integer seed are refused', () => {
    expect(() => parseSpec(`name: x\nseed: 1\nseeds: [1, 2]\n${BARE}`, 's.yaml')).toThrow(
      /^s\.yaml:3:1: seeds: give either seed: or seeds:, not both/,
    );
    expect(() => parseSpec(`name: x\nseeds: [1, '1']\n${BARE}`, 's.yaml')).toThrow(
      /^s\.yaml:2:8: seeds: lists a seed twice/,
    );
    const one = parseSpec(`name: x\nseeds: [5]\n${BARE}`, 's.yaml');
    expect([one.seed, one.seeds]).toEqual(['5', undefined]);
    const three = parseSpec(`name: x\nseeds: [5, 2, abc]\n${BARE}`, 's.yaml');
    expect([three.seed, three.seeds]).toEqual(['5', ['5', '2', 'abc']]);
    expect(withSeedCount(parseSpec(`name: x\nseed: 7\n${BARE}`, 's.yaml'), 3).seeds).toEqual(['7', '8', '9']);
    expect(withSeedCount(parseSpec(`name: x\n${BARE}`, 's.yaml'), 1).seeds).toBeUndefined();
    expect(() => withSeedCount(parseSpec(`name: x\nseed: abc\n${BARE}`, 's.yaml'), 2)).toThrow(
      /^--seeds: the spec's seed 'abc' is not an integer/,
    );
    expect(() => withSeedCount(three, 2)).toThrow(/^--seeds: the spec s\.yaml lists seeds: already/);
  });

  it('a folds file gives every seed the same folds, and still each seed its own keys and learner seeds', () => {
    const cwd = tempDir();
    // zoo has 101 rows: test folds 0, 1, 2 in turn.
    write(cwd, 'zoo.csv', `${Array.from({ length: 101 }, (_, i) => String(i % 3)).join('\n')}\n`);
    const file = write(
      cwd,
      'f.yaml',
      `name: x\nseeds: [1, 2]\n${BARE.replace('{ method: cv, folds: 3 }', '{ method: cv, folds: { file: "{dataset}.csv" } }')}`,
    );
    const plan = buildPlanSummary(loadSpecFile(file).spec);
    expect(plan.jobs).toHaveLength(2 * 3 * 2);
    const [a, b] = plan.seeds!.map((s) => s.datasets[0].splitKey);
    expect(a).toBe(b);
    const keys = ['1', '2'].map((s) => plan.jobs.filter((j) => j.specSeed === s));
    keys[0].forEach((j, i) => {
      expect(j.key).not.toBe(keys[1][i].key);
      expect(j.seed).not.toBe(keys[1][i].seed);
    });
  });

  it('a multi-seed run: seeds × jobs, single-seed keys, per-seed folds and results, claim stability', {
    timeout: 180_000,
  }, async () => {
    const cwd = tempDir();
    write(cwd, 'claims.csv', CLAIMS);
    write(cwd, 'wdl.csv', WDL);
    const multi = write(cwd, 'multi.yaml', `name: seeds\nseeds: [3, 4]\n${BODY}`);
    const single = [3, 4].map((s) => write(cwd, `s${s}.yaml`, `name: seeds\nseed: ${s}\n${BODY}`));

    const plan = buildPlanSummary(loadSpecFile(multi).spec);
    const plans = single.map((f) => buildPlanSummary(loadSpecFile(f).spec));
    expect(plans[0].jobs).toHaveLength(6);
    expect(plan.jobs).toHaveLength(2 * 6);
    // Each seed's jobs are the single-seed spec's, key for key (and learner seed for learner seed).
    for (const [i, seed] of ['3', '4'].entries()) {
      const mine = plan.jobs.filter((j) => j.specSeed === seed);
      expect(mine.map((j) => [j.key, j.seed])).toEqual(plans[i].jobs.map((j) => [j.key, j.seed]));
    }
    expect(new Set(plan.jobs.map((j) => j.key)).size).toBe(12);
    // Random folds: each seed its own split.
    expect(plan.seeds!.map((s) => s.datasets[0].splitKey)).toEqual(plans.map((p) => p.datasets[0].splitKey));
    expect(plans[0].datasets[0].splitKey).not.toBe(plans[1].datasets[0].splitKey);
    // `--seeds 2` on seed: 3 is seeds: [3, 4].
    expect(buildPlanSummary(withSeedCount(loadSpecFile(single[0]).spec, 2)).jobs.map((j) => j.key)).toEqual(
      plan.jobs.map((j) => j.key),
    );

    const db = join(cwd, 'r.duckdb');
    const run = await runExperiment(multi, { db, workers: 1, quiet: true });
    expect([run.succeeded, run.failed]).toEqual([12, 0]);
    // A single-seed spec of either seed finds every one of its jobs done: no key changed.
    for (const f of single) {
      const again = await runExperiment(f, { db, workers: 1, quiet: true });
      expect([again.ran, again.alreadyDone]).toEqual([0, 6]);
    }
    // plan --jobs, status and debug name each job's seed.
    const listed = cli(['plan', multi, '--jobs']);
    expect(listed.code, listed.stderr).toBe(0);
    const jobLines = listed.stdout.split('\n').filter((l) => /^ {2}[0-9a-f]{16,} /.test(l));
    expect(jobLines).toHaveLength(12);
    expect(jobLines.filter((l) => l.endsWith(' seed 3'))).toHaveLength(6);
    expect(jobLines.filter((l) => l.endsWith(' seed 4'))).toHaveLength(6);
    const status = cli(['status', multi, '--db', db]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^seed +dataset +method +done +failed +pending$/m);
    expect(status.stdout).toMatch(/^3 +zoo +nb\/dirichlet +3 +0 +0$/m);
    expect(status.stdout).toMatch(/^4 +zoo +tan\/dirichlet +3 +0 +0$/m);
    expect(status.stdout).toContain('seeds: 12 jobs (2 seeds): 12 done, 0 failed, 0 pending');
    const both = cli(['debug', multi, '--job', 'dataset=zoo,method=nb/dirichlet,fold=0']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /--job: 2 jobs match, debug runs one; narrow it \(e\.g\. add fold= or method= or seed=\):.* seed 3\).* seed 4\)/,
    );
    const one = cli(['debug', multi, '--job', 'dataset=zoo,method=nb/dirichlet,fold=0,seed=4']);
    expect(one.code, one.stderr).toBe(0);
    const seed4 = plan.jobs.find((j) => j.specSeed === '4' && j.method.label === 'nb/dirichlet' && j.fold === 0)!;
    expect(one.stdout.split('\n')[0]).toBe(`job ${seed4.key}: zoo  nb/dirichlet  repeat 0 fold 0 seed 4 (not stored)`);
    const noSeed = cli(['debug', multi, '--job', 'dataset=zoo,seed=5']);
    expect(noSeed.stderr.trim()).toBe("bnclab: --job: the spec has no seed '5'; seeds: 3, 4");
    expect(noSeed.code).toBe(2);

    // The seeds' results differ (other folds): the per-fold accuracies of the same method and fold.
    const rows = await query(
      db,
      `SELECT job_key, accuracy, n_test FROM results WHERE experiment = 'seeds' ORDER BY job_key`,
    );
    const acc = new Map(rows.map((r) => [String(r['job_key']), Number(r['accuracy'])]));
    const bySeed = ['3', '4'].map((s) => plan.jobs.filter((j) => j.specSeed === s).map((j) => acc.get(j.key)));
    expect(bySeed[0]).toHaveLength(6);
    expect(bySeed[0]).not.toEqual(bySeed[1]);

    // The report: the first seed's tables, and each claim's stability over the two seeds.
    const md = readFileSync((await writeExperimentReport(multi, { db, out: join(cwd, 'multi') })).markdown, 'utf8');
    expect(md).toContain('- seed: 3, 4 (the tables are seed 3');
    expect(md).toContain('jobs: 6 done, 0 failed (of 6)');
    // Each seed's verdicts, from the single-seed reports.
    const wdlLine = (text: string): string =>
      text.split('\n').find((l) => l.includes('| tan/dirichlet vs nb/dirichlet |'))!;
    const verdictsOf = (text: string): string[] =>
      ['C1', 'C2', 'C3', 'W'].map((id) => {
        const line = id === 'W' ? wdlLine(text) : text.split('\n').find((l) => l.startsWith(`| ${id} `))!;
        if (line.includes('| reproduced |')) return 'reproduced';
        return /\| (direction reproduced, not significant|tie within noise) \|/.test(line) ? 'noise' : 'other';
      });
    const perSeed = await Promise.all(
      single.map(async (f, i) =>
        verdictsOf(readFileSync((await writeExperimentReport(f, { db, out: join(cwd, `s${i}`) })).markdown, 'utf8')),
      ),
    );
    const multiLines = md.split('\n');
    for (const [c, id] of ['C1', 'C2', 'C3', 'W'].entries()) {
      const k = perSeed.filter((v) => v[c] === 'reproduced').length;
      const m = perSeed.filter((v) => v[c] === 'noise').length;
      const line = id === 'W' ? wdlLine(md) : multiLines.find((l) => l.startsWith(`| ${id} `))!;
      expect(line).toMatch(
        new RegExp(
          `reproduced in ${k} of 2 seeds${m ? `, held within noise in ${m}` : ''} \\(margins: seed 3 [−+]?\\d\\.\\d{4}, seed 4 [−+]?\\d\\.\\d{4}\\)`,
        ),
      );
    }
    // C1 and C2 are opposite claims: no seed reproduces both.
    expect(perSeed.every((v) => !(v[0] === 'reproduced' && v[1] === 'reproduced'))).toBe(true);
  });
});
