import * as z from 'zod';
import { crawl, CRAWL_STRATEGIES, MAX_CRAWL_DEPTH, MAX_CRAWL_PAGES } from '../web/crawler';
import { formatCrawl, formatPage } from '../web/page-format';
import { readPage } from '../web/page-reader';
import { MAX_WEB_CHARS } from '../web/text-budget';
import type { WebSession } from '../web/web-session';
import { parseWebUrl, siteOf } from '../web/web-url';
import type { Tool } from './tool';

const schema = z.lazy(() => z.object({
  url: z.string().min(1).describe('http(s) URL.'),
  render: z.boolean().optional().describe('Chromium rendering on/off; default auto.'),
  crawl: z
    .object({
      strategy: z.enum(CRAWL_STRATEGIES).default('bfs').describe('best_first ranks by query.'),
      max_depth: z.number().int().min(0).max(MAX_CRAWL_DEPTH).default(1).describe('Link steps.'),
      max_pages: z.number().int().min(1).max(MAX_CRAWL_PAGES).default(5).describe('Pages.'),
      same_domain: z.boolean().default(true).describe('Stay on the site.'),
      query: z.string().optional().describe('Keywords.'),
    })
    .optional()
    .describe('Follow links.'),
}));

/**
 * fetch_url: a web page as markdown, rendered in Chromium when it needs JavaScript, at most 50,000
 * characters; optionally a bounded crawl of linked pages. Read-only: it changes nothing here, so it
 * never asks (semi-auto and plan mode need it for research), though it does send the URL out.
 */
export function fetchUrlTool(web: WebSession): Tool<typeof schema> {
  return {
    name: 'fetch_url',
    category: 'web',
    readOnly: true,
    schema,
    async run(args, ctx) {
      const url = parseWebUrl(args.url);
      const read = (u: URL) => readPage(u, web, { render: args.render, signal: ctx.signal });
      if (!args.crawl) {
        const page = await read(url);
        const output = formatPage(page);
        const how = page.rendered ? ' (rendered)' : '';
        return { ok: true, output, summary: `✓ ${page.markdown.length.toLocaleString('en-US')} chars from ${page.url}${how}${page.markdown.length > MAX_WEB_CHARS ? ' (truncated)' : ''}` };
      }
      const options = { strategy: args.crawl.strategy, maxDepth: args.crawl.max_depth, maxPages: args.crawl.max_pages, sameDomain: args.crawl.same_domain, query: args.crawl.query };
      const outcome = await crawl(url, { ...options, deadlineMs: web.timeoutMs * 4, signal: ctx.signal }, read);
      const pages = outcome.pages.filter((p) => p.reading).length;
      const scope = options.sameDomain ? `on ${siteOf(url)}` : 'any site';
      const intro = `Crawled ${pages} page${pages === 1 ? '' : 's'} from ${url.href} (${options.strategy}${options.query ? ` for "${options.query}"` : ''}, depth ≤ ${options.maxDepth}, ${scope}).`;
      return { ok: true, output: formatCrawl(outcome, intro), summary: `✓ crawled ${pages} pages from ${siteOf(url)} (${options.strategy})` };
    },
  };
}
