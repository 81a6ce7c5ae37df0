/**
 * PDF versions of the report's SVG figures, for papers: drawn by pdfkit with svg-to-pdfkit (pure
 * JavaScript, no browser, no native module). Text is set in Arimo (SIL Open Font License, from the npm
 * package @expo-google-fonts/arimo, installed with bnclab, never fetched at run time), embedded as a subset:
 * Arimo has Helvetica's and Arial's metrics, so text takes the width the figures were laid out with
 * (figures.ts measures it in Helvetica), and it has the symbols the figures print (α, χ², ≤, −, ∞), which the
 * PDF standard fonts lack. Publishers' checks reject PDFs whose fonts are not embedded.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';

let fontFiles: { regular: string; bold: string; italic: string; boldItalic: string } | undefined;

/** The Arimo files of the installed package. */
function fonts(): NonNullable<typeof fontFiles> {
  if (!fontFiles) {
    const dir = dirname(createRequire(import.meta.url).resolve('@expo-google-fonts/arimo/package.json'));
    fontFiles = {
      regular: join(dir, '400Regular', 'Arimo_400Regular.ttf'),
      bold: join(dir, '700Bold', 'Arimo_700Bold.ttf'),
      italic: join(dir, '400Regular_Italic', 'Arimo_400Regular_Italic.ttf'),
      boldItalic: join(dir, '700Bold_Italic', 'Arimo_700Bold_Italic.ttf'),
    };
  }
  return fontFiles;
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
  const f = fonts();
  doc.registerFont('Arimo', f.regular);
  doc.registerFont('Arimo-Bold', f.bold);
  doc.registerFont('Arimo-Italic', f.italic);
  doc.registerFont('Arimo-BoldItalic', f.boldItalic);
  const warnings: string[] = [];
  SVGtoPDF(doc, positiveDashes(svg), 0, 0, {
    width,
    height,
    assumePt: true,
    warningCallback: (w) => warnings.push(w),
    // Every family the figures name (Helvetica, Arial, sans-serif) is set in Arimo, its metric twin.
    fontCallback: (_family, bold, italic) =>
      `Arimo${bold && italic ? '-BoldItalic' : bold ? '-Bold' : italic ? '-Italic' : ''}`,
  });
  doc.end();
  return done.then((b) => {
    if (warnings.length) throw new Error(`PDF of figure '${title}': ${[...new Set(warnings)].join('; ')}`);
    return b;
  });
}
