/**
 * The example programs of learners/ through the `external` baseline, where their Debian packages are
 * installed (.ci/run installs them): scikit-learn's HistGradientBoosting and RandomForest, XGBoost, and
 * Weka's NaiveBayes and BayesNet-TAN. Weka's NaiveBayes (Laplace counts, missing values skipped) is the same
 * model as bnclab's nb + dirichlet(alpha 1) under missing: available-case, so their accuracies must agree on
 * every fold, to the last digit.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';

const PYTHON = '/usr/bin/python3';
const WEKA = '/usr/share/java/weka.jar';
const hasPython = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import sklearn, xgboost']).status === 0;
// Each job starts Java or Python afresh (1-2 s each on an idle machine, many times that on a shared one).
const SLOW = 900_000;
const hasWeka = existsSync(WEKA) && spawnSync('java', ['-version']).status === 0;

async function accuracies(db: string): Promise<Map<string, number[]>> {
  const rows = await query(
    db,
    `SELECT e.method, j.dataset, j.fold, m.accuracy FROM jobs j JOIN experiment_jobs e USING (job_key)
     JOIN job_metrics m USING (job_key) ORDER BY j.dataset, j.fold`,
  );
  const out = new Map<string, number[]>();
  for (const r of rows) out.set(String(r['method']), [...(out.get(String(r['method'])) ?? []), Number(r['accuracy'])]);
  return out;
}

function runSpec(baselines: string): string {
  const dir = tempDir();
  const file = join(dir, 'examples.yaml');
  writeFileSync(
    file,
    `name: examples
datasets: [iris, house-votes-84]
preprocessing: { discretize: mdl, missing: available-case }
resampling: { folds: 3 }
methods:
  - { name: NB, structure: nb, estimator: { id: dirichlet, params: { alpha: 1 } } }
baselines:
${baselines}`,
  );
  const db = join(dir, 'r.duckdb');
  const r = cli(['run', file, '--db', db, '--no-report', '--workers', '1']);
  expect(r.stderr + r.stdout).toMatch(/jobs done, 0 failed/);
  return db;
}

describe.skipIf(!hasWeka)('Weka through the external baseline', () => {
  it(
    "NaiveBayes gives bnclab's naive Bayes accuracy on every fold; BayesNet-TAN runs",
    async () => {
      const learner = join(ROOT, 'learners', 'WekaPredict.java');
      const db = runSpec(
        `  - { id: external, name: Weka-NB, params: { format: arff, command: [java, -cp, ${WEKA}, ${learner}, weka.classifiers.bayes.NaiveBayes] } }
  - { id: external, name: Weka-TAN, params: { format: arff, command: [java, -cp, ${WEKA}, ${learner}, weka.classifiers.bayes.BayesNet, -Q, weka.classifiers.bayes.net.search.local.TAN] } }
  - { id: external, name: Weka-NB-server, params: { format: arff, server: true, command: [java, -cp, ${WEKA}, ${learner}, --server, weka.classifiers.bayes.NaiveBayes] } }
  - { id: external, name: Weka-NB-stdin, params: { format: arff, server: true, send: stdin, command: [java, -cp, ${WEKA}, ${learner}, --server, weka.classifiers.bayes.NaiveBayes, -K] } }
`,
      );
      const acc = await accuracies(db);
      expect(acc.get('Weka-NB')).toEqual(acc.get('NB'));
      expect(acc.get('Weka-NB-server')).toEqual(acc.get('NB'));
      // The folds' bytes on stdin. -K (kernel densities, for numeric attributes only; every attribute here is
      // discretized) keeps its job key apart from Weka-NB-server's: send is not part of the key.
      expect(acc.get('Weka-NB-stdin')).toEqual(acc.get('NB'));
      expect(acc.get('Weka-TAN')!.length).toBe(6);
      for (const a of acc.get('Weka-TAN')!) expect(a).toBeGreaterThan(0.8);
    },
    SLOW,
  );
});

describe.skipIf(!hasPython)('scikit-learn and XGBoost through the external baseline', () => {
  it(
    'HistGradientBoosting, RandomForest and XGBoost run on the folds and learn',
    async () => {
      const entry = (name: string, script: string) =>
        `  - { id: external, name: ${name}, params: { values: codes, command: [${PYTHON}, ${join(ROOT, 'learners', script)}] } }\n`;
      const server = (name: string, script: string) =>
        `  - { id: external, name: ${name}, params: { values: codes, server: true, command: [${PYTHON}, ${join(ROOT, 'learners', script)}, --server] } }\n`;
      const db = runSpec(
        entry('HGB', 'sklearn-hist-gradient-boosting.py') +
          entry('RF', 'sklearn-random-forest.py') +
          entry('XGB', 'xgboost-classifier.py') +
          server('RF-server', 'sklearn-random-forest.py') +
          server('XGB-server', 'xgboost-classifier.py') +
          `  - { id: external, name: HGB-stdin, params: { values: codes, server: true, send: stdin, command: [${PYTHON}, ${join(ROOT, 'learners', 'sklearn-hist-gradient-boosting.py')}, --server] } }\n`,
      );
      const acc = await accuracies(db);
      // The same program as a server: the same files. The seed derives from the job key, which holds the
      // command (now with --server), so RandomForest draws other trees; XGBoost with its defaults draws
      // nothing and must agree fold by fold.
      expect(acc.get('XGB-server')).toEqual(acc.get('XGB'));
      // The files' bytes on stdin (send: stdin); below 10,000 training rows HistGradientBoosting draws nothing.
      expect(acc.get('HGB-stdin')).toEqual(acc.get('HGB'));
      for (const m of ['HGB', 'RF', 'XGB', 'RF-server']) {
        expect(acc.get(m)!.length).toBe(6);
        for (const a of acc.get(m)!) expect(a).toBeGreaterThan(0.8);
      }
    },
    SLOW,
  );
});
