import * as z from 'zod';
import { ToolError } from '../tool-result';
import { openUrl } from './http-fetch';
import { searchEndpoint, withSiteOperators, type SearchProvider, type SearchRequest, type SearchResult } from './search-provider';
import { WEB_SEARCH_URL_ENV } from '../config/web-settings';

/** What a SearXNG instance answers with `format=json` (other fields ignored). */
const SearxngAnswer = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().optional(), content: z.string().optional() }).loose()),
});

/** A SearXNG instance (self-hosted metasearch, JSON API enabled) at OPENDEV_WEB_SEARCH_URL. */
export class SearxngSearch implements SearchProvider {
  readonly name = 'searxng';

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async search(request: SearchRequest): Promise<SearchResult[]> {
    const base = searchEndpoint(this.env[WEB_SEARCH_URL_ENV], undefined, 'SearXNG', WEB_SEARCH_URL_ENV);
    const url = new URL(base.pathname.endsWith('/search') ? base.href : new URL('search', base.href.endsWith('/') ? base.href : `${base.href}/`).href);
    url.searchParams.set('q', withSiteOperators(request));
    url.searchParams.set('format', 'json');
    const response = await openUrl(url, { timeoutMs: request.timeoutMs, maxBytes: 2_000_000, signal: request.signal, accept: 'application/json' });
    const { text } = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ToolError('other', `The SearXNG instance at ${base.origin} did not answer with JSON: enable "json" in its search.formats setting.`);
    }
    const parsed = SearxngAnswer.safeParse(json);
    if (!parsed.success) throw new ToolError('other', `The SearXNG instance at ${base.origin} answered in an unexpected shape.`);
    return parsed.data.results.map((r) => ({ title: (r.title ?? r.url).trim(), url: r.url, snippet: (r.content ?? '').replace(/\s+/g, ' ').trim() }));
  }
}
