import { ToolError } from '../tool-result';
import type { PageReading } from './page-reader';
import { hostMatches, siteOf } from './web-url';

export const CRAWL_STRATEGIES = ['bfs', 'dfs', 'best_first'] as const;
export type CrawlStrategy = (typeof CRAWL_STRATEGIES)[number];
export const MAX_CRAWL_PAGES = 20;
export const MAX_CRAWL_DEPTH = 3;

export interface CrawlOptions {
  strategy: CrawlStrategy;
  /** Links followed from the start page at most this many steps away (0: the start page only). */
  maxDepth: number;
  maxPages: number;
  /** Only the start page's site (and its subdomains). */
  sameDomain: boolean;
  /** best_first: links whose text and address share these keywords come first. */
  query?: string;
  /** The crawl stops starting new pages after this long. */
  deadlineMs: number;
  signal?: AbortSignal;
}

export interface CrawledPage {
  url: string;
  depth: number;
  reading?: PageReading;
  /** Why it could not be read (HTTP 404, a file…). */
  error?: string;
}

export interface CrawlOutcome {
  pages: CrawledPage[];
  /** Links found but not visited (limits reached). */
  unvisited: number;
  stoppedByDeadline: boolean;
}

/** Links to files: skipped without a request (fetch_url would refuse them anyway). */
const FILE_LINK = /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|msi|dmg|pkg|deb|rpm|apk|iso|img|bin|jpe?g|png|gif|webp|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|mov|avi|woff2?|ttf|otf|eot|docx?|xlsx?|pptx?)$/i;

interface Frontier {
  url: string;
  depth: number;
  score: number;
  order: number;
}

/**
 * Visits pages from `start` by links, breadth first, depth first, or best first (by the query's
 * keywords), within the depth, page, site and time limits. `read` fetches one page; a page that
 * fails is recorded with its error and does not count toward `maxPages`.
 */
export async function crawl(start: URL, options: CrawlOptions, read: (url: URL) => Promise<PageReading>): Promise<CrawlOutcome> {
  const site = siteOf(start);
  const keywords = keywordsOf(options.query);
  const deadline = Date.now() + options.deadlineMs;
  const seen = new Set<string>([withoutHash(start)]);
  const frontier: Frontier[] = [{ url: withoutHash(start), depth: 0, score: 0, order: 0 }];
  const pages: CrawledPage[] = [];
  let order = 1;
  let pagesRead = 0;
  let attempts = 0;
  let stoppedByDeadline = false;
  while (frontier.length > 0 && pagesRead < options.maxPages && attempts < options.maxPages * 2) {
    if (options.signal?.aborted) break;
    if (Date.now() > deadline) {
      stoppedByDeadline = true;
      break;
    }
    const next = take(frontier, options.strategy);
    attempts++;
    let reading: PageReading;
    try {
      reading = await read(new URL(next.url));
    } catch (err) {
      if (options.signal?.aborted || !(err instanceof ToolError)) throw err;
      pages.push({ url: next.url, depth: next.depth, error: err.message });
      if (attempts === 1) throw err; // the start page itself failed: nothing to crawl
      continue;
    }
    pagesRead++;
    pages.push({ url: next.url, depth: next.depth, reading });
    seen.add(withoutHash(new URL(reading.url)));
    if (next.depth >= options.maxDepth) continue;
    const found: Frontier[] = [];
    for (const link of reading.links) {
      const url = new URL(link.url);
      const key = withoutHash(url);
      if (seen.has(key) || FILE_LINK.test(url.pathname)) continue;
      if (options.sameDomain && !hostMatches(url.hostname, site)) continue;
      seen.add(key);
      found.push({ url: key, depth: next.depth + 1, score: scoreLink(keywords, link.text, url), order: order++ });
    }
    // Depth first visits a page's first link first: the stack gets them in reverse.
    frontier.push(...(options.strategy === 'dfs' ? found.reverse() : found));
  }
  return { pages, unvisited: frontier.length, stoppedByDeadline };
}

function take(frontier: Frontier[], strategy: CrawlStrategy): Frontier {
  if (strategy === 'dfs') return frontier.pop()!;
  if (strategy === 'bfs') return frontier.shift()!;
  let best = 0;
  for (let i = 1; i < frontier.length; i++) {
    const a = frontier[i]!;
    const b = frontier[best]!;
    if (a.score > b.score || (a.score === b.score && a.order < b.order)) best = i;
  }
  return frontier.splice(best, 1)[0]!;
}

/** Keywords of at least three characters, as search_tools uses them. */
export function keywordsOf(query: string | undefined): string[] {
  return [...new Set((query ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3))];
}

/** A keyword in the link's text counts 2, in its address 1. */
export function scoreLink(keywords: readonly string[], text: string, url: URL): number {
  const lowerText = text.toLowerCase();
  const address = safeDecode(`${url.hostname}${url.pathname}${url.search}`).toLowerCase();
  return keywords.reduce((sum, k) => sum + (lowerText.includes(k) ? 2 : 0) + (address.includes(k) ? 1 : 0), 0);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}
