import { ToolError } from '../tool-result';
import { hostMatches } from './web-url';

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  query: string;
  /** Results wanted; a provider may return more (they are filtered and cut afterwards). */
  maxResults: number;
  /** Only these sites (and their subdomains); a provider may pass them on as `site:` operators. */
  allowedDomains: readonly string[];
  blockedDomains: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A web search back end (`web_search_provider`). Failures throw ToolErrors the model can act on. */
export interface SearchProvider {
  readonly name: string;
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/** Results on the allowed and off the blocked domains, each URL once, at most `maxResults`. */
export function filterResults(results: readonly SearchResult[], request: Pick<SearchRequest, 'maxResults' | 'allowedDomains' | 'blockedDomains'>): SearchResult[] {
  const seen = new Set<string>();
  return results
    .filter((r) => {
      let host: string;
      try {
        host = new URL(r.url).hostname;
      } catch {
        return false;
      }
      if (seen.has(r.url)) return false;
      seen.add(r.url);
      if (request.allowedDomains.length > 0 && !request.allowedDomains.some((d) => hostMatches(host, d))) return false;
      return !request.blockedDomains.some((d) => hostMatches(host, d));
    })
    .slice(0, request.maxResults);
}

/** `site:` operators for the query: one allowed site narrows the search itself; blocked ones are excluded. */
export function withSiteOperators(request: Pick<SearchRequest, 'query' | 'allowedDomains' | 'blockedDomains'>): string {
  const parts = [request.query.trim()];
  if (request.allowedDomains.length === 1) parts.push(`site:${request.allowedDomains[0]}`);
  for (const d of request.blockedDomains) parts.push(`-site:${d}`);
  return parts.join(' ');
}

/** A search endpoint from OPENDEV_WEB_SEARCH_URL or the provider's default, checked once. */
export function searchEndpoint(override: string | undefined, fallback: string | undefined, provider: string, variable: string): URL {
  const raw = override?.trim() || fallback;
  if (!raw) throw new ToolError('other', `The ${provider} search provider needs its address: set ${variable} (for example https://searx.example.org).`);
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new ToolError('other', `${variable}="${raw}" is not an http(s) URL; fix or unset it.`);
}
