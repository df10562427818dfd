import { open, stat } from 'node:fs/promises';
import * as z from 'zod';
import { formatBytes } from '../format-bytes';
import { sectionText } from '../template-text';
import { describePages, PageRangesSchema, selectPages } from './pdf/page-ranges';
import { openPdf, type PdfInfo } from './pdf/pdf-document';
import { ToolError, type Tool } from './tool';
import { displayPath, resolveReadable } from '../files/workspace-path';

/** PDF.js holds the whole file in memory (in the extension host, too). */
const MAX_PDF_BYTES = 50 * 1024 * 1024;
/**
 * Past this the pages that did not fit are named with the call that reads them. Anything over
 * 8,000 characters is offloaded to the scratch folder anyway; the page markers keep it searchable.
 */
const MAX_OUTPUT_CHARS = 60_000;
const TEXTS = 'pdf/texts.md';

const schema = z.lazy(() => z.object({
  path: z.string().min(1).describe('Workspace-relative or absolute path of the PDF.'),
  pages: PageRangesSchema.optional().describe('Pages to read, e.g. "1-3,5" (default: all).'),
}));

export const readPdfTool: Tool<typeof schema> = {
  name: 'read_pdf',
  category: 'file',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const absolute = resolveReadable(ctx.workspaceRoot, args.path, ctx.readableDirs);
    const shown = displayPath(ctx.workspaceRoot, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new ToolError('not_found', `${shown} does not exist. Check the path with list_files or search.`);
    if (!info.isFile()) throw new ToolError('other', `${shown} is not a file.`);
    if (info.size > MAX_PDF_BYTES) throw new ToolError('other', `${shown} is ${formatBytes(info.size)}; read_pdf reads PDFs up to ${formatBytes(MAX_PDF_BYTES)}.`);
    const bytes = await readBytes(absolute);
    // The signature, not the extension: a page saved as "report.pdf" is HTML.
    if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) {
      throw new ToolError('other', `${shown} is not a PDF (it does not start with the %PDF- signature)${bytes.length === 0 ? ': the file is empty' : ''}. Use read_file for text files.`);
    }
    const pdf = await openPdf(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), shown);
    try {
      const selected = selectPages(args.pages, pdf.info.pageCount);
      if ('error' in selected) throw new ToolError('other', `${selected.error}. Ask for pages within 1-${pdf.info.pageCount}.`);
      const parts: string[] = [];
      const empty: number[] = [];
      let size = 0;
      const read: number[] = [];
      for (const page of selected.pages) {
        if (ctx.signal.aborted) throw new ToolError('other', 'stopped');
        const text = await pdf.pageText(page);
        if (!text) empty.push(page);
        const part = `--- Page ${page} ---\n${text || '(no text on this page)'}`;
        if (size + part.length > MAX_OUTPUT_CHARS && read.length > 0) break;
        parts.push(part.length > MAX_OUTPUT_CHARS ? `${part.slice(0, MAX_OUTPUT_CHARS)}\n… [page cut at ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} chars]` : part);
        size += part.length;
        read.push(page);
      }
      const rest = selected.pages.slice(read.length);
      const lines = [header(shown, pdf.info, read), ...parts];
      if (empty.length > 0) lines.push(sectionText(TEXTS, 'no_text_layer', { PAGES: `page${empty.length > 1 ? 's' : ''} ${describePages(empty)}` }));
      if (rest.length > 0) lines.push(sectionText(TEXTS, 'output_cap', { PAGES: describePages(rest), RANGE: describePages(rest).replace(/ /g, '') }));
      const chars = parts.join('').length;
      return {
        ok: true,
        output: lines.join('\n\n'),
        summary: `✓ Read ${shown}: page${read.length === 1 ? '' : 's'} ${describePages(read)} of ${pdf.info.pageCount} (${chars.toLocaleString('en-US')} chars${rest.length > 0 ? `, ${rest.length} more pages not shown` : ''})`,
      };
    } finally {
      await pdf.close();
    }
  },
};

function header(shown: string, info: PdfInfo, pages: readonly number[]): string {
  const lines = [`PDF: ${shown} (${info.pageCount} page${info.pageCount === 1 ? '' : 's'})`];
  if (info.title) lines.push(`Title: ${info.title}`);
  if (info.author) lines.push(`Author: ${info.author}`);
  if (info.subject) lines.push(`Subject: ${info.subject}`);
  if (info.created) lines.push(`Created: ${info.created}`);
  if (pages.length < info.pageCount) lines.push(`Pages shown: ${describePages(pages)}`);
  return lines.join('\n');
}

async function readBytes(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
