import type { Page } from 'playwright-core';
import { ToolError } from '../tool-result';
import { BrowserUnavailableError } from './browser';
import { formatBytes } from '../format-bytes';
import { contentKind } from './content-kind';
import { parseHtml, textOf } from './html-document';
import { htmlToMarkdown } from './html-to-markdown';
import { openUrl } from './http-fetch';
import { looksScriptRendered } from './js-rendering';
import { pageLinks, type PageLink } from './page-links';
import type { WebSession } from './web-session';
import { webText } from './web-texts';

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
  /** The text is what Chromium rendered, not the static HTML. */
  rendered: boolean;
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
  const response = await openUrl(url, { timeoutMs: web.timeoutMs, maxBytes: MAX_PAGE_BYTES, signal: options.signal, lookup: web.lookup });
  const kind = contentKind(response.mediaType, response.mediaType === '' || response.mediaType === 'application/octet-stream' ? await response.peek() : undefined);
  const size = response.declaredBytes !== undefined ? formatBytes(response.declaredBytes) : 'size unknown';
  if (kind === 'pdf' || kind === 'binary') {
    response.discard();
    throw new ToolError('other', webText(kind === 'pdf' ? 'refuse_pdf' : 'refuse_file', { URL: response.url, SIZE: size, TYPE: response.mediaType || 'binary' }));
  }
  const notes: string[] = [];
  if (response.redirected) notes.push(webText('note_redirected', { URL: url.href }));
  const body = await response.text();
  if (body.truncated) notes.push(webText('note_truncated', { SIZE: formatBytes(MAX_PAGE_BYTES) }));
  if (kind === 'text') return { url: response.url, title: '', markdown: body.text.trim(), links: [], notes, rendered: false };

  let finalUrl = response.url;
  let doc = parseHtml(body.text);
  let rendered = false;
  const shell = looksScriptRendered(doc);
  if (options.render === true || (options.render === undefined && shell)) {
    const why = webText(shell ? 'why_script_built' : 'why_render_asked');
    try {
      const page = await web.browser.withPage((p) => renderedHtml(p, finalUrl, web.timeoutMs), { signal: options.signal });
      doc = parseHtml(page.html);
      finalUrl = page.url;
      rendered = true;
      notes.push(webText('note_rendered', { WHY: why }));
    } catch (err) {
      // A page that led the browser to a forbidden address is refused whole, not read statically.
      if (options.signal?.aborted || (err instanceof ToolError && err.kind === 'permission')) throw err;
      const reason = err instanceof BrowserUnavailableError ? err.message : `Rendering failed: ${(err as Error).message.split('\n')[0]}`;
      notes.push(webText('note_not_rendered', { WHY: why, REASON: reason }));
    }
  }
  const title = textOf(doc.querySelector('title')) || textOf(doc.querySelector('h1'));
  const links = pageLinks(doc, finalUrl);
  const markdown = htmlToMarkdown(doc, finalUrl);
  if (!markdown) notes.push(webText('note_no_text'));
  return { url: finalUrl, title, markdown, links, notes, rendered };
}

/** The DOM after load and (briefly) a quiet network, as HTML. */
async function renderedHtml(page: Page, url: string, timeoutMs: number): Promise<{ html: string; url: string }> {
  await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  await page.waitForLoadState('networkidle', { timeout: Math.min(5_000, timeoutMs) }).catch(() => undefined);
  return { html: await page.content(), url: page.url() };
}
