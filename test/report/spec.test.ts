import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parseSpec } from '../../src/spec/load.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import '../../src/methods.js';

const FIX = join(__dirname, 'fixtures');
const HEAD = `name: t
datasets: [iris]
structures: [nb, tan]
estimators:
  - dirichlet: { alpha: [1, 10] }
`;

function parse(extra: string, file = join(FIX, 'mem.yaml')) {
  return parseSpec(HEAD + extra, file);
}

describe('compare: and reference: sections', () => {
  it('default to the documented settings when absent', () => {
    const s = parse('');
    expect(s.compare).toEqual(DEFAULT_COMPARE);
    expect(s.compare).toMatchObject({
      metrics: ['accuracy', 'rmse'],
      control: 'best',
      alpha: 0.05,
      adjust: 'hommel',
      digits: null,
      friedman: { tieCorrection: true },
      wilcoxon: { zeroMethod: 'wilcox', correct: true, exact: 'auto', tieCorrection: true },
      sign: { draws: 'drop', tolerance: 0 },
      cd: { procedure: 'nemenyi', df: 'infinity' },
      pairs: null,
      scatter: true,
    });
    expect(s.reference).toEqual([]);
  });

  it('parse every setting', () => {
    const s = parse(`compare:
  metrics: [zero_one_loss, rmse]
  control: tan/dirichlet(alpha=1)
  alpha: 0.1
  tests: [posthoc, sign]
  adjust: holm
  digits: 3
  friedman: { tie_correction: false }
  wilcoxon: { zero_method: zsplit, correct: false, exact: false, tie_correction: false }
  sign: { draws: split, tolerance: 0.001 }
  cd: { procedure: bonferroni-dunn, df: scmamp }
  pairs: [[tan/dirichlet(alpha=1), nb/dirichlet(alpha=1)]]
  scatter: false
  sweeps: [{ parameter: estimator.alpha, reference: 1 }]
  learning_curve: { experiments: [a, b], metric: rmse }
  diagnostics: [classParents, meanShd]
reference:
  - ref-cells.csv
  - { file: ref-wdl.csv, methods: { TAN: tan/dirichlet(alpha=1) }, scale: 0.01, tolerance: 0.005, title: T2 }
`);
    expect(s.compare).toEqual({
      metrics: ['zero_one_loss', 'rmse'],
      control: 'tan/dirichlet(alpha=1)',
      alpha: 0.1,
      tests: ['posthoc', 'sign'],
      adjust: 'holm',
      digits: 3,
      friedman: { tieCorrection: false },
      wilcoxon: { zeroMethod: 'zsplit', correct: false, exact: false, tieCorrection: false },
      sign: { draws: 'split', tolerance: 0.001 },
      cd: { procedure: 'bonferroni-dunn', df: 'scmamp' },
      pairs: [['tan/dirichlet(alpha=1)', 'nb/dirichlet(alpha=1)']],
      scatter: false,
      sweeps: [{ parameter: 'estimator.alpha', reference: 1, metric: null }],
      learningCurve: { experiments: ['a', 'b'], metric: 'rmse' },
      diagnostics: ['classParents', 'meanShd'],
    });
    expect(s.reference.map((r) => [r.path, r.file, r.scale, r.tolerance, r.title])).toEqual([
      ['ref-cells.csv', join(FIX, 'ref-cells.csv'), 1, 0.01, null],
      ['ref-wdl.csv', join(FIX, 'ref-wdl.csv'), 0.01, 0.005, 'T2'],
    ]);
  });

  it.each([
    [
      'compare:\n  control: tan/dirichlet(alpha=2)\n',
      /mem\.yaml:7:12: compare\.control: no method labelled 'tan\/dirichlet\(alpha=2\)' \(did you mean 'tan\/dirichlet\(alpha=1\)'\?\)/,
    ],
    [
      'compare:\n  pairs: [[nb/dirichlet(alpha=1), nb/dirichlet(alpha=1)]]\n',
      /mem\.yaml:7:\d+: compare\.pairs\[0\]: compares 'nb\/dirichlet\(alpha=1\)' with itself/,
    ],
    [
      'compare:\n  metrics: [auc_pr]\n',
      /mem\.yaml:7:13: compare\.metrics\[0\]: must be one of "accuracy", "zero_one_loss", "rmse", "log_loss", "auc"/,
    ],
    ['compare:\n  alhpa: 0.1\n', /mem\.yaml:7:3: compare\.alhpa: unknown field/],
    ['compare:\n  alpha: 1.5\n', /mem\.yaml:7:10: compare\.alpha: must be < 1/],
    [
      'compare:\n  sweeps: [{ parameter: structure.k, reference: 2 }]\n',
      /compare\.sweeps\[0\]\.parameter: no method of this spec has structure parameter 'k'/,
    ],
    [
      'compare:\n  sweeps: [{ parameter: estimator.alpha, reference: 3 }]\n',
      /compare\.sweeps\[0\]\.reference: no method has estimator\.alpha = 3 \(values: 1, 10\)/,
    ],
    ['reference: [nope.csv]\n', /mem\.yaml:6:13: reference\[0\]\.file: no such file 'nope\.csv'/],
    [
      'reference:\n  - { file: ref-wdl.csv, methods: { TAN: tan } }\n',
      /reference\[0\]\.methods\.TAN: no method labelled 'tan'/,
    ],
    [
      "reference:\n  - { file: ref-wdl.csv, substitutes: { tan: 'G-test for CMI' } }\n",
      /mem\.yaml:7:\d+: reference\[0\]\.substitutes: no method labelled 'tan'/,
    ],
  ])('rejects %j with a located one-line message', (extra, message) => {
    expect(() => parse(extra)).toThrow(message);
  });
});
