/**
 * The method catalog as Markdown, generated from the registry (ids, titles, citations, parameters with
 * their defaults), so docs/methods.md never disagrees with the code. `bnclab methods --write` rewrites it.
 */
import { listBaselines, listEstimators, listStructures, type JsonSchema, type MethodInfo } from '../registry.js';
import '../methods.js';

export function methodsMarkdown(): string {
  const out: string[] = [
    '# Methods',
    '',
    'Generated from the method registry by `bnclab methods --write`; every entry is the id a spec uses, the',
    'paper the implementation follows, and its parameters with their defaults. A list value for a parameter',
    'in a spec is a sweep.',
    '',
    'Arc counts: the store keeps `n_arcs` (every arc, those from the class included: naive Bayes on autos has',
    '25) and `n_feature_arcs` (arcs between attributes only, the count bnclassify and the papers report: 0 for',
    'naive Bayes, m − 1 for TAN). No report table uses either today; query them from the `results` view.',
    '',
    'Missing values: under `preprocessing.missing: em` every structure learner below learns its structure',
    'from available-case counts (and the wrappers score rows with missing values by exact marginalisation),',
    'exactly as under `available-case`; none runs EM itself. The estimators marked "fitted by EM" then fit',
    'the CPTs of that structure by EM (src/bn/em.ts); the others are refused under `missing: em`.',
    '',
  ];
  const section = (title: string, intro: string, methods: readonly MethodInfo[], extra?: (m: MethodInfo) => string[]): void => {
    out.push(`## ${title}`, '', intro, '');
    for (const m of methods) {
      out.push(`### \`${m.id}\`: ${m.title}`, '', m.citation, '');
      if (m.notes) out.push(m.notes, '');
      for (const line of extra?.(m) ?? []) out.push(line);
      const props = (m.params['properties'] ?? {}) as Record<string, JsonSchema>;
      const keys = Object.keys(props);
      if (keys.length === 0) out.push('No parameters.', '');
      else {
        out.push('| parameter | type | default | meaning |', '|---|---|---|---|');
        for (const k of keys) {
          const p = props[k]!;
          out.push(`| \`${k}\` | ${typeText(p)} | ${m.defaults[k] === undefined ? '' : `\`${JSON.stringify(m.defaults[k])}\``} | ${String(p['description'] ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
        }
        out.push('');
      }
      if (m.maxAttributes !== undefined) out.push(`Handles at most ${m.maxAttributes} attributes.`, '');
    }
  };
  section('Structure learners', 'A structure learner returns a DAG over the attributes and the class (or weighted DAGs).', listStructures());
  section('Parameter estimators', 'An estimator fits the parameters of a structure and returns the class posteriors.', listEstimators(), (m) => {
    const { structures: s, excludes: x } = m as { structures?: readonly string[]; excludes?: readonly string[] };
    const lines: string[] = [];
    if (s) lines.push(`Applies to: ${s.map((id) => `\`${id}\``).join(', ')}.`);
    if (x) lines.push(`Does not apply to: ${x.map((id) => `\`${id}\``).join(', ')}.`);
    if ((m as { pseudoCount?: unknown }).pseudoCount) lines.push('Fitted by EM under `missing: em`.');
    return lines.length ? [...lines, ''] : [];
  });
  section('Baselines', 'Classifiers outside the structure × estimator grid, run on the same folds and preprocessing.', listBaselines());
  return out.join('\n');
}

function typeText(p: JsonSchema): string {
  if (Array.isArray(p['enum'])) return (p['enum'] as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (Array.isArray(p['anyOf'])) return (p['anyOf'] as JsonSchema[]).map(typeText).join(' \\| ');
  const t = p['type'];
  const range: string[] = [];
  if (p['minimum'] !== undefined) range.push(`≥ ${String(p['minimum'])}`);
  if (p['exclusiveMinimum'] !== undefined) range.push(`> ${String(p['exclusiveMinimum'])}`);
  if (p['maximum'] !== undefined) range.push(`≤ ${String(p['maximum'])}`);
  return `${Array.isArray(t) ? t.join(' \\| ') : String(t ?? 'any')}${range.length ? ` (${range.join(', ')})` : ''}`;
}
