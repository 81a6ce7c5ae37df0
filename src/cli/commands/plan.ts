import type { Command } from '../command.js';
import { intOption, onePositional } from '../command.js';

export const planCommand: Command = {
    summary: 'show the job grid of a spec without running anything',
    usage: 'bnclab plan <spec.yaml> [--jobs] [--columns] [--max-jobs N]',
    options: { jobs: { type: 'boolean' }, columns: { type: 'boolean' }, 'max-jobs': { type: 'string' } },
    help: `Options:
  --jobs         list every job (key, dataset, method, repeat, fold)
  --columns      every dataset's class column and the type of each column
                 (without it, only for datasets that are files named in the spec)
  --max-jobs N   refuse a grid of more than N jobs (default 1,000,000)`,
    async run(pos, v) {
      const file = onePositional(pos, this.usage);
      const { loadSpecFile } = await import('../../spec/load.js');
      const { buildPlan, describeColumns } = await import('../../spec/plan.js');
      const { emText } = await import('../../bn/em.js');
      const { spec } = loadSpecFile(file);
      const plan = buildPlan(spec, { maxJobs: intOption(v['max-jobs'], '--max-jobs', 1) });
      for (const w of plan.warnings) process.stderr.write(`bnclab: warning: ${w}\n`);
      const out: string[] = [];
      out.push(`${spec.name}: ${plan.jobs.length} jobs`);
      out.push(`datasets (${plan.datasets.length}):`);
      for (const d of plan.datasets) {
        out.push(`  ${d.handle.name}  ${d.rows} rows, ${d.attributes} attributes, ${d.classes} classes; ${d.split.repeats} × ${d.split.folds} folds`);
        if (d.userFile || v['columns']) for (const line of describeColumns(d, Boolean(v['columns']))) out.push(`    ${line}`);
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
