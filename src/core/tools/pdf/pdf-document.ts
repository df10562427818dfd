import { packagePath } from '../../packages/package-loader';
import { PackageUnavailableError } from '../../packages/package-unavailable';
import { ToolError } from '../tool';
import { PdfWorker } from './pdf-worker';

/** What the tool reports about a document besides its text. */
export interface PdfInfo {
  pageCount: number;
  title?: string;
  author?: string;
  subject?: string;
  /** ISO date (yyyy-mm-dd) when the PDF carries a readable one. */
  created?: string;
}

export interface OpenPdf {
  info: PdfInfo;
  /** The text of one page (1-based), lines as the PDF breaks them. */
  pageText(page: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens PDF bytes with unpdf (PDF.js), in a worker thread (pdf-worker.ts says why). Encrypted and
 * damaged files become ToolErrors the model can act on; `shown` names the file in them. unpdf is
 * loaded on first use (PDF.js is large; the extension may download it then).
 */
export async function openPdf(bytes: Uint8Array, shown: string): Promise<OpenPdf> {
  const unpdf = await packagePath('unpdf').catch((err: unknown) => {
    throw err instanceof PackageUnavailableError ? new ToolError('other', err.message) : err;
  });
  const worker = new PdfWorker(unpdf);
  try {
    const opened = await worker.open(bytes);
    return { info: readInfo(opened.pageCount, opened.info), pageText: (page) => pageText(worker, page, shown), close: () => worker.close() };
  } catch (err) {
    await worker.close().catch(() => undefined);
    throw pdfError(err, shown);
  }
}

function readInfo(pageCount: number, info: Record<string, string>): PdfInfo {
  const text = (key: string): string | undefined => info[key]?.trim() || undefined;
  const created = pdfDate(text('CreationDate'));
  return {
    pageCount,
    ...(text('Title') ? { title: text('Title') } : {}),
    ...(text('Author') ? { author: text('Author') } : {}),
    ...(text('Subject') ? { subject: text('Subject') } : {}),
    ...(created ? { created } : {}),
  };
}

async function pageText(worker: PdfWorker, page: number, shown: string): Promise<string> {
  try {
    return (await worker.pageText(page)).replace(/[ \t]+\n/g, '\n').trim();
  } catch (err) {
    throw pdfError(err, `page ${page} of ${shown}`);
  }
}

/** "D:20240301100000Z" (the PDF date format) → "2024-03-01"; undefined when it is not one. */
export function pdfDate(value: string | undefined): string | undefined {
  const match = value?.match(/^(?:D:)?(\d{4})(\d{2})?(\d{2})?/);
  if (!match) return undefined;
  return [match[1], match[2], match[3]].filter(Boolean).join('-');
}

/** PDF.js's exceptions by name (they are not exported as classes we could test with instanceof). */
function pdfError(err: unknown, shown: string): ToolError {
  if (err instanceof ToolError) return err;
  const name = (err as Error | undefined)?.name ?? '';
  const message = ((err as Error | undefined)?.message ?? String(err)).replace(/\.$/, '');
  if (name === 'PasswordException') {
    return new ToolError('permission', `${shown} is encrypted (password-protected), so its text cannot be read. Ask the user for an unprotected copy.`);
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
    return new ToolError('other', `${shown} is damaged or not a valid PDF (${message}). Ask the user for an intact copy.`);
  }
  return new ToolError('other', `${shown} could not be read as a PDF: ${message}`);
}
