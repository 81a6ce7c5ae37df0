/**
 * One neutral table model rendered four ways: Markdown, LaTeX (booktabs), HTML and CSV. Every text that
 * comes from data (dataset and method names) is escaped for the target format here, and nowhere else.
 */

export interface TableCell {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
  /** The unformatted value for CSV (full precision); the text is used when absent. */
  readonly value?: number | string | null;
  /** Values of the column's `csvExtra` columns, by name (CSV only: the text already shows them). */
  readonly extra?: Readonly<Record<string, number | string | null>>;
}

export interface TableRow {
  readonly cells: readonly TableCell[];
  /** Draw a rule above this row (summary rows such as averages). */
  readonly ruleAbove?: boolean;
  /**
   * A row summarizing the others (average, average rank): shown in every rendering, but kept out of the
   * table's CSV, which tools such as scmamp and autorank read as one row per dataset; it goes to
   * <id>-summary.csv instead.
   */
  readonly summary?: boolean;
}

export interface TableColumn {
  readonly header: string;
  readonly align: 'l' | 'r' | 'c';
  /**
   * A column of sentences (a claim, the why of a verdict, an error): it wraps (HTML; a paragraph column in
   * LaTeX) instead of widening the table until its verdicts are off the screen.
   */
  readonly prose?: boolean;
  /**
   * Extra CSV columns after this one, `<header> <name>` each, filled from the cells' `extra` (a mean's sd and
   * Weka's v/* mark: shown in the cell's text, in columns of their own in the CSV).
   */
  readonly csvExtra?: readonly string[];
}

export interface Table {
  /** File stem for tables/<id>.tex and tables/<id>.csv. */
  readonly id: string;
  readonly caption: string;
  readonly columns: readonly TableColumn[];
  readonly rows: readonly TableRow[];
  readonly notes?: readonly string[];
}

export function cell(
  text: string,
  opts: {
    bold?: boolean;
    italic?: boolean;
    value?: number | string | null;
    extra?: Readonly<Record<string, number | string | null>>;
  } = {},
): TableCell {
  return { text, ...opts };
}

// ---- Markdown ----

export function escapeMarkdown(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/([*_`[\]<>])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

function mdCell(c: TableCell): string {
  if (!c.text) return '';
  let t = escapeMarkdown(c.text);
  if (c.bold) t = `**${t}**`;
  if (c.italic) t = `*${t}*`;
  return t;
}

export function tableToMarkdown(t: Table): string {
  const align = (a: TableColumn['align']): string => (a === 'r' ? '---:' : a === 'c' ? ':---:' : '---');
  const lines = [
    `| ${t.columns.map((c) => escapeMarkdown(c.header)).join(' | ')} |`,
    `|${t.columns.map((c) => align(c.align)).join('|')}|`,
  ];
  for (const r of t.rows) {
    lines.push(`| ${r.cells.map(mdCell).join(' | ')} |`);
  }
  const out = [`*${escapeMarkdown(t.caption)}*`, '', ...lines];
  if (t.notes?.length) out.push('', ...t.notes.map((n) => `> ${escapeMarkdown(n)}`));
  return out.join('\n');
}

// ---- LaTeX (booktabs) ----

const TEX_TEXT: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '#': '\\#',
  $: '\\$',
  '%': '\\%',
  '&': '\\&',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  '–': '--',
  '—': '---',
  '…': '\\ldots{}',
  // The per-dataset tables' footnote marks (fewer folds than planned; a metric undefined on a fold).
  '†': '\\textdagger{}',
  '‡': '\\textdaggerdbl{}',
};

/** Characters typeset in math mode; consecutive ones share one $…$. */
const TEX_MATH: Record<string, string> = {
  '±': '\\pm ',
  '−': '-',
  '≤': '\\le ',
  '≥': '\\ge ',
  '×': '\\times ',
  α: '\\alpha ',
  χ: '\\chi ',
  '²': '^2',
  '⁺': '^+',
  '⁻': '^-',
  '→': '\\rightarrow ',
  '∞': '\\infty ',
  '√': '\\surd ',
};

/** Escape text for LaTeX: specials escaped; the report's own symbols (±, α, χ², ≤ …) become math. */
export function escapeLatex(s: string): string {
  let out = '';
  let math = '';
  const flush = (): void => {
    if (math) out += `$${math.trimEnd()}$`;
    math = '';
  };
  for (const ch of s) {
    const m = TEX_MATH[ch];
    if (m !== undefined) {
      math += m;
      continue;
    }
    flush();
    const t = TEX_TEXT[ch];
    out += t ?? ch; // other UTF-8 (accented names) passes through: LaTeX reads UTF-8 input by default since 2018
  }
  flush();
  return out;
}

function texCell(c: TableCell): string {
  if (!c.text) return '';
  let t = escapeLatex(c.text);
  if (c.bold) t = `\\textbf{${t}}`;
  if (c.italic) t = `\\emph{${t}}`;
  return t;
}

/** A LaTeX label unique across experiments: tab:<experiment>:<table id> (tab:<table id> without one). */
function latexLabel(id: string, experiment?: string): string {
  const safe = (s: string): string => s.replace(/[^A-Za-z0-9:-]/g, '-');
  return `tab:${experiment ? `${safe(experiment)}:` : ''}${safe(id)}`;
}

/** A prose column's width in LaTeX: under a fifth of the text width each (not checked by compiling: no LaTeX here). */
const PROSE_LATEX = 'p{0.18\\linewidth}';

export function tableToLatex(t: Table, experiment?: string): string {
  const lines: string[] = [];
  lines.push('% Generated by bnclab; needs \\usepackage{booktabs}.');
  lines.push('\\begin{table}[htbp]');
  lines.push('\\centering');
  lines.push(`\\caption{${escapeLatex(t.caption)}}`);
  lines.push(`\\label{${latexLabel(t.id, experiment)}}`);
  lines.push(`\\begin{tabular}{${t.columns.map((c) => (c.prose ? PROSE_LATEX : c.align)).join('')}}`);
  lines.push('\\toprule');
  lines.push(`${t.columns.map((c) => escapeLatex(c.header)).join(' & ')} \\\\`);
  lines.push('\\midrule');
  for (const r of t.rows) {
    if (r.ruleAbove) lines.push('\\midrule');
    lines.push(`${r.cells.map(texCell).join(' & ')} \\\\`);
  }
  lines.push('\\bottomrule');
  lines.push('\\end{tabular}');
  if (t.notes?.length) {
    lines.push('\\par\\smallskip\\footnotesize');
    for (const n of t.notes) lines.push(`${escapeLatex(n)}\\par`);
  }
  lines.push('\\end{table}');
  return lines.join('\n') + '\n';
}

// ---- HTML ----

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function tableToHtml(t: Table): string {
  const cls = (c: TableColumn | undefined): string => {
    const names = [c?.align === 'r' ? 'num' : c?.align === 'c' ? 'c' : '', c?.prose ? 'prose' : ''].filter(Boolean);
    return names.length ? ` class="${names.join(' ')}"` : '';
  };
  const out: string[] = [];
  out.push(`<table id="table-${escapeHtml(t.id)}">`);
  out.push(`<caption>${escapeHtml(t.caption)}</caption>`);
  out.push(`<thead><tr>${t.columns.map((c) => `<th${cls(c)}>${escapeHtml(c.header)}</th>`).join('')}</tr></thead>`);
  out.push('<tbody>');
  for (const r of t.rows) {
    const tds = r.cells.map((c, i) => {
      let inner = escapeHtml(c.text);
      if (c.bold && c.text) inner = `<strong>${inner}</strong>`;
      if (c.italic && c.text) inner = `<em>${inner}</em>`;
      return `<td${cls(t.columns[i])}>${inner}</td>`;
    });
    out.push(`<tr${r.ruleAbove ? ' class="rule"' : ''}>${tds.join('')}</tr>`);
  }
  out.push('</tbody>');
  out.push('</table>');
  if (t.notes?.length) out.push(...t.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`));
  return out.join('\n');
}

// ---- CSV ----

export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NA' : v > 0 ? 'Inf' : '-Inf';
  return /[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function csvRows(t: Table, rows: readonly TableRow[]): string {
  const lines = [
    t.columns.flatMap((c) => [c.header, ...(c.csvExtra ?? []).map((e) => `${c.header} ${e}`)].map(csvField)).join(','),
  ];
  for (const r of rows) {
    const fields = r.cells.flatMap((c, i) => [
      csvField(c.value !== undefined ? c.value : c.text),
      ...(t.columns[i]?.csvExtra ?? []).map((e) => csvField(c.extra?.[e] ?? null)),
    ]);
    lines.push(fields.join(','));
  }
  return lines.join('\n') + '\n';
}

/** The table's data rows as CSV (summary rows left out: see tableSummaryCsv). */
export function tableToCsv(t: Table): string {
  return csvRows(
    t,
    t.rows.filter((r) => !r.summary),
  );
}

/** The summary rows (average, average rank) as CSV with the same header; null when the table has none. */
export function tableSummaryCsv(t: Table): string | null {
  const rows = t.rows.filter((r) => r.summary);
  return rows.length ? csvRows(t, rows) : null;
}

// ---- number formatting shared by the tables ----

/** Fixed decimals; '–' for a missing or non-finite value. */
export function fixed(x: number | null | undefined, digits: number): string {
  if (x === Infinity) return '∞';
  return x !== null && x !== undefined && Number.isFinite(x) ? x.toFixed(digits) : '–';
}

/** A p-value as papers print it: 4 significant digits, scientific below 1e-4. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return '–';
  if (p === 0) return '0';
  if (p < 1e-4) return p.toExponential(2);
  return p < 0.001 ? p.toFixed(5) : p.toFixed(4);
}
