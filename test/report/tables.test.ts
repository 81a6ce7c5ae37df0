import { describe, expect, it } from 'vitest';
import {
  cell,
  escapeLatex,
  formatP,
  tableToCsv,
  tableToHtml,
  tableToLatex,
  tableToMarkdown,
  type Table,
} from '../../src/report/table.js';
import { readCsv } from '../../src/report/csv.js';
import { inlineSvg } from '../../src/report/render.js';
import { assertValidSvg, findAll, parseXml, textOf } from './xml.js';

const NASTY = 'a<b>&"c\'|d_e*f%#$\\{x}~^';

const T: Table = {
  id: 'demo',
  caption: `Caption with ${NASTY} and χ² ≤ α ± 1`,
  columns: [
    { header: 'dataset', align: 'l' },
    { header: NASTY, align: 'r' },
  ],
  rows: [
    { cells: [cell(NASTY), cell('0.9000', { bold: true, value: 0.9 })] },
    { ruleAbove: true, cells: [cell('average rank', { italic: true }), cell('1.50', { value: 1.5 })] },
  ],
  notes: ['source: Table 2 of <the paper> & co'],
};

describe('table rendering escapes names for every format', () => {
  it('Markdown: pipes and emphasis characters cannot break the table', () => {
    const md = tableToMarkdown(T);
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    // Every row splits into exactly 2 cells on unescaped pipes.
    for (const r of rows) expect(r.split(/(?<!\\)\|/).length - 2).toBe(2);
    expect(md).toContain('**0.9000**');
    expect(md).toContain('*average rank*');
    expect(md).toContain('a\\<b\\>&"c\'\\|d\\_e\\*f%#$\\\\{x}~^');
  });

  it('LaTeX: specials escaped, symbols in math mode, booktabs rules, bold and emphasis', () => {
    expect(escapeLatex(NASTY)).toBe(
      'a\\textless{}b\\textgreater{}\\&"c\'\\textbar{}d\\_e*f\\%\\#\\$\\textbackslash{}\\{x\\}\\textasciitilde{}\\textasciicircum{}',
    );
    expect(escapeLatex('χ² ≤ α')).toBe('$\\chi ^2$ $\\le$ $\\alpha$');
    expect(escapeLatex('$χ')).toBe('\\$$\\chi$');
    const tex = tableToLatex(T);
    expect(tex).toContain('\\toprule');
    expect(tex).toContain('\\midrule\n\\emph{average rank} & 1.50 \\\\');
    expect(tex).toContain('\\textbf{0.9000}');
    expect(tex).toContain('\\begin{tabular}{lr}');
    // No unescaped specials left in data cells: every & is a column separator or escaped.
    const body = tex.split('\n').filter((l) => l.includes('\\\\') && !l.startsWith('%'));
    for (const l of body) expect(l.replace(/\\&/g, '').split('&').length).toBe(2);
  });

  it('HTML: parses as XML and the text round-trips exactly', () => {
    const html = tableToHtml(T);
    const root = parseXml(`<div>${html}</div>`);
    const tds = findAll(root, 'td');
    expect(textOf(tds[0])).toBe(NASTY);
    expect(findAll(root, 'strong').map(textOf)).toEqual(['0.9000']);
    expect(findAll(root, 'em').map(textOf)).toEqual(['average rank']);
    expect(textOf(findAll(root, 'caption')[0])).toBe(T.caption);
    expect(textOf(findAll(root, 'th')[1])).toBe(NASTY);
  });

  it('CSV: full-precision values, quoting, and it reads back', () => {
    const csv = tableToCsv(T);
    expect(csv.split('\n')[1]).toBe(`"a<b>&""c'|d_e*f%#$\\{x}~^",0.9`);
    const back = readCsv(csv, 'mem.csv');
    expect(back.records[0].fields).toEqual([NASTY, '0.9']);
    expect(back.records[1].fields).toEqual(['average rank', '1.5']);
  });

  it('a prose column wraps: class "prose" in HTML (the report\'s style lets it wrap), a paragraph column in LaTeX', () => {
    const t: Table = {
      id: 'claims',
      caption: 'c',
      columns: [
        { header: 'id', align: 'l' },
        { header: 'p', align: 'r' },
        { header: 'why', align: 'l', prose: true },
      ],
      rows: [{ cells: [cell('T1'), cell('0.01'), cell('a long reason '.repeat(20))] }],
    };
    const html = parseXml(tableToHtml(t));
    const classes = findAll(html, 'td').map((td) => td.attrs['class'] ?? '');
    expect(classes).toEqual(['', 'num', 'prose']);
    expect(findAll(html, 'th').map((th) => th.attrs['class'] ?? '')).toEqual(['', 'num', 'prose']);
    expect(tableToLatex(t)).toContain('\\begin{tabular}{lrp{0.18\\linewidth}}');
  });

  it('formats p-values as papers print them', () => {
    expect(formatP(0.0126098)).toBe('0.0126');
    expect(formatP(0.000545403)).toBe('0.00055');
    expect(formatP(1.7098236e-4)).toBe('0.00017');
    expect(formatP(4.486991e-8)).toBe('4.49e-8');
    expect(formatP(NaN)).toBe('–');
  });
});

describe('reference CSV reader', () => {
  it('keeps # lines as comments, handles quotes, CRLF and a BOM, and names the line of a ragged record', () => {
    const doc = readCsv(
      '\uFEFF# Petitjean et al. 2018, Table 2\r\nmetric,method_a,"method,b"\r\nrmse,"HDP ""x""",m\r\n\r\n',
      'r.csv',
    );
    expect(doc.comments).toEqual(['Petitjean et al. 2018, Table 2']);
    expect(doc.header).toEqual(['metric', 'method_a', 'method,b']);
    expect(doc.records).toEqual([{ fields: ['rmse', 'HDP "x"', 'm'], line: 3 }]);
    expect(() => readCsv('a,b\n1,2\n3\n', 'bad.csv')).toThrow('bad.csv:3: 1 fields, the header has 2');
  });
});

describe('the XML checker used by the report tests fails on broken markup', () => {
  it.each([
    ['<p><b></p></b>', /closes <b>/],
    ['<p>a < b</p>', /not starting a tag/],
    ['<p a=1></p>', /not quoted/],
    ['<p>&nbsp;</p>', /unknown entity/],
    ['<p>AT&T</p>', /not starting an entity/],
    ['<p a="1" a="2"></p>', /duplicate attribute/],
    ['<p>', /unclosed/],
  ])('%s', (src, err) => {
    expect(() => parseXml(src)).toThrow(err);
  });

  it('rejects an SVG with a dangling reference or a non-SVG element', () => {
    const ok =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><defs><clipPath id="c"><rect width="5" height="5"/></clipPath></defs><path d="M0,0L5,5Z" clip-path="url(#c)"/></svg>';
    expect(assertValidSvg(ok).name).toBe('svg');
    expect(() => assertValidSvg(ok.replace('url(#c)', 'url(#d)'))).toThrow(/#d/);
    expect(() => assertValidSvg(ok.replace('<defs>', '<div/><defs>'))).toThrow(/<div> is not an SVG element/);
    expect(() => assertValidSvg(ok.replace(' xmlns="http://www.w3.org/2000/svg"', ''))).toThrow(/namespace/);
  });

  it('inlineSvg gives each figure its own ids and rewrites the references', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><clipPath id="clip1"><rect width="1" height="1"/></clipPath><g clip-path="url(#clip1)"/></svg>';
    const a = inlineSvg(svg, 'f-a');
    expect(a).toContain('id="f-a-clip1"');
    expect(a).toContain('url(#f-a-clip1)');
    assertValidSvg(a);
  });
});
