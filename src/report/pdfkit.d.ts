// The small parts of pdfkit and svg-to-pdfkit that pdf.ts uses (neither package ships type declarations).
declare module 'pdfkit' {
  interface PDFDocumentOptions {
    size?: [number, number];
    margin?: number;
    autoFirstPage?: boolean;
    compress?: boolean;
    info?: Record<string, string | Date>;
  }
  class PDFDocument {
    constructor(options?: PDFDocumentOptions);
    on(event: 'data', fn: (chunk: Buffer) => void): this;
    on(event: 'end', fn: () => void): this;
    on(event: 'error', fn: (e: Error) => void): this;
    end(): void;
    font(name: string): this;
    registerFont(name: string, file: string): this;
    fontSize(size: number): this;
    widthOfString(text: string): number;
  }
  export default PDFDocument;
}
declare module 'svg-to-pdfkit' {
  import type PDFDocument from 'pdfkit';
  function SVGtoPDF(
    doc: PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: {
      width?: number;
      height?: number;
      assumePt?: boolean;
      warningCallback?: (w: string) => void;
      fontCallback?: (family: string, bold: boolean, italic: boolean, options: object) => string;
    },
  ): void;
  export default SVGtoPDF;
}
