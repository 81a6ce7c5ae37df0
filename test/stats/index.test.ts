import { describe, it, expect } from 'vitest';
import * as stats from '../../src/stats/index.js';

describe('src/stats index', () => {
  it('re-exports the public API', () => {
    for (const name of [
      'pAdjust',
      'rankAverage',
      'averageRanks',
      'friedman',
      'friedmanFromRanks',
      'posthocVsControl',
      'posthocVsControlFromRanks',
      'posthocAllPairs',
      'posthocAllPairsFromRanks',
      'nemenyiCD',
      'bonferroniDunnCD',
      'wilcoxonSignedRank',
      'wilcoxonCriticalT',
      'pairwiseWilcoxon',
      'binomTest',
      'signTest',
      'signTestCriticalWins',
      'winDrawLoss',
      'normalCdf',
      'normalQuantile',
      'chiSquareSf',
      'fSf',
      'ptukey',
      'qtukey',
      'StatsInputError',
    ]) {
      expect(typeof (stats as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
