import type { Command } from '../command.js';
import { onePositional } from '../command.js';

export const planCommand: Command = {
    summary: 'show the job grid of a spec without running anything',
    usage: 'bnclab plan <spec.yaml> [--jobs]',
    options: { jobs: { type: 'boolean' } },
    help: `Options:
  --jobs   list every job (key, dataset, method, repeat, fold)`,
    async run(pos, v) {
      const file = onePositional(pos, this.usage);
      const { loadSpecFile } = await import('../../spec/load.js');
      const { buildPlan } = await import('../../spec/plan.js');
      const { emText } = await import('../../bn/em.js');
      const { spec } = loadSpecFile(file);
      const plan = buildPlan(spec);
      const out: string[] = [];
      out.push(`${spec.name}: ${plan.jobs.length} jobs`);
      out.push(`datasets (${plan.datasets.length}):`);
      for (const d of plan.datasets) {
        out.push(`  ${d.handle.name}  ${d.rows} rows, ${d.attributes} attributes, ${d.classes} classes; ${d.split.repeats} × ${d.split.folds} folds`);
      }
      out.push(`methods (${spec.methods.length}):`);
      for (const m of spec.methods) out.push(`  ${m.label}`);
      out.push(`preprocessing: discretize ${spec.preprocessing.discretize.method}${spec.preprocessing.discretize.bins ? ` (${spec.preprocessing.discretize.bins} bins)` : ''}, missing ${spec.preprocessing.missing}${emText(spec.preprocessing.em)}`);
      const r = spec.resampling;
      out.push(`resampling: ${r.method}${typeof r.folds === 'number' ? (r.method === 'cv' ? `, ${r.folds} folds` : '') : `, folds from ${r.folds.file}`}, ${r.repeats} repeat(s)${r.stratified ? ', stratified' : ''}${r.method === 'holdout' ? `, test fraction ${r.test_fraction}` : ''}`);
      if (v['jobs']) {
        out.push('jobs:');
        for (const j of plan.jobs) out.push(`  ${j.key}  ${j.dataset.handle.name}  ${j.method.label}  repeat ${j.repeat} fold ${j.fold}`);
      }
      process.stdout.write(out.join('\n') + '\n');
      return 0;
    },
  };
