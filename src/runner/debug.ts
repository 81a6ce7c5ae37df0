/**
 * `bnclab debug <spec> --job …`: one job of the plan run in the foreground, in this thread, as a worker
 * would run it (the same payload, preprocessing, seed and learner), but nothing is stored and an error is not
 * caught: its full stack trace reaches the caller. Returns the steps' timings, the metrics and the learned
 * structure, for a researcher finding out why a job fails or what it learns (batchtools' testJob).
 */
import { performance } from 'node:perf_hooks';
import { arcs, type Structure } from '../bn/structure.js';
import { computeMetrics } from '../metrics/index.js';
import { classificationMetrics } from '../metrics/classification.js';
import type { Plan, PlannedJob } from '../spec/plan.js';
import { RootStream } from '../util/rng.js';
import { fitPredictTimes, learn, preparedFold } from './execute.js';
import { payloadOf } from './run.js';

interface DebugResult {
  readonly job: PlannedJob;
  readonly timings: { readonly preprocessMs: number; readonly trainMs: number; readonly predictMs: number };
  readonly nTrain: number;
  readonly nTest: number;
  readonly metrics: Readonly<Record<string, number>>;
  /** parent → child arcs by name (the class included), or undefined for a baseline; members of an ensemble apart. */
  readonly arcs?: readonly (readonly [string, string])[];
  readonly members?: number;
  readonly info?: Readonly<Record<string, number | string | boolean>>;
}

export function debugJob(plan: Plan, job: PlannedJob): DebugResult {
  const payload = payloadOf(plan, job, false);
  const t0 = performance.now();
  const fold = preparedFold(payload);
  const t1 = performance.now();
  const { model, structure } = learn(payload, fold.train, new RootStream(payload.seed), undefined, fold);
  const t2 = performance.now();
  const test = fold.testData();
  const probs = model.posterior(test);
  const t3 = performance.now();
  const m = {
    ...computeMetrics(probs, test.classColumn, test.classCard),
    ...classificationMetrics(probs, test.classColumn, test.classCard),
  };
  const names = [...fold.train.names, fold.train.className];
  const metrics: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) if (typeof v === 'number') metrics[k] = v;
  return {
    job,
    timings: { preprocessMs: t1 - t0, ...fitPredictTimes(model, t1, t2, t3) },
    nTrain: fold.train.n,
    nTest: test.n,
    metrics,
    ...structureOf(structure, names),
  };
}

function structureOf(
  s: Structure | undefined,
  names: readonly string[],
): Pick<DebugResult, 'arcs' | 'members' | 'info'> {
  if (!s) return {};
  const info = s.info ? { info: { ...s.info } } : {};
  if (s.members) return { members: s.members.length, ...info };
  return { arcs: arcs(s).map(([a, b]) => [names[a], names[b]] as const), ...info };
}

/** The lines `debug` prints. */
export function debugLines(r: DebugResult): string[] {
  const j = r.job;
  const ms = (x: number): string => `${x < 10 ? x.toFixed(2) : Math.round(x)} ms`;
  const out = [
    `job ${j.key}: ${j.dataset.handle.name}  ${j.method.label}  repeat ${j.repeat} fold ${j.fold}${j.specSeed ? ` seed ${j.specSeed}` : ''} (not stored)`,
    `rows: ${r.nTrain} training, ${r.nTest} test`,
    `time: preprocess ${ms(r.timings.preprocessMs)}, train ${ms(r.timings.trainMs)}, predict ${ms(r.timings.predictMs)}`,
    `metrics: ${Object.entries(r.metrics)
      .map(([k, v]) => `${k} ${Number(v.toFixed(6))}`)
      .join(', ')}`,
  ];
  if (r.members !== undefined) out.push(`structure: an ensemble of ${r.members} structures`);
  if (r.arcs) {
    const byChild = new Map<string, string[]>();
    for (const [p, c] of r.arcs) byChild.set(c, [...(byChild.get(c) ?? []), p]);
    out.push(`structure: ${r.arcs.length} arcs (child <- parents)`);
    for (const [c, ps] of byChild) out.push(`  ${c} <- ${ps.join(', ')}`);
  }
  if (r.info) out.push(`learner info: ${JSON.stringify(r.info)}`);
  return out;
}
