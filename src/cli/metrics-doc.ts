/**
 * The metric catalog as Markdown, generated from the metric registry (src/metrics/all.ts), so
 * docs/metrics.md never disagrees with the code. `bnclab methods --write` rewrites it with docs/methods.md.
 */
import { METRICS } from '../metrics/all.js';
import { isScore, nameKey } from '../metrics/registry.js';

export function metricsMarkdown(): string {
  const out: string[] = [
    '# Metrics',
    '',
    'Generated from the metric registry (`src/metrics/all.ts`) by `bnclab methods --write`. Every finished job',
    'stores each metric in a column of `job_metrics` (and of the `results` view) named by its id, computed on',
    "the fold's test rows from the class posteriors; the predicted class is the most probable one, the lowest",
    'class index on ties. The compared metrics are what `compare.metrics`, `report --metrics`, `check',
    "--metrics` and a reference file's `metric` column name; report tables print their label and mark the",
    'best value by the direction. Every metric is NaN on an empty test set. Adding one: docs/extending.md.',
    '',
    '| id | label | better | column | undefined (NaN) when |',
    '|---|---|---|---|---|',
  ];
  for (const m of METRICS) {
    const better = isScore(m) ? m.direction : 'not compared';
    const undef = isScore(m) && m.applies ? m.applies.otherwise : '';
    out.push(`| \`${m.id}\` | ${m.title} | ${better} | \`${m.column}\` | ${undef} |`);
  }
  out.push('');
  for (const m of METRICS) {
    out.push(`## \`${m.id}\`: ${m.title}`, '', m.description, '');
    if (!isScore(m)) continue;
    const names = [...new Set([m.id, m.name ?? m.id, ...(m.aliases ?? [])])];
    const facts = [
      `${m.direction} is better`,
      `${m.digits} decimals in tables`,
      `reference files may name it ${names.map((n) => `\`${n}\``).join(', ')} (compared as \`${names.map(nameKey).join('`, `')}\`)`,
    ];
    if (m.weka)
      facts.push(
        `\`export results\` also writes it as Weka's \`${m.weka.name}\`${m.weka.scale !== 1 ? ` (× ${m.weka.scale})` : ''}`,
      );
    if (!m.firstSchema) facts.push('NULL for jobs stored before bnclab computed it');
    out.push(`${facts.join('; ')}.`, '');
  }
  return out.join('\n');
}
