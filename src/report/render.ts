/**
 * The report document as Markdown (figures linked as files) and as one self-contained HTML page (figures
 * inlined as SVG, styles inline, every name escaped).
 */
import type { Block, ReportDoc } from './build.js';
import { escapeHtml, escapeMarkdown, tableToHtml, tableToMarkdown } from './table.js';

function blockToMarkdown(b: Block): string {
  switch (b.kind) {
    case 'p':
      return escapeMarkdown(b.text);
    case 'list':
      return b.items.map((i) => `- ${escapeMarkdown(i)}`).join('\n');
    case 'table':
      return tableToMarkdown(b.table);
    case 'figure':
      return `![${escapeMarkdown(b.figure.title)}](figures/${b.figure.id}.svg)\n\n*${escapeMarkdown(b.figure.caption)}*`;
  }
}

export function renderMarkdown(doc: ReportDoc): string {
  const parts: string[] = [`# ${escapeMarkdown(doc.title)}`];
  for (const b of doc.intro) parts.push(blockToMarkdown(b));
  for (const s of doc.sections) {
    parts.push(`${'#'.repeat(s.level)} ${escapeMarkdown(s.title)}`);
    for (const b of s.blocks) parts.push(blockToMarkdown(b));
  }
  return parts.join('\n\n') + '\n';
}

/**
 * An SVG ready to inline: the ids Vega generates (clip paths, gradients) are the same in every figure, so
 * each figure's ids get its own prefix to keep the page's ids unique and references pointing home.
 */
export function inlineSvg(svg: string, prefix: string): string {
  const ids = new Set<string>();
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) ids.add(m[1]);
  let out = svg.replace(/^<\?xml[^>]*>\s*/, '');
  if (ids.size) {
    out = out
      .replace(/(\sid=")([^"]+)(")/g, (_m, a: string, id: string, c: string) => `${a}${prefix}-${id}${c}`)
      .replace(/url\(#([^)]+)\)/g, (m, id: string) => (ids.has(id) ? `url(#${prefix}-${id})` : m))
      .replace(/(href=")#([^"]+)(")/g, (m, a: string, id: string, c: string) =>
        ids.has(id) ? `${a}#${prefix}-${id}${c}` : m,
      );
  }
  return out;
}

const STYLE = `
body { font-family: Helvetica, Arial, sans-serif; font-size: 14px; margin: 2em auto; max-width: 96em; padding: 0 1.5em; color: #222; line-height: 1.45; }
nav.toc { border: 1px solid #ddd; background: #fafafa; padding: 0.4em 1.2em; margin: 1em 0 2em; }
nav.toc ul { margin: 0.2em 0; padding-left: 1.2em; } nav.toc > ul { columns: 2 22em; }
nav.toc a { color: #1f4e8c; text-decoration: none; } nav.toc a:hover { text-decoration: underline; }
.figure-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(460px, 100%), 1fr)); gap: 1.2em 2em; align-items: start; }
.table-wrap { max-width: 100%; overflow-x: auto; -webkit-overflow-scrolling: touch; }
@media (max-width: 640px) { body { padding: 0 0.6em; margin: 1em auto; } nav.toc > ul { columns: 1; } caption { max-width: 92vw; } }
.figure-grid figure.wide { grid-column: 1 / -1; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ddd; } h3 { font-size: 1.1em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.9em; }
caption { caption-side: top; text-align: left; padding: 0.3em 0; color: #444; max-width: 60em; }
thead th { border-top: 2px solid #222; border-bottom: 1px solid #222; }
tbody tr:last-child td { border-bottom: 2px solid #222; }
th, td { padding: 0.25em 0.7em; text-align: left; white-space: nowrap; vertical-align: top; }
th.prose, td.prose { white-space: normal; min-width: 12em; max-width: 34em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; } td.c, th.c { text-align: center; }
tr.rule td { border-top: 1px solid #222; }
p.note { font-size: 0.85em; color: #555; margin: 0.2em 0; }
figure { margin: 1em 0 2em; } figcaption { color: #444; max-width: 60em; }
figure svg { max-width: 100%; height: auto; }
figure svg [role="graphics-symbol"] { cursor: help; }
`;

function blockToHtml(b: Block): string {
  switch (b.kind) {
    case 'p':
      return `<p>${escapeHtml(b.text)}</p>`;
    case 'list':
      return `<ul>\n${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>`;
    case 'table':
      // A table wider than the screen scrolls sideways in its own box instead of widening the page.
      return `<div class="table-wrap">\n${tableToHtml(b.table)}\n</div>`;
    case 'figure': {
      const wide = svgWidth(b.figure.svg) > 700 ? ' class="wide"' : '';
      return `<figure id="figure-${escapeHtml(b.figure.id)}"${wide}>\n${inlineSvg(b.figure.svg, `f-${b.figure.id.replace(/[^A-Za-z0-9_-]/g, '_')}`)}\n<figcaption>${escapeHtml(b.figure.caption)}</figcaption>\n</figure>`;
    }
  }
}

function svgWidth(svg: string): number {
  return Number(/<svg\b[^>]*?\swidth="([\d.]+)/.exec(svg)?.[1] ?? 0);
}

/** Blocks as HTML, consecutive figures side by side in a responsive grid (one column on a narrow screen). */
function blocksToHtml(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < blocks.length; ) {
    if (blocks[i].kind !== 'figure') {
      out.push(blockToHtml(blocks[i++]));
      continue;
    }
    const figs: string[] = [];
    while (i < blocks.length && blocks[i].kind === 'figure') figs.push(blockToHtml(blocks[i++]));
    out.push(`<div class="figure-grid">\n${figs.join('\n')}\n</div>`);
  }
  return out;
}

/** Anchor ids for the section headings, unique within the page. */
function sectionIds(doc: ReportDoc): string[] {
  const used = new Set<string>();
  return doc.sections.map((s) => {
    const base = `s-${
      s.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'section'
    }`;
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}-${i}`;
    used.add(id);
    return id;
  });
}

/** The table of contents: level-2 sections with their level-3 sections nested. */
function tocHtml(doc: ReportDoc, ids: readonly string[]): string {
  const items: string[] = [];
  let open = false;
  doc.sections.forEach((s, i) => {
    const link = `<a href="#${ids[i]}">${escapeHtml(s.title)}</a>`;
    if (s.level === 2) {
      if (open) items.push('</ul></li>');
      items.push(`<li>${link}<ul>`);
      open = true;
    } else if (open) items.push(`<li>${link}</li>`);
    else items.push(`<li>${link}</li>`);
  });
  if (open) items.push('</ul></li>');
  return `<nav class="toc">\n<strong>Contents</strong>\n<ul>\n${items.join('\n').replace(/<ul><\/ul>/g, '')}\n</ul>\n</nav>`;
}

/** One self-contained page (no external files or scripts). */
export function renderHtml(doc: ReportDoc): string {
  const body: string[] = [`<h1>${escapeHtml(doc.title)}</h1>`];
  body.push(...blocksToHtml(doc.intro));
  const ids = sectionIds(doc);
  if (doc.sections.length > 1) body.push(tocHtml(doc, ids));
  doc.sections.forEach((s, i) => {
    body.push(`<h${s.level} id="${ids[i]}">${escapeHtml(s.title)}</h${s.level}>`);
    body.push(...blocksToHtml(s.blocks));
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(doc.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
