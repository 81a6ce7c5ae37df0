/**
 * The registry of resampling methods (src/spec/resampling.ts): every method's declaration is complete and
 * consistent with the split it makes, the section's defaults are those every stored split seed was made
 * with, and docs/spec.md lists the methods as the registry generates them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/spec/load.js';
import {
  defaultResampling,
  foldsPerRepeat,
  instantiateSplit,
  RESAMPLING,
  RESAMPLINGS,
  resamplingDocRows,
  resamplingPlanLine,
  resamplingReportLine,
  type ResamplingSpec,
} from '../../src/spec/resampling.js';
import { UserError } from '../../src/util/errors.js';

const classes = Int32Array.from({ length: 30 }, (_, i) => i % 3);
const dataset = { name: 'd', sha256: 'abc', classes, classCard: 3 };

describe('resampling registry', () => {
  it('fills in the defaults every existing split seed hashes (changing them changes every job key)', () => {
    expect(defaultResampling).toEqual({ method: 'cv', folds: 10, repeats: 1, stratified: true, test_fraction: 1 / 3 });
    expect(Object.keys(RESAMPLING.schema.properties)).toEqual([
      'method',
      'folds',
      'repeats',
      'stratified',
      'test_fraction',
    ]);
  });

  it('lists every method in the section enum, the default first', () => {
    expect(RESAMPLING.schema.properties.method.enum).toEqual(RESAMPLINGS.map((m) => m.id));
    expect(RESAMPLING.defaults.method).toBe(RESAMPLINGS[0].id);
  });

  it('a parameter two methods take is declared alike in both', () => {
    const seen = new Map<string, string>();
    for (const m of RESAMPLINGS) {
      for (const [name, decl] of Object.entries(m.params)) {
        const text = JSON.stringify(decl);
        expect(seen.get(name) ?? text, `${m.id}.${name}`).toBe(text);
        seen.set(name, text);
      }
    }
  });

  for (const m of RESAMPLINGS) {
    it(`${m.id}: its split has foldsPerRepeat folds in every repeat, each row in one test fold or training only`, () => {
      const spec: ResamplingSpec = { ...defaultResampling, method: m.id, folds: 5, repeats: 2 };
      const split = instantiateSplit(spec, dataset, '1', '.');
      const k = foldsPerRepeat(spec);
      expect(split.folds).toBe(k);
      expect(split.repeats).toBe(2);
      for (const a of split.assignment) {
        expect(a.length).toBe(classes.length);
        const folds = new Set(a);
        for (const f of folds) expect(f === -1 || (f >= 0 && f < k), `fold ${f}`).toBe(true);
        for (let f = 0; f < k; f++) expect(folds.has(f), `fold ${f} has test rows`).toBe(true);
      }
      // The same seed and settings give the same split; repeats are independent streams.
      expect(instantiateSplit(spec, dataset, '1', '.').assignment).toEqual(split.assignment);
      expect(split.assignment[0]).not.toEqual(split.assignment[1]);
    });
  }

  it('plan and report lines, as they were before the registry', () => {
    const cv = defaultResampling;
    const holdout: ResamplingSpec = { ...defaultResampling, method: 'holdout', test_fraction: 0.25, repeats: 3 };
    const file: ResamplingSpec = { ...defaultResampling, folds: { file: 'folds/{dataset}.csv' } };
    expect(resamplingPlanLine(cv)).toBe('cv, 10 folds, 1 repeat(s), stratified');
    expect(resamplingPlanLine(holdout)).toBe('holdout, 3 repeat(s), stratified, test fraction 0.25');
    expect(resamplingPlanLine(file)).toBe('cv, folds from folds/{dataset}.csv, 1 repeat(s), stratified');
    expect(resamplingReportLine(cv)).toBe('10-fold stratified cross-validation');
    expect(resamplingReportLine({ ...cv, repeats: 5, stratified: false })).toBe('5 × 10-fold cross-validation');
    expect(resamplingReportLine(holdout)).toBe('holdout, test fraction 0.25, 3 repeat(s)');
    expect(resamplingReportLine(file)).toBe('folds from folds/{dataset}.csv');
  });

  it('a parameter of another method is an error naming it; cv accepts test_fraction (it always did)', () => {
    const spec = (resampling: string) =>
      parseSpec(
        `name: t\ndatasets: [iris]\nresampling: ${resampling}\nstructures: [nb]\nestimators: [mle]\n`,
        's.yaml',
      );
    expect(() => spec('{method: holdout, folds: 5}')).toThrow(
      new UserError('s.yaml:3:38: resampling.folds: holdout has no folds (use test_fraction)'),
    );
    expect(spec('{method: cv, test_fraction: 0.2}').resampling).toEqual({ ...defaultResampling, test_fraction: 0.2 });
    expect(spec('{method: holdout}').resampling).toEqual({ ...defaultResampling, method: 'holdout' });
  });

  it('docs/spec.md lists the methods as the registry generates them', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'spec.md'), 'utf8');
    const block = doc.split('<!-- resampling-methods -->\n')[1]?.split('<!-- /resampling-methods -->')[0];
    expect(block).toBe(
      ['| method | parameters | what it does |', '| --- | --- | --- |', ...resamplingDocRows(), ''].join('\n'),
    );
  });
});
