/**
 * PDF versions of the report's SVG figures, for papers: drawn by pdfkit with svg-to-pdfkit (pure
 * JavaScript, no browser, no native module). Text uses the PDF standard Helvetica font, so a figure's PDF
 * needs no embedded font file; characters outside its WinAnsi set (Greek letters) are spelled out.
 */
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';

/** Characters the standard fonts cannot show, as text they can. */
const SPELLED: Record<string, string> = { α: 'alpha', χ: 'chi', '≤': '<=', '≥': '>=', '−': '-', '∞': 'inf', '²': '^2' };

function winAnsiText(svg: string): string {
  return svg.replace(/[αχ≤≥−∞]/g, (c) => SPELLED[c] ?? c);
}

/**
 * pdfkit refuses a dash pattern with a zero length, which Vega writes for solid strokes ("1,0"); a length of
 * 0.01 pt draws the same line.
 */
function positiveDashes(svg: string): string {
  return svg.replace(
    /(stroke-dasharray(?:="|:\s*))([\d.,\s]+)/g,
    (_m, head: string, list: string) => head + list.replace(/(^|[,\s])0+(?:\.0+)?(?=$|[,\s])/g, '$10.01'),
  );
}

function svgSize(svg: string): [number, number] {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const w = Number(/\bwidth="([\d.]+)/.exec(root)?.[1]);
  const h = Number(/\bheight="([\d.]+)/.exec(root)?.[1]);
  if (Number.isFinite(w) && Number.isFinite(h) && w > 0 && h > 0) return [w, h];
  const vb = /\bviewBox="[\d.-]+\s+[\d.-]+\s+([\d.]+)\s+([\d.]+)"/.exec(root);
  if (vb) return [Number(vb[1]), Number(vb[2])];
  throw new Error('figure SVG has neither width/height nor a viewBox');
}

/**
 * One page the size of the figure (1 SVG px = 1 pt). Deterministic: no creation date, so the same figure
 * gives the same bytes. Warnings about SVG features svg-to-pdfkit cannot draw are collected and thrown,
 * never silently dropped.
 */
export function svgToPdf(svg: string, title: string): Promise<Buffer> {
  const [width, height] = svgSize(svg);
  const doc = new PDFDocument({
    size: [width, height],
    margin: 0,
    info: { Title: title, Producer: 'bnclab', Creator: 'bnclab', CreationDate: new Date(0) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const warnings: string[] = [];
  SVGtoPDF(doc, positiveDashes(winAnsiText(svg)), 0, 0, {
    width,
    height,
    assumePt: true,
    warningCallback: (w) => warnings.push(w),
  });
  doc.end();
  return done.then((b) => {
    if (warnings.length) throw new Error(`PDF of figure '${title}': ${[...new Set(warnings)].join('; ')}`);
    return b;
  });
}
