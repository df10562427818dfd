import { ToolError } from '../tool-result';
import { all, parseHtml, textOf } from './html-document';
import { openUrl } from './http-fetch';
import { searchEndpoint, withSiteOperators, type SearchProvider, type SearchRequest, type SearchResult } from './search-provider';
import { WEB_SEARCH_URL_ENV } from '../config/web-settings';
import { webText } from './web-texts';

const DEFAULT_ENDPOINT = 'https://html.duckduckgo.com/html/';

/**
 * DuckDuckGo's HTML endpoint (no key, no JavaScript): `?q=` returns a page of results whose links
 * go through DuckDuckGo's `/l/?uddg=<target>` redirect, unwrapped here; ads are skipped.
 */
export class DuckDuckGoSearch implements SearchProvider {
  readonly name = 'duckduckgo';

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async search(request: SearchRequest): Promise<SearchResult[]> {
    const url = searchEndpoint(this.env[WEB_SEARCH_URL_ENV], DEFAULT_ENDPOINT, 'DuckDuckGo', WEB_SEARCH_URL_ENV);
    url.searchParams.set('q', withSiteOperators(request));
    const response = await openUrl(url, { timeoutMs: request.timeoutMs, maxBytes: 2_000_000, signal: request.signal });
    const { text } = await response.text();
    return parseDuckDuckGoResults(text, response.url, response.status);
  }
}

/** The organic results of a DuckDuckGo HTML page; a bot check (HTTP 202 or its "anomaly" page) is a rate limit. */
export function parseDuckDuckGoResults(html: string, pageUrl: string, status = 200): SearchResult[] {
  const doc = parseHtml(html);
  const results: SearchResult[] = [];
  for (const block of all(doc, '.result, .web-result')) {
    if (/\bresult--ad\b/.test(block.getAttribute('class') ?? '')) continue;
    const link = block.querySelector('a.result__a');
    const target = link ? unwrapRedirect(link.getAttribute('href') ?? '', pageUrl) : undefined;
    if (!link || !target) continue;
    results.push({ title: textOf(link), url: target, snippet: textOf(block.querySelector('.result__snippet')) });
  }
  if (results.length === 0 && (status === 202 || doc.querySelector('.anomaly-modal__title, #challenge-form, form[action*="anomaly"]'))) {
    throw new ToolError('rate_limit', webText('search_bot_check'));
  }
  return results;
}

/** `//duckduckgo.com/l/?uddg=https%3A…&rut=…` → the target; a direct http(s) link as it is; ads and others → undefined. */
export function unwrapRedirect(href: string, pageUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, pageUrl);
  } catch {
    return undefined;
  }
  if (url.pathname === '/l/' || url.pathname === '/l') {
    const target = url.searchParams.get('uddg');
    return target && /^https?:\/\//i.test(target) ? target : undefined;
  }
  if (url.pathname === '/y.js') return undefined; // an ad's click tracker
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
