import * as z from 'zod';
import { filterResults } from '../web/search-provider';
import type { WebSession } from '../web/web-session';
import { webText } from '../web/web-texts';
import type { Tool } from './tool';

const MAX_RESULTS = 10;

const schema = z.lazy(() => z.object({
  query: z.string().trim().min(1).describe('Search terms.'),
  max_results: z.number().int().min(1).max(MAX_RESULTS).default(5).describe('Results.'),
  allowed_domains: z.array(z.string().min(1)).optional().describe('Only these sites.'),
  blocked_domains: z.array(z.string().min(1)).optional().describe('Not these sites.'),
}));

/** web_search: numbered results (title, URL, snippet) from the configured provider (DuckDuckGo by default). */
export function webSearchTool(web: WebSession): Tool<typeof schema> {
  return {
    name: 'web_search',
    category: 'web',
    readOnly: true,
    schema,
    async run(args, ctx) {
      const provider = web.searchProvider();
      const request = {
        query: args.query,
        maxResults: args.max_results,
        allowedDomains: args.allowed_domains ?? [],
        blockedDomains: args.blocked_domains ?? [],
        timeoutMs: web.timeoutMs,
        signal: ctx.signal,
      };
      const results = filterResults(await provider.search(request), request);
      const filters = [
        ...(request.allowedDomains.length ? [`only ${request.allowedDomains.join(', ')}`] : []),
        ...(request.blockedDomains.length ? [`not ${request.blockedDomains.join(', ')}`] : []),
      ];
      const scope = filters.length ? ` (${filters.join('; ')})` : '';
      const vars = { QUERY: args.query, SCOPE: scope, PROVIDER: provider.name };
      if (results.length === 0) {
        return { ok: true, output: webText(filters.length ? 'search_none_filtered' : 'search_none', vars), summary: `✓ no results for "${args.query}"` };
      }
      const lines = results.map((r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`);
      const output = webText('search_results', { ...vars, RESULTS: lines.join('\n\n') });
      return { ok: true, output, summary: `✓ ${results.length} results for "${args.query}"` };
    },
  };
}
