import { all, textOf, type HtmlDocument, type HtmlNode } from './html-document';

const HIDDEN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
const EMPTY_APP_ROOT = '#root, #app, #__next, #__nuxt, #svelte, app-root, [data-reactroot]';

/**
 * Whether the static HTML is only a shell that JavaScript fills in: scripts and almost no text, a
 * `<noscript>` asking for JavaScript, or an empty single-page-app root. Call before noise removal.
 */
export function looksScriptRendered(doc: HtmlDocument): boolean {
  if (!doc.body) return false;
  const scripts = all(doc, 'script').filter((s) => !/json/i.test(s.getAttribute('type') ?? '')).length;
  if (scripts === 0) return false;
  const text = visibleTextLength(doc.body);
  if (text < 200) return true;
  const noscript = all(doc, 'noscript').map(textOf).join(' ');
  if (/enable javascript|javascript (?:is )?(?:required|disabled)|requires javascript|turn on javascript/i.test(noscript) && text < 1000) return true;
  return all(doc, EMPTY_APP_ROOT).some((root) => textOf(root) === '') && text < 500;
}

function visibleTextLength(node: HtmlNode): number {
  if (node.nodeType === 3) return (node.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  if (HIDDEN.has(node.nodeName)) return 0;
  let total = 0;
  for (const child of Array.from(node.childNodes)) total += visibleTextLength(child);
  return total;
}
