/**
 * The programs outside bnclab a spec runs (the `external` baseline's commands): `plan` lists them, and the
 * runner keeps such jobs on worker threads (an interrupt can end their programs only from a free thread).
 */
import { getBaseline, getEstimator, getStructure, type MethodInfo, type Params } from '../registry.js';
import type { ExperimentSpec } from './load.js';

interface SpecProgram {
  readonly method: string;
  readonly command: string;
}

export function programsOf(spec: ExperimentSpec): SpecProgram[] {
  const out: SpecProgram[] = [];
  for (const m of spec.methods) {
    const parts: [MethodInfo | undefined, Params | undefined][] =
      m.kind === 'baseline'
        ? [[getBaseline(m.structure.id), m.structure.params]]
        : [
            [getStructure(m.structure.id), m.structure.params],
            [m.estimator ? getEstimator(m.estimator.id) : undefined, m.estimator?.params],
          ];
    for (const [info, params] of parts)
      for (const command of info?.commands?.(params ?? {}) ?? []) out.push({ method: m.label, command });
  }
  return out;
}
