import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';

export interface TestPdfOptions {
  /** One entry per page: its lines. */
  pages: string[][];
  title?: string;
  author?: string;
  created?: Date;
  /** Marks the file encrypted with an unknown user password (PDF.js then asks for it). */
  encrypted?: boolean;
}

/** A real PDF built with pdf-lib: text pages, metadata, optionally password-protected. */
export async function makePdf(options: TestPdfOptions): Promise<Buffer> {
  const doc = await PDFDocument.create();
  if (options.title) doc.setTitle(options.title);
  if (options.author) doc.setAuthor(options.author);
  if (options.created) doc.setCreationDate(options.created);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of options.pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 750 - i * 14, font, size: 10 }));
  }
  if (options.encrypted) {
    // The standard security handler with owner and user keys that no empty password matches.
    const ctx = doc.context;
    ctx.trailerInfo.Encrypt = ctx.register(
      ctx.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, P: -4, O: PDFHexString.of('11'.repeat(32)), U: PDFHexString.of('22'.repeat(32)) }),
    );
    ctx.trailerInfo.ID = ctx.obj([PDFHexString.of('ab'.repeat(16)), PDFHexString.of('ab'.repeat(16))]);
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
