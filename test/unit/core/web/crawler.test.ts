import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchUrlTool } from '../../../../src/core/tools/fetch-url';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { keywordsOf, scoreLink } from '../../../../src/core/web/crawler';
import { shareBudget } from '../../../../src/core/web/text-budget';
import { WebSession } from '../../../../src/core/web/web-session';
import { toolContext } from '../../../helpers/tool-context';
import { startWebSite, type WebSite } from '../../../helpers/web-site';

/**
 * fetch_url's crawl over a small linked site: / → a, b, c (+ another host, + a zip);
 * a → a1, a2; a1 → a1x; b → b1 and a missing page; c ("Database tuning guide") → c1.
 */
describe('fetch_url crawl', function () {
  this.timeout(60_000);
  let site: WebSite;
  const web = new WebSession({ timeoutMs: 5_000, env: { ...process.env, OPENDEV_CHROMIUM: '/nonexistent/chromium' } });
  const registry = new ToolRegistry().register(fetchUrlTool(web));
  const ctx = toolContext({ workspaceRoot: mkdtempSync(join(tmpdir(), 'opendev-crawl-')) });
  const crawl = (options: Record<string, unknown>, url = site.url('/site/')): Promise<ToolResult> =>
    registry.execute({ id: 'c', name: 'fetch_url', arguments: JSON.stringify({ url, crawl: options }) }, ctx);
  /** The pages in the order the output lists them: `/site/a`, or `other:/other` for the other host. */
  const order = (r: ToolResult) =>
    [...r.output.matchAll(/^## \d+\. .*\nURL: (\S+)/gm)].map((m) => (m[1]!.startsWith(site.otherOrigin) ? `other:${m[1]!.slice(site.otherOrigin.length)}` : m[1]!.slice(site.origin.length)));

  before(async () => {
    site = await startWebSite();
  });
  after(async () => {
    await web.dispose();
    await site.close();
  });

  it('breadth first: the start page, its links, then theirs; never the other host or the zip', async () => {
    const r = await crawl({ strategy: 'bfs', max_depth: 2, max_pages: 20 });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(order(r), ['/site/', '/site/a', '/site/b', '/site/c', '/site/a1', '/site/a2', '/site/b1', '/site/c1']);
    assert.match(r.output, /^Crawled 8 pages from http:\/\/127\.0\.0\.1:\d+\/site\/ \(bfs, depth ≤ 2, on 127\.0\.0\.1\)\./);
    assert.match(r.output, /URL: http:\/\/127\.0\.0\.1:\d+\/site\/a1 \(depth 2\)/);
    assert.ok(!site.requests.some((p) => p.includes('archive.zip')), 'file links are not requested');
    assert.match(r.output, /Not read:\n- http:\/\/127\.0\.0\.1:\d+\/missing: HTTP 404 Not Found/);
  });

  it('depth first: down each branch before the next', async () => {
    const r = await crawl({ strategy: 'dfs', max_depth: 3, max_pages: 20 });
    assert.deepEqual(order(r), ['/site/', '/site/a', '/site/a1', '/site/a1x', '/site/a2', '/site/b', '/site/b1', '/site/c', '/site/c1']);
  });

  it("best first: links matching the query's keywords come first", async () => {
    const r = await crawl({ strategy: 'best_first', max_depth: 2, max_pages: 3, query: 'database tuning' });
    assert.deepEqual(order(r), ['/site/', '/site/c', '/site/c1']);
    assert.match(r.output, /\(best_first for "database tuning", depth ≤ 2/);
  });

  it('stops at max_pages and at max_depth 0', async () => {
    const three = await crawl({ strategy: 'bfs', max_depth: 2, max_pages: 3 });
    assert.deepEqual(order(three), ['/site/', '/site/a', '/site/b']);
    assert.match(three.output, /5 more links were found but not visited \(page or depth limit\)\./);
    assert.deepEqual(order(await crawl({ max_depth: 0 })), ['/site/']);
  });

  it('same_domain: false follows links to other hosts too', async () => {
    const r = await crawl({ strategy: 'bfs', max_depth: 1, max_pages: 20, same_domain: false });
    assert.deepEqual(order(r), ['/site/', '/site/a', '/site/b', '/site/c', 'other:/other']);
    assert.match(r.output, /any site\)/);
  });

  it('keeps the limits of the schema: at most 20 pages and depth 3', async () => {
    const tooMany = await crawl({ max_pages: 21 });
    assert.equal(tooMany.ok, false);
    assert.match(tooMany.output, /max_pages/);
    assert.match((await crawl({ max_depth: 4 })).output, /max_depth/);
  });

  it("fails with the start page's own error when that page cannot be read", async () => {
    const start = await crawl({ max_depth: 1 }, site.url('/missing'));
    assert.equal(start.errorKind, 'not_found');
  });

  it('keeps a whole crawl under 50,000 characters without letting a huge page crowd out a small one', async () => {
    const r = await crawl({ max_depth: 1 }, site.url('/big/'));
    assert.equal(r.ok, true, r.output);
    assert.ok(r.output.length <= 50_000, `${r.output.length} chars`);
    assert.deepEqual(order(r), ['/big/', '/huge', '/article']);
    assert.match(r.output, /\[Truncated: showing [\d,]+ of [\d,]+ characters\.\]/);
    assert.ok(r.output.includes('| retries | 3 |'), 'the article is whole');
  });

  it('scores keywords of three letters or more: 2 in the link text, 1 in the address', () => {
    assert.deepEqual(keywordsOf('a DB tuning, Tuning guide'), ['tuning', 'guide']);
    assert.equal(scoreLink(['tuning'], 'Tuning details', new URL('http://x/perf/tuning')), 3);
    assert.equal(scoreLink(['tuning'], 'Details', new URL('http://x/perf')), 0);
  });

  it('shares the 50k budget fairly: short pages whole, long ones equal parts of the rest', () => {
    assert.deepEqual(shareBudget([100, 50_000, 80_000], 30_100), [100, 15_000, 15_000]);
    assert.deepEqual(shareBudget([10, 20], 1_000), [10, 20]);
  });
});
