import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/report/figures.js';

type Doc = { font(name: string): { fontSize(size: number): { widthOfString(text: string): number } } };
const PDFDocument = createRequire(import.meta.url)('pdfkit') as new (o: { autoFirstPage: boolean }) => Doc;
const doc = new PDFDocument({ autoFirstPage: false });

/** Strings that exercise every WinAnsi character, kerning pairs, characters outside the encoding and the empty string. */
function samples(): string[] {
  const out = [
    '',
    ' ',
    'AV',
    'To',
    'Yo',
    'P.',
    'L’',
    'WAVE',
    'nb/dirichlet(alpha=0.5)',
    'tic-tac-toe',
    'αχ≤≥−∞²',
    '€‚ƒ„…†‡',
  ];
  let all = '';
  for (let c = 0; c < 0x300; c++) all += String.fromCharCode(c);
  out.push(all);
  for (let c = 32; c < 0x300; c++) out.push(String.fromCharCode(c) + 'A' + String.fromCharCode(c) + 'v');
  let s = 7;
  for (let k = 0; k < 300; k++) {
    let t = '';
    const n = (s = (s * 48271) % 2147483647) % 40;
    for (let i = 0; i < n; i++) t += String.fromCharCode(32 + ((s = (s * 48271) % 2147483647) % 224));
    out.push(t);
  }
  return out;
}

describe('text widths from the stored Helvetica metrics', () => {
  it("equal pdfkit's widthOfString bit for bit (both weights, several sizes)", () => {
    for (const bold of [false, true]) {
      for (const size of [10, 11, 13.5, 14, 15]) {
        const font = doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
        for (const t of samples()) expect(Object.is(textWidth(t, size, bold), font.widthOfString(t)), t).toBe(true);
      }
    }
  });
});
