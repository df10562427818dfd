import { all, baseUrlOf, textOf, type HtmlDocument } from './html-document';

export interface PageLink {
  /** Absolute, without its #fragment. */
  url: string;
  text: string;
}

/** The page's http(s) links in document order, each URL once (navigation included: a crawl follows it). */
export function pageLinks(doc: HtmlDocument, pageUrl: string): PageLink[] {
  const base = baseUrlOf(doc, pageUrl);
  const seen = new Set<string>();
  const links: PageLink[] = [];
  for (const a of all(doc, 'a[href]')) {
    let url: URL;
    try {
      url = new URL(a.getAttribute('href')!.trim(), base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    links.push({ url: url.href, text: textOf(a).slice(0, 200) });
  }
  return links;
}
