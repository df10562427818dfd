import type TurndownService from 'turndown';
import { htmlLibs } from '../lazy-libraries';
import { all, baseUrlOf, textOf, type HtmlDocument, type HtmlElement } from './html-document';

/** Never content: scripts, styles, embedded widgets, forms, and the site's navigation around the page. */
const NOISE = [
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'nav', 'footer', 'aside',
  'form', 'button', 'select', 'input', 'textarea', 'dialog', '[hidden]', '[aria-hidden="true"]',
  '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="search"]', '[role="dialog"]',
].join(', ');

/**
 * The readable part of a page as markdown: the `<main>` (or the one `<article>`) when the page has
 * one, else the body; without scripts, styles, navigation, forms; links and images made absolute so
 * they can be fetched next; headings, code blocks (with their language) and tables kept.
 * Changes `doc` (noise is removed in place).
 */
export function htmlToMarkdown(doc: HtmlDocument, pageUrl: string): string {
  const base = baseUrlOf(doc, pageUrl);
  for (const el of all(doc, NOISE)) el.remove();
  const root = contentRoot(doc);
  if (!root) return '';
  for (const a of all(root, 'a')) absolutise(a, 'href', base, true);
  for (const img of all(root, 'img')) {
    const alt = img.getAttribute('alt')?.trim();
    if (!alt || !absolutise(img, 'src', base, false)) img.remove();
  }
  return tidy(converter().turndown(root as never));
}

function contentRoot(doc: HtmlDocument): HtmlElement | null {
  const main = doc.querySelector('main, [role="main"]');
  if (main && textOf(main).length >= 200) return main;
  const articles = all(doc, 'article');
  if (articles.length === 1 && textOf(articles[0]).length >= 200) return articles[0]!;
  for (const header of all(doc, 'body > header')) header.remove();
  return doc.body;
}

/** Makes a URL attribute absolute; drops `javascript:`/`data:` ones (a link keeps its text). */
function absolutise(el: HtmlElement, attribute: string, base: string, keepWhenBad: boolean): boolean {
  const value = el.getAttribute(attribute)?.trim();
  let url: URL | undefined;
  try {
    url = value ? new URL(value, base) : undefined;
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:')) {
    el.setAttribute(attribute, url.href);
    return true;
  }
  if (keepWhenBad) el.removeAttribute(attribute);
  return false;
}

let cached: TurndownService | undefined;

function converter(): TurndownService {
  if (cached) return cached;
  const service = new (htmlLibs().TurndownService)({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  // An anchor without a target (a removed javascript: link, a named anchor) is just its text.
  service.addRule('bareAnchor', { filter: (node) => node.nodeName === 'A' && !node.getAttribute('href'), replacement: (content) => content });
  // <pre> without <code> is a code block too (turndown only fences <pre><code>).
  service.addRule('plainPre', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
    replacement: (_content, node) => `\n\n\`\`\`\n${(node.textContent ?? '').replace(/\n$/, '')}\n\`\`\`\n\n`,
  });
  service.addRule('table', { filter: 'table', replacement: (_content, node) => tableMarkdown(node as unknown as HtmlElement) });
  cached = service;
  return service;
}

/** A GFM table from the rows' cell texts (the first row heads it); one-column layout tables stay text. */
function tableMarkdown(table: HtmlElement): string {
  const rows = all(table, 'tr')
    .filter((tr) => closestTable(tr) === table)
    .map((tr) => Array.from(tr.children).filter((c) => c.nodeName === 'TH' || c.nodeName === 'TD').map((c) => textOf(c).replace(/\|/g, '\\|')));
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (rows.length === 0 || width < 2) return `\n\n${rows.map((r) => r.join(' ')).join('\n')}\n\n`;
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  return `\n\n${[line(rows[0]!), line(Array(width).fill('---')), ...rows.slice(1).map(line)].join('\n')}\n\n`;
}

function closestTable(el: HtmlElement): HtmlElement | undefined {
  for (let node = el.parentNode; node; node = node.parentNode) if (node.nodeName === 'TABLE') return node as HtmlElement;
  return undefined;
}

/** At most one blank line in a row, no trailing spaces. */
function tidy(markdown: string): string {
  return markdown
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
