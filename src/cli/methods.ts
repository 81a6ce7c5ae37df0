/**
 * The method catalog as Markdown, generated from the registry (ids, titles, citations, parameters with
 * their defaults), so docs/methods.md never disagrees with the code. `bnclab methods --write` rewrites it.
 */
import {
  compatible,
  getBaseline,
  getEstimator,
  getStructure,
  listBaselines,
  listEstimators,
  listStructures,
  type Estimator,
  type JsonSchema,
  type MethodInfo,
} from '../registry.js';
import { UserError } from '../util/errors.js';
import { closest } from '../util/text.js';
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
  const section = (
    title: string,
    intro: string,
    methods: readonly MethodInfo[],
    extra?: (m: MethodInfo) => string[],
  ): void => {
    out.push(`## ${title}`, '', intro, '');
    for (const m of methods) {
      out.push(`### \`${m.id}\`: ${m.title}`, '', m.citation, '');
      if (m.notes) out.push(m.notes, '');
      const order = m.orderDependence;
      if (order?.columns) out.push(`Depends on the column order: ${order.columns}.`, '');
      if (order?.classes) out.push(`Depends on the class codes: ${order.classes}.`, '');
      for (const line of extra?.(m) ?? []) out.push(line);
      const params = parameterRows(m);
      if (params.length === 0) out.push('No parameters.', '');
      else {
        out.push('| parameter | type | default | meaning |', '|---|---|---|---|');
        for (const p of params) {
          out.push(
            `| \`${p.name}\` | ${p.type.replace(/\|/g, '\\|')} | ${p.default === undefined ? '' : `\`${p.default}\``} | ${p.meaning.replace(/\|/g, '\\|')} |`,
          );
        }
        out.push('');
      }
      if (m.maxAttributes !== undefined) out.push(`Handles at most ${m.maxAttributes} attributes.`, '');
    }
  };
  section(
    'Structure learners',
    'A structure learner returns a DAG over the attributes and the class (or weighted DAGs).',
    listStructures(),
  );
  section(
    'Parameter estimators',
    'An estimator fits the parameters of a structure and returns the class posteriors.',
    listEstimators(),
    (m) => {
      // Listed from the declared traits: with `requires`, the learners it fits; with `rejects` only, the others.
      const e = m as Estimator;
      const fits = listStructures().map((s) => [s.id, compatible(e, s.id)] as const);
      const lines: string[] = [];
      if (e.requires?.length)
        lines.push(
          `Applies to: ${fits
            .filter(([, ok]) => ok)
            .map(([id]) => `\`${id}\``)
            .join(', ')}.`,
        );
      else if (e.rejects?.length)
        lines.push(
          `Does not apply to: ${fits
            .filter(([, ok]) => !ok)
            .map(([id]) => `\`${id}\``)
            .join(', ')}.`,
        );
      if ((m as { pseudoCount?: unknown }).pseudoCount) lines.push('Fitted by EM under `missing: em`.');
      return lines.length ? [...lines, ''] : [];
    },
  );
  section(
    'Baselines',
    'Classifiers outside the structure × estimator grid, run on the same folds and preprocessing.',
    listBaselines(),
  );
  return out.join('\n');
}

interface ParameterRow {
  readonly name: string;
  /** Markdown-ish: enum values in backquotes, alternatives joined by ' | '. */
  readonly type: string;
  /** JSON text of the default, if any. */
  readonly default: string | undefined;
  readonly meaning: string;
}

function parameterRows(m: MethodInfo): ParameterRow[] {
  const props = (m.params['properties'] ?? {}) as Record<string, JsonSchema>;
  // Implicit defaults are defaults like any other to a user (they only stay out of the job key).
  const defaults = { ...m.implicitDefaults, ...m.defaults };
  return Object.keys(props).map((k) => ({
    name: k,
    type: typeText(props[k]),
    default: defaults[k] === undefined ? undefined : JSON.stringify(defaults[k]),
    meaning: String(props[k]['description'] ?? '').replace(/\n/g, ' '),
  }));
}

/** `bnclab methods <id>`: one method's kind, title, citation, parameters with defaults, and the pairs it forms. */
export function methodDetail(id: string): string {
  const found: [string, MethodInfo][] = [];
  const s = getStructure(id);
  const e = getEstimator(id);
  const b = getBaseline(id);
  if (s) found.push(['structure learner', s]);
  if (e) found.push(['parameter estimator', e]);
  if (b) found.push(['baseline', b]);
  if (found.length === 0) {
    const ids = [...listStructures(), ...listEstimators(), ...listBaselines()].map((x) => x.id);
    const near = closest(id, ids);
    throw new UserError(
      `methods: no method '${id}'${near ? ` (did you mean '${near}'?)` : ''}; 'bnclab methods' lists them`,
    );
  }
  const out: string[] = [];
  for (const [kind, m] of found) {
    out.push(`${m.id}: ${m.title} (${kind})`, '', `Citation: ${m.citation}`, '');
    const rows = parameterRows(m);
    if (rows.length === 0) out.push('Parameters: none', '');
    else {
      out.push('Parameters (a list in a spec is a sweep):');
      const plain = rows.map((r) => [r.name, r.type.replace(/`/g, ''), r.default ?? '', r.meaning]);
      const head = ['name', 'type', 'default', 'meaning'];
      const w = head.map((h, i) => Math.max(h.length, ...plain.map((r) => r[i].length)));
      const line = (r: string[]): string =>
        '  ' +
        r
          .map((c, i) => (i < 3 ? c.padEnd(w[i]) : c))
          .join('  ')
          .trimEnd();
      out.push(line(head), ...plain.map(line), '');
    }
    if (m.maxAttributes !== undefined) out.push(`Handles at most ${m.maxAttributes} attributes.`, '');
    if (kind === 'structure learner') {
      const ok = listEstimators()
        .filter((est) => compatible(est, m.id))
        .map((est) => est.id);
      const not = listEstimators()
        .filter((est) => !compatible(est, m.id))
        .map((est) => est.id);
      out.push(`Estimators it pairs with: ${ok.join(', ')}`);
      if (not.length) out.push(`Not with: ${not.join(', ')}`);
      out.push(
        '',
        `In a spec: structures: [${m.id}] with estimators: [${ok[0] ?? '…'}], or methods: [{ structure: ${m.id}, estimator: ${ok[0] ?? '…'} }]`,
        '',
      );
    } else if (kind === 'parameter estimator') {
      const ok = listStructures()
        .filter((st) => compatible(m as Estimator, st.id))
        .map((st) => st.id);
      const not = listStructures()
        .filter((st) => !compatible(m as Estimator, st.id))
        .map((st) => st.id);
      out.push(
        `Structures it pairs with: ${ok.length === listStructures().length ? `every structure learner (${ok.join(', ')})` : ok.join(', ')}`,
      );
      if (not.length) out.push(`Not with: ${not.join(', ')}`);
      out.push('');
    } else {
      out.push(
        'A baseline runs on its own (spec: baselines: [' + m.id + ']), on the same folds and preprocessing.',
        '',
      );
    }
  }
  return out.join('\n');
}

function typeText(p: JsonSchema): string {
  if (Array.isArray(p['enum'])) return (p['enum'] as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(' | ');
  if (Array.isArray(p['anyOf'])) return (p['anyOf'] as JsonSchema[]).map(typeText).join(' | ');
  const t = p['type'];
  const range: string[] = [];
  if (p['minimum'] !== undefined) range.push(`≥ ${String(p['minimum'])}`);
  if (p['exclusiveMinimum'] !== undefined) range.push(`> ${String(p['exclusiveMinimum'])}`);
  if (p['maximum'] !== undefined) range.push(`≤ ${String(p['maximum'])}`);
  return `${Array.isArray(t) ? t.join(' | ') : String(t ?? 'any')}${range.length ? ` (${range.join(', ')})` : ''}`;
}
