/**
 * The trivial jobs the throughput benchmarks run: nb with 100 Dirichlet α values on iris, 10-fold CV,
 * n/1,000 repeats (n jobs of a millisecond or less each).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the spec of n trivial jobs (n a multiple of 1,000) into `dir`; returns its path. */
export function trivialJobsSpec(dir: string, n: number): string {
  const file = join(dir, `jobs-${n}.yaml`);
  const alphas = Array.from({ length: 100 }, (_, i) => 1 + i / 100).join(', ');
  writeFileSync(
    file,
    `name: jobs-${n}
seed: 1
datasets: [iris]
preprocessing: { discretize: mdl, missing: as-value }
resampling: { method: cv, folds: 10, repeats: ${n / 1000}, stratified: true }
structures: [nb]
estimators:
  - id: dirichlet
    params: { alpha: [${alphas}] }
`,
  );
  return file;
}
