import type { CrawlOutcome } from './crawler';
import type { PageReading } from './page-reader';
import { MAX_WEB_CHARS, shareBudget, truncateText } from './text-budget';

/** One page for the model: title, address, notes, then the markdown (at most 50,000 characters in all). */
export function formatPage(page: PageReading, maxChars = MAX_WEB_CHARS): string {
  const head = pageHeader(page, '#');
  return `${head}\n\n${truncateText(page.markdown, Math.max(1_000, maxChars - head.length))}`.trim();
}

/**
 * A crawl: a line on what was done, then each page (heading with its address and depth) with a
 * fair share of the 50,000 characters, then the pages that could not be read.
 */
export function formatCrawl(outcome: CrawlOutcome, intro: string, maxChars = MAX_WEB_CHARS): string {
  const read = outcome.pages.filter((p) => p.reading);
  const failed = outcome.pages.filter((p) => p.error);
  const heads = read.map((p, i) => pageHeader(p.reading!, `## ${i + 1}.`, p.depth));
  const tail = [
    ...failed.map((p) => `- ${p.url}: ${p.error}`),
    ...(outcome.unvisited > 0 ? [`${outcome.unvisited} more links were found but not visited (page or depth limit).`] : []),
    ...(outcome.stoppedByDeadline ? ['The crawl stopped early: it ran out of time.'] : []),
  ];
  const tailText = tail.length ? `\n\nNot read:\n${tail.join('\n')}` : '';
  const fixed = intro.length + heads.reduce((n, h) => n + h.length + 4, 0) + tailText.length;
  const shares = shareBudget(read.map((p) => p.reading!.markdown.length), maxChars - fixed - read.length * 80);
  const bodies = read.map((p, i) => `${heads[i]}\n\n${truncateText(p.reading!.markdown, Math.max(200, shares[i]!))}`);
  return `${intro}\n\n${bodies.join('\n\n')}${tailText}`.trim();
}

function pageHeader(page: PageReading, prefix: string, depth?: number): string {
  const title = page.title || page.url;
  const lines = [`${prefix} ${title}`, `URL: ${page.url}${depth !== undefined ? ` (depth ${depth})` : ''}`];
  for (const note of page.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}
