import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from '../helpers/cli.js';
import {
  baselineEntries,
  checkResults,
  compactJson,
  readBaseline,
  renderJunit,
  renderMarkdown,
  renderText,
  type BaselineFile,
  type CheckOptions,
} from '../../src/check/index.js';
import type { ResultRow } from '../../src/store/db.js';
import { findAll, parseXml, textOf } from '../report/xml.js';

const FIX = join(ROOT, 'test', 'check', 'fixtures');

/** The CLI without the GitHub step-summary variable of the machine running the tests. */
function run(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  delete env['GITHUB_STEP_SUMMARY'];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function rows(dataset: string, method: string, acc: number[], rmse: number[]): ResultRow[] {
  return acc.map(
    (a, f) =>
      ({
        experiment: 'x',
        job_key: `${dataset}/${method}/${f}`,
        dataset,
        method,
        structure: 'nb',
        estimator: 'dirichlet',
        repeat: 0,
        fold: f,
        accuracy: a,
        zero_one_loss: 1 - a,
        rmse: rmse[f],
        log_loss: rmse[f],
        n_train: 90,
        n_test: 10,
        n_arcs: 4,
        train_ms: 1,
        predict_ms: 1,
      }) as ResultRow,
  );
}

function baselineOf(r: ResultRow[]): BaselineFile {
  return {
    format: 'bnclab-baseline',
    version: 1,
    experiment: 'x',
    spec: 'x.yaml',
    spec_hash: 'h',
    code: { bnclab: '0', results_version: 1, commit: null },
    datasets: {},
    results: baselineEntries(r),
  };
}

const O: CheckOptions = { tolerance: 0, alpha: 0.05, metrics: ['accuracy', 'rmse'], anyChange: false };
const ACC = [0.9, 0.8, 0.85, 0.95, 0.7, 0.75, 0.9, 0.8, 0.88, 0.92];
const RMSE = [0.2, 0.3, 0.25, 0.15, 0.4, 0.35, 0.2, 0.3, 0.22, 0.18];

describe('checkResults (the gate rule)', () => {
  const base = baselineOf([...rows('iris', 'nb', ACC, RMSE), ...rows('zoo', 'nb', ACC, RMSE)]);

  it('unchanged results pass, with p undefined (all fold differences zero)', () => {
    const r = checkResults(base, [...rows('iris', 'nb', ACC, RMSE), ...rows('zoo', 'nb', ACC, RMSE)], O);
    expect(r.passed).toBe(true);
    expect(r.entries.map((e) => e.status)).toEqual(['pass', 'pass']);
    expect(r.entries[0].metrics.map((m) => [m.status, m.p])).toEqual([
      ['same', null],
      ['same', null],
    ]);
  });

  it('a mean worse by more than the tolerance fails and names dataset, method and metric', () => {
    const worse = ACC.map((a, i) => (i === 0 ? a - 0.1 : a)); // one fold 10 points worse: mean −1 point
    const r = checkResults(base, [...rows('iris', 'nb', worse, RMSE), ...rows('zoo', 'nb', ACC, RMSE)], O);
    expect(r.passed).toBe(false);
    expect(r.failures.map((e) => `${e.dataset}/${e.method}`)).toEqual(['iris/nb']);
    const m = r.failures[0].metrics[0];
    expect(m.change).toBeCloseTo(-1, 12);
    expect(m.status).toBe('worse');
    expect(r.failures[0].reasons[0]).toContain('Accuracy 0.8450 → 0.8350 (−1.00 points, worse than the tolerance 0');
    // One fold worse, nine equal: the one-sided Wilcoxon (zeros dropped, n = 1, normal with cc) is not
    // significant, so a tolerance of 1 point lets it pass.
    expect(m.p!).toBeGreaterThan(0.05);
    expect(
      checkResults(base, [...rows('iris', 'nb', worse, RMSE), ...rows('zoo', 'nb', ACC, RMSE)], { ...O, tolerance: 1 })
        .passed,
    ).toBe(true);
  });

  it('a small but consistent worsening over all 10 folds fails as significant even within the tolerance', () => {
    // Every fold worse, distinct differences: the exact one-sided signed-rank p is 1/2^10 = 0.0009765625.
    const worse = RMSE.map((v, i) => v + 0.001 * (i + 1));
    const r = checkResults(base, [...rows('iris', 'nb', ACC, worse), ...rows('zoo', 'nb', ACC, RMSE)], {
      ...O,
      tolerance: 1,
    });
    const m = r.entries[0].metrics[1];
    expect(m.change).toBeCloseTo(-0.55, 12);
    expect(m.p).toBeCloseTo(1 / 1024, 15);
    expect(m.status).toBe('significantly worse');
    expect(r.passed).toBe(false);
    expect(r.failures[0].reasons[0]).toContain('significantly worse over 10 folds, p = 0.000977 ≤ 0.05');
    // At α = 0.0005 it is not significant, and within the tolerance: pass.
    expect(
      checkResults(base, [...rows('iris', 'nb', ACC, worse), ...rows('zoo', 'nb', ACC, RMSE)], {
        ...O,
        tolerance: 1,
        alpha: 0.0005,
      }).passed,
    ).toBe(true);
  });

  it('floating-point noise below 1e-9 is no change; better passes unless --any-change', () => {
    const noisy = RMSE.map((v) => v + 1e-12);
    expect(checkResults(base, [...rows('iris', 'nb', ACC, noisy), ...rows('zoo', 'nb', ACC, RMSE)], O).passed).toBe(
      true,
    );
    const better = ACC.map((a) => a + 0.01);
    const r = checkResults(base, [...rows('iris', 'nb', better, RMSE), ...rows('zoo', 'nb', ACC, RMSE)], O);
    expect(r.passed).toBe(true);
    expect(r.entries[0].metrics[0].status).toBe('better');
    const strict = checkResults(base, [...rows('iris', 'nb', better, RMSE), ...rows('zoo', 'nb', ACC, RMSE)], {
      ...O,
      anyChange: true,
    });
    expect(strict.passed).toBe(false);
    expect(strict.failures[0].metrics[0].status).toBe('changed');
  });

  it('missing results fail; results not in the baseline are reported but pass; changed folds skip the paired test', () => {
    const r = checkResults(base, [...rows('iris', 'nb', ACC, RMSE), ...rows('iris', 'tan', ACC, RMSE)], O);
    expect(r.entries.map((e) => `${e.dataset}/${e.method}:${e.status}`)).toEqual([
      'iris/nb:pass',
      'zoo/nb:missing',
      'iris/tan:new',
    ]);
    expect(r.passed).toBe(false);
    expect(r.notes.join(' ')).toContain('1 dataset × method result(s) not in the baseline');
    const worse = RMSE.map((v) => v + 0.001);
    const unpaired = checkResults(
      base,
      [...rows('iris', 'nb', ACC, worse), ...rows('zoo', 'nb', ACC, RMSE)],
      { ...O, tolerance: 1 },
      new Map([['iris', false]]),
    );
    expect(unpaired.entries[0].metrics[1].p).toBeNull();
    expect(unpaired.passed).toBe(true);
    expect(unpaired.notes[0]).toContain('the folds of iris differ');
  });

  it('renders a table, Markdown and JUnit XML that name the failing dataset and method', () => {
    const worse = ACC.map((a) => a - 0.05);
    const r = checkResults(base, [...rows('iris', 'nb', worse, RMSE), ...rows('zoo', 'nb', ACC, RMSE)], O);
    const text = renderText(r, 'b.json');
    expect(text).toMatch(/iris\s+nb\s+Accuracy\s+0\.8450\s+0\.7950\s+−5\.00\s+\S+\s+WORSE/);
    expect(text).toContain('FAIL: 1 dataset × method result(s) are worse than the baseline:\n  iris × nb: Accuracy');
    expect(renderMarkdown(r, 'b.json')).toContain('❌ bnclab check failed');
    const junit = parseXml(renderJunit(r, 'b.json'));
    const cases = findAll(junit, 'testcase');
    expect(cases.map((c) => `${c.attrs['classname']}:${c.attrs['name']}`)).toEqual(['x.iris:nb', 'x.zoo:nb']);
    expect(cases[0].children.map((c) => c.name)).toEqual(['failure']);
    expect(cases[0].children[0].attrs['message']).toContain('iris × nb: Accuracy 0.8450 → 0.7950');
    expect(cases[1].children.map((c) => c.name)).toEqual(['system-out']);
    expect(findAll(junit, 'testsuite')[0].attrs['failures']).toBe('1');
  });
});

describe('baseline files', () => {
  it('round-trip through the compact JSON writer and are validated on reading', () => {
    const dir = tempDir();
    const b = baselineOf(rows('a"b[1, 2]', 'nb', ACC, RMSE));
    const file = join(dir, 'b.json');
    writeFileSync(file, compactJson(b, '') + '\n');
    expect(readBaseline(file)).toEqual(JSON.parse(JSON.stringify(b)));
    expect(readFileSync(file, 'utf8')).toContain('"folds": [0.9, 0.8, 0.85, 0.95, 0.7, 0.75, 0.9, 0.8, 0.88, 0.92]');
    writeFileSync(
      file,
      JSON.stringify({
        ...b,
        results: [{ dataset: 'a', method: 'b', folds: [[0, 0]], metrics: { accuracy: { mean: 1, folds: [1, 2] } } }],
      }),
    );
    expect(() => readBaseline(file)).toThrow(/results\[0\]: expected .* one value per fold/);
    writeFileSync(file, '{"format": "other"}');
    expect(() => readBaseline(file)).toThrow(/not a bnclab baseline/);
  });
});

describe('bnclab baseline / bnclab check on a real grid', () => {
  it('unchanged code passes; a deliberately worse estimator setting fails with exit 1 naming dataset and method', () => {
    const cwd = tempDir();
    const base = join(cwd, 'baselines', 'gate.json');
    const b = run(['baseline', join(FIX, 'gate.yaml'), '--out', base, '--workers', '2', '--quiet'], cwd);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toContain('6 dataset × method results');
    const baseline = readBaseline(base);
    expect(baseline.results.map((e) => `${e.dataset}/${e.method}`)).toEqual([
      'breast-cancer/nb-laplace',
      'breast-cancer/tan-laplace',
      'iris/nb-laplace',
      'iris/tan-laplace',
      'zoo/nb-laplace',
      'zoo/tan-laplace',
    ]);
    expect(baseline.results[2].folds).toHaveLength(5);
    expect(baseline.datasets['iris'].split).toMatch(/^[0-9a-f]{24}$/);

    const ok = run(['check', join(FIX, 'gate.yaml'), '--baseline', base, '--workers', '2', '--quiet'], cwd);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('PASS: 6 dataset × method result(s) are no worse than the baseline.');
    const okJunit = parseXml(readFileSync(join(cwd, 'results', 'gate', 'check', 'junit.xml'), 'utf8'));
    expect(findAll(okJunit, 'failure')).toHaveLength(0);
    expect(findAll(okJunit, 'testcase')).toHaveLength(6);

    // nb-laplace with alpha = 50 instead of 1 (same name, same experiment).
    const db = join(cwd, 'regressed.duckdb');
    const bad = run(
      [
        'check',
        join(FIX, 'gate-regressed.yaml'),
        '--baseline',
        base,
        '--db',
        db,
        '--workers',
        '2',
        '--quiet',
        '--out',
        join(cwd, 'chk'),
      ],
      cwd,
    );
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stdout).toContain("note: the spec's grid differs from the one the baseline was recorded with");
    const failSection = bad.stdout.slice(bad.stdout.indexOf('FAIL:'));
    expect(failSection).toMatch(
      /^ {2}zoo × nb-laplace: .*RMSE 0\.\d{4} → 0\.\d{4} \(−\d+\.\d\d points, worse than the tolerance 0/m,
    );
    expect(failSection).not.toContain('tan-laplace');
    // Five folds, all worse, no ties: exact one-sided p = 1/2^5 = 0.03125 (printed to 3 digits).
    expect(bad.stdout).toMatch(/zoo\s+nb-laplace\s+RMSE\s+\S+\s+\S+\s+−\S+\s+0\.0313\s+WORSE/);
    const junit = parseXml(readFileSync(join(cwd, 'chk', 'junit.xml'), 'utf8'));
    const failed = findAll(junit, 'testcase').filter((c) => c.children.some((x) => x.name === 'failure'));
    expect(failed.map((c) => c.attrs['name'])).toContain('nb-laplace');
    expect(failed.every((c) => c.attrs['name'] === 'nb-laplace')).toBe(true);
    expect(failed.map((c) => c.attrs['classname'])).toContain('gate.zoo');
    const md = readFileSync(join(cwd, 'chk', 'check.md'), 'utf8');
    expect(md).toContain('zoo × nb-laplace');

    // Reusing the database: a tolerance of 50 points and α = 0.01 accept it (5 folds cannot reach p ≤ 0.01).
    const lenient = run(
      [
        'check',
        join(FIX, 'gate-regressed.yaml'),
        '--baseline',
        base,
        '--db',
        db,
        '--tolerance',
        '50',
        '--alpha',
        '0.01',
        '--quiet',
        '--out',
        join(cwd, 'chk2'),
      ],
      cwd,
    );
    expect(lenient.code, lenient.stdout).toBe(0);
    expect(textOf(findAll(parseXml(readFileSync(join(cwd, 'chk2', 'junit.xml'), 'utf8')), 'testsuite')[0])).toContain(
      'within tolerance',
    );
  });

  it('usage errors exit 2 with one line', () => {
    const cwd = tempDir();
    const r = run(['check', join(FIX, 'gate.yaml')], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--baseline FILE is required');
    const missing = run(['check', join(FIX, 'gate.yaml'), '--baseline', join(cwd, 'nope.json')], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: cannot read the baseline \(record one with 'bnclab baseline/);
    const other = join(cwd, 'other.json');
    writeFileSync(other, compactJson({ ...baselineOf([]), experiment: 'not-gate' }, ''));
    const wrong = run(['check', join(FIX, 'gate.yaml'), '--baseline', other], cwd);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("the baseline is for experiment 'not-gate', the spec is 'gate'");
    expect(run(['check', join(FIX, 'gate.yaml'), '--baseline', other, '--metrics', 'acc'], cwd).stderr).toContain(
      "--metrics: unknown metric 'acc'",
    );
  });
});
