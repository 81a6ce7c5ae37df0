/** The gate's verdict for people (a plain table), for GitHub (Markdown summary) and for CI tools (JUnit XML). */
import { scoreMetric } from '../metrics/all.js';
import { escapeMarkdown } from '../report/table.js';
import { formatPoints, type CheckResult, type EntryCheck } from './compare.js';

interface Line {
  dataset: string;
  method: string;
  metric: string;
  baseline: string;
  current: string;
  change: string;
  p: string;
  verdict: string;
}

const HEADER: Line = {
  dataset: 'dataset',
  method: 'method',
  metric: 'metric',
  baseline: 'baseline',
  current: 'current',
  change: 'change (points)',
  p: 'p (folds)',
  verdict: 'verdict',
};

function lines(r: CheckResult): Line[] {
  return r.entries.flatMap((e): Line[] => {
    if (e.status === 'missing' || e.status === 'new') {
      return [
        {
          dataset: e.dataset,
          method: e.method,
          metric: '',
          baseline: '',
          current: '',
          change: '',
          p: '',
          verdict: e.status === 'missing' ? 'MISSING' : 'new (not in baseline)',
        },
      ];
    }
    return e.metrics.map((m) => ({
      dataset: e.dataset,
      method: e.method,
      metric: scoreMetric(m.metric).title,
      baseline: m.baseline.toFixed(4),
      current: m.current.toFixed(4),
      change: formatPoints(m.change),
      p: m.p === null ? '–' : m.p.toPrecision(3),
      verdict: m.failed ? m.status.toUpperCase() : m.status,
    }));
  });
}

function describe(e: EntryCheck): string {
  return `${e.dataset} × ${e.method}: ${e.reasons.join('; ')}`;
}

function headline(r: CheckResult, baselineFile: string): string {
  const o = r.options;
  return `bnclab check ${r.experiment} against ${baselineFile}: tolerance ${o.tolerance} points, α = ${o.alpha} (one-sided paired Wilcoxon over folds), metrics ${o.metrics.join(', ')}${o.anyChange ? ', any change fails' : ''}`;
}

/** Plain aligned table for the terminal, then the verdict naming every failing dataset × method. */
export function renderText(r: CheckResult, baselineFile: string): string {
  const rows = [HEADER, ...lines(r)];
  const keys = Object.keys(HEADER) as (keyof Line)[];
  const widths = keys.map((k) => Math.max(...rows.map((x) => [...x[k]].length)));
  const numeric = new Set<keyof Line>(['baseline', 'current', 'change', 'p']);
  const fmt = (x: Line): string =>
    keys
      .map((k, i) => (numeric.has(k) ? x[k].padStart(widths[i]) : x[k].padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [
    headline(r, baselineFile),
    '',
    fmt(HEADER),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(fmt),
    '',
  ];
  for (const n of r.notes) out.push(`note: ${n}`);
  if (r.passed)
    out.push(
      `PASS: ${r.entries.filter((e) => e.status === 'pass').length} dataset × method result(s) are no worse than the baseline.`,
    );
  else {
    out.push(`FAIL: ${r.failures.length} dataset × method result(s) are worse than the baseline:`);
    for (const e of r.failures) out.push(`  ${describe(e)}`);
  }
  return out.join('\n') + '\n';
}

export function renderMarkdown(r: CheckResult, baselineFile: string): string {
  const md = (s: string): string => escapeMarkdown(s);
  const out = [
    `## ${r.passed ? '✅ bnclab check passed' : '❌ bnclab check failed'}: ${md(r.experiment)}`,
    '',
    md(headline(r, baselineFile)),
    '',
  ];
  if (!r.passed) {
    out.push(`**${r.failures.length} dataset × method result(s) worse than the baseline:**`, '');
    for (const e of r.failures) out.push(`- ${md(describe(e))}`);
    out.push('');
  }
  for (const n of r.notes) out.push(`> ${md(n)}`, '');
  const keys = Object.keys(HEADER) as (keyof Line)[];
  out.push(`| ${keys.map((k) => HEADER[k]).join(' | ')} |`);
  out.push(`|${keys.map((k) => (['baseline', 'current', 'change', 'p'].includes(k) ? '---:' : '---')).join('|')}|`);
  for (const l of lines(r)) {
    const bad = /^[A-Z]/.test(l.verdict); // failing verdicts are upper case
    out.push(`| ${keys.map((k) => (k === 'verdict' && bad ? `**${md(l[k])}**` : md(l[k]))).join(' | ')} |`);
  }
  return out.join('\n') + '\n';
}

function xml(s: string): string {
  // Characters XML 1.0 forbids are dropped; the five specials escaped.
  // eslint-disable-next-line no-control-regex
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** JUnit XML: one test case per dataset × method (class = experiment.dataset, name = method). */
export function renderJunit(r: CheckResult, baselineFile: string): string {
  const cases = r.entries.filter((e) => e.status !== 'new');
  const skipped = r.entries.filter((e) => e.status === 'new');
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bnclab check" tests="${cases.length + skipped.length}" failures="${r.failures.length}">`,
    `  <testsuite name="bnclab check ${xml(r.experiment)}" tests="${cases.length + skipped.length}" failures="${r.failures.length}" skipped="${skipped.length}" errors="0">`,
    `    <properties><property name="baseline" value="${xml(baselineFile)}"/><property name="tolerance_points" value="${r.options.tolerance}"/><property name="alpha" value="${r.options.alpha}"/><property name="metrics" value="${xml(r.options.metrics.join(','))}"/></properties>`,
  ];
  for (const e of [...cases, ...skipped]) {
    const open = `    <testcase classname="${xml(`${r.experiment}.${e.dataset}`)}" name="${xml(e.method)}" time="0">`;
    const detail = e.metrics
      .map(
        (m) =>
          `${scoreMetric(m.metric).title}: ${m.baseline.toFixed(6)} -> ${m.current.toFixed(6)} (${formatPoints(m.change)} points, p = ${m.p === null ? 'n/a' : m.p.toPrecision(3)}, ${m.status})`,
      )
      .join('\n');
    if (e.status === 'fail' || e.status === 'missing') {
      out.push(
        open,
        `      <failure type="regression" message="${xml(`${e.dataset} × ${e.method}: ${e.reasons.join('; ')}`)}">${xml(detail || e.reasons.join('\n'))}</failure>`,
        '    </testcase>',
      );
    } else if (e.status === 'new') {
      out.push(open, '      <skipped message="not in the baseline"/>', '    </testcase>');
    } else {
      out.push(open, `      <system-out>${xml(detail)}</system-out>`, '    </testcase>');
    }
  }
  out.push('  </testsuite>', '</testsuites>');
  return out.join('\n') + '\n';
}
