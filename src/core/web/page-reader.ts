import type { Page } from 'playwright-core';
import { ToolError } from '../tools/tool';
import { BrowserUnavailableError } from './browser';
import { contentKind, formatBytes } from './content-kind';
import { parseHtml, textOf } from './html-document';
import { htmlToMarkdown } from './html-to-markdown';
import { openUrl } from './http-fetch';
import { looksScriptRendered } from './js-rendering';
import { pageLinks, type PageLink } from './page-links';
import type { WebSession } from './web-session';

/** Bytes of one page read at most (the markdown is capped separately, later). */
const MAX_PAGE_BYTES = 5 * 1024 * 1024;

export interface PageReading {
  /** Where the page ended up (after redirects). */
  url: string;
  title: string;
  markdown: string;
  links: PageLink[];
  /** What the reader should know: rendered, not rendered and why, truncated, redirected. */
  notes: string[];
}

export interface ReadOptions {
  /** true: always through the browser; false: never; undefined: when the static HTML is a JavaScript shell. */
  render?: boolean;
  signal?: AbortSignal;
}

/**
 * One page as markdown. HTML is converted; a page that JavaScript builds is rendered in the
 * session's browser first (without one, the static HTML is used and a note says how to get a
 * browser); plain text is returned as is; PDFs and other files are refused, never downloaded.
 */
export async function readPage(url: URL, web: WebSession, options: ReadOptions = {}): Promise<PageReading> {
  const response = await openUrl(url, { timeoutMs: web.timeoutMs, maxBytes: MAX_PAGE_BYTES, signal: options.signal });
  const kind = contentKind(response.mediaType, response.mediaType === '' || response.mediaType === 'application/octet-stream' ? await response.peek() : undefined);
  const size = response.declaredBytes !== undefined ? formatBytes(response.declaredBytes) : 'size unknown';
  if (kind === 'pdf') {
    response.discard();
    throw new ToolError('other', `${response.url} is a PDF (${size}), not a web page: fetch_url does not download files. Download it with run_command (curl -sSL -o <name>.pdf '<url>') and read it with read_pdf.`);
  }
  if (kind === 'binary') {
    response.discard();
    throw new ToolError('other', `${response.url} is a file (${response.mediaType || 'binary'}, ${size}), not a web page: fetch_url does not download files. If the user wants the file, download it with run_command (curl -sSL -o <file> '<url>').`);
  }
  const notes: string[] = [];
  if (response.redirected) notes.push(`Redirected from ${url.href}.`);
  const body = await response.text();
  if (body.truncated) notes.push(`Only the first ${formatBytes(MAX_PAGE_BYTES)} of the page were read.`);
  if (kind === 'text') return { url: response.url, title: '', markdown: body.text.trim(), links: [], notes };

  let finalUrl = response.url;
  let doc = parseHtml(body.text);
  const shell = looksScriptRendered(doc);
  if (options.render === true || (options.render === undefined && shell)) {
    const why = shell ? 'the page builds its content with JavaScript' : 'rendering was asked for';
    try {
      const rendered = await web.browser.withPage((page) => renderedHtml(page, finalUrl, web.timeoutMs), { signal: options.signal });
      doc = parseHtml(rendered.html);
      finalUrl = rendered.url;
      notes.push(`Rendered in Chromium (${why}).`);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const reason = err instanceof BrowserUnavailableError ? err.message : `Rendering failed: ${(err as Error).message.split('\n')[0]}`;
      notes.push(`Not rendered although ${why}: this is the static HTML only, so content may be missing. ${reason}`);
    }
  }
  const title = textOf(doc.querySelector('title')) || textOf(doc.querySelector('h1'));
  const links = pageLinks(doc, finalUrl);
  const markdown = htmlToMarkdown(doc, finalUrl);
  if (!markdown) notes.push('The page has no readable text.');
  return { url: finalUrl, title, markdown, links, notes };
}

/** The DOM after load and (briefly) a quiet network, as HTML. */
async function renderedHtml(page: Page, url: string, timeoutMs: number): Promise<{ html: string; url: string }> {
  await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  await page.waitForLoadState('networkidle', { timeout: Math.min(5_000, timeoutMs) }).catch(() => undefined);
  return { html: await page.content(), url: page.url() };
}
