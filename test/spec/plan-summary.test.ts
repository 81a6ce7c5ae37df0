/**
 * buildPlanSummary, the plan of the commands that run no learner (report, status, plan): the jobs of
 * buildPlan (keys, seeds, repeats, folds) and the same dataset facts; a dataset whose file is unchanged since
 * a plan recorded its facts is not read at all. Whatever the facts are computed from (the file's content, the
 * resampling, the seed, the missing-value option, a folds file's content) gives other facts, read afresh.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDataset } from '../../src/datasets/load.js';
import { parseSpec } from '../../src/spec/load.js';
import { buildPlan, buildPlanSummary, type PlanSummary } from '../../src/spec/plan.js';
import { resetCacheDir } from '../../src/util/cache.js';
import '../../src/methods.js';
import { useTempCacheDir } from '../helpers/cache-dir.js';

vi.mock('../../src/datasets/load.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/datasets/load.js')>();
  return { ...real, loadDataset: vi.fn(real.loadDataset) };
});
const reads = vi.mocked(loadDataset);

/** A plan as the report sees it: datasets without rows or split, jobs by content. */
function view(plan: PlanSummary): unknown {
  return {
    datasets: plan.datasets.map((d) => {
      const { table: _t, split: _s, ...rest } = d as typeof d & { table?: unknown; split?: unknown };
      return rest;
    }),
    jobs: plan.jobs.map((j) => [j.key, j.seed, j.dataset.handle.name, j.repeat, j.fold, j.method.label]),
    warnings: plan.warnings,
  };
}

describe('plan summary (planning without reading unchanged datasets)', () => {
  const tempDir = useTempCacheDir('bnclab-plan-summary-');
  let dir = '';
  beforeAll(() => {
    dir = tempDir();
  });
  beforeEach(() => {
    reads.mockClear();
  });

  const csv = (rows: number, missingAt = -1): string => {
    const lines = ['a,b,label'];
    for (let i = 0; i < rows; i++)
      lines.push(
        `${i === missingAt ? '?' : ['x', 'y', 'z'][i % 3]},${i % 2 ? 'u' : 'v'},${i % 3 === 0 || i % 7 === 0 ? 'yes' : 'no'}`,
      );
    return lines.join('\n') + '\n';
  };
  const specText = (over: Record<string, string> = {}): string =>
    `name: summary
datasets:
  - { file: toy.csv, class: label }
  - zoo
resampling: ${over['resampling'] ?? '{ method: cv, folds: 3, repeats: 2 }'}
preprocessing: { missing: ${over['missing'] ?? 'as-value'} }
seed: ${over['seed'] ?? 'one'}
structures: [nb, tan]
estimators: [dirichlet]
`;
  /** Summary first (reads counted), then the full plan, then the summary again: all three the same. */
  function check(text: string): { firstReads: number } {
    const spec = parseSpec(text, join(dir, 'spec.yaml'));
    reads.mockClear();
    const first = buildPlanSummary(spec);
    const firstReads = reads.mock.calls.length;
    const full = buildPlan(spec);
    reads.mockClear();
    const again = buildPlanSummary(spec);
    expect(reads).not.toHaveBeenCalled();
    expect(view(first)).toEqual(view(full));
    expect(view(again)).toEqual(view(full));
    return { firstReads };
  }

  it('gives the full plan, reading the files only the first time', () => {
    writeFileSync(join(dir, 'toy.csv'), csv(40));
    expect(check(specText()).firstReads).toBe(2);
    // the same spec again, in a new parse: nothing read
    const spec = parseSpec(specText(), join(dir, 'spec.yaml'));
    reads.mockClear();
    const plan = buildPlanSummary(spec);
    expect(reads).not.toHaveBeenCalled();
    expect(plan.jobs).toHaveLength(2 * 2 * 3 * 2);
    expect(plan.datasets[0].foldSizes.map((r) => r.map((f) => f.train + f.test))).toEqual([
      [40, 40, 40],
      [40, 40, 40],
    ]);
  });

  it('reads a dataset again when its file or anything its split depends on changes', () => {
    writeFileSync(join(dir, 'toy.csv'), csv(40));
    check(specText());
    // new content: the toy file is read again (zoo is not)
    writeFileSync(join(dir, 'toy.csv'), csv(41));
    expect(check(specText()).firstReads).toBe(1);
    // another seed, another resampling: both datasets split afresh
    expect(check(specText({ seed: 'two' })).firstReads).toBe(2);
    expect(check(specText({ resampling: '{ method: holdout, test_fraction: 0.3 }' })).firstReads).toBe(2);
    // remove-rows leaves the incomplete row out of every fold
    writeFileSync(join(dir, 'toy.csv'), csv(41, 5));
    check(specText());
    const r = check(specText({ missing: 'remove-rows' }));
    expect(r.firstReads).toBe(2);
    const plan = buildPlanSummary(parseSpec(specText({ missing: 'remove-rows' }), join(dir, 'spec.yaml')));
    expect(plan.datasets[0].foldSizes[0].map((f) => f.train + f.test)).toEqual([40, 40, 40]);
  });

  it("follows a folds file's content", () => {
    writeFileSync(join(dir, 'toy.csv'), csv(12));
    const folds = (f: (i: number) => number): void =>
      writeFileSync(
        join(dir, 'toy-folds.csv'),
        'fold\n' + Array.from({ length: 12 }, (_, i) => f(i)).join('\n') + '\n',
      );
    const text = `name: summary-folds
datasets:
  - { file: toy.csv, class: label }
resampling:
  folds: { file: "{dataset}-folds.csv" }
structures: [nb]
estimators: [dirichlet]
`;
    folds((i) => (i % 3) + 1);
    expect(check(text).firstReads).toBe(1);
    const spec = parseSpec(text, join(dir, 'spec.yaml'));
    expect(buildPlanSummary(spec).datasets[0].foldSizes[0].map((f) => f.test)).toEqual([4, 4, 4]);
    folds((i) => (i < 6 ? 1 : i < 9 ? 2 : 3));
    expect(check(text).firstReads).toBe(1);
    expect(buildPlanSummary(spec).datasets[0].foldSizes[0].map((f) => f.test)).toEqual([6, 3, 3]);
  });

  it('with the cache off, reads every dataset and gives the same plan', () => {
    writeFileSync(join(dir, 'toy.csv'), csv(40));
    const spec = parseSpec(specText(), join(dir, 'spec.yaml'));
    const full = buildPlan(spec);
    process.env['BNCLAB_CACHE_DIR'] = 'off';
    resetCacheDir();
    try {
      reads.mockClear();
      expect(view(buildPlanSummary(spec))).toEqual(view(full));
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      process.env['BNCLAB_CACHE_DIR'] = join(dir, 'cache');
      resetCacheDir();
    }
  });
});
