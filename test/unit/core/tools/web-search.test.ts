import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { webSearchTool } from '../../../../src/core/tools/web-search';
import { WebSession, type WebSessionOptions } from '../../../../src/core/web/web-session';
import { toolContext } from '../../../helpers/tool-context';
import { startWebSite, type WebSite } from '../../../helpers/web-site';

/** web_search against a local server that answers like DuckDuckGo's HTML endpoint (OPENDEV_WEB_SEARCH_URL). */
describe('web_search', () => {
  let site: WebSite;
  const ctx = toolContext({ workspaceRoot: mkdtempSync(join(tmpdir(), 'opendev-search-')) });
  const search = (args: Record<string, unknown>, options: Partial<WebSessionOptions> = {}): Promise<ToolResult> => {
    const web = new WebSession({ timeoutMs: 5_000, env: { OPENDEV_WEB_SEARCH_URL: site.url('/html/') }, ...options });
    return new ToolRegistry().register(webSearchTool(web)).execute({ id: 's', name: 'web_search', arguments: JSON.stringify(args) }, ctx);
  };
  /** The query the search endpoint received last. */
  const lastQuery = () => new URL(site.requests.at(-1)!, 'http://x').searchParams.get('q');

  before(async () => {
    site = await startWebSite();
  });
  after(() => site.close());

  it('numbers the results with title, URL and snippet; five by default', async () => {
    const r = await search({ query: 'typescript zod schema' });
    assert.equal(r.ok, true, r.output);
    assert.equal(lastQuery(), 'typescript zod schema');
    assert.match(r.output, /^Results for "typescript zod schema" from duckduckgo:\n\n1\. Zod \| Documentation\n {3}https:\/\/zod\.dev\/\n {3}TypeScript-first schema validation/);
    assert.equal([...r.output.matchAll(/^\d+\. /gm)].length, 5);
    assert.match(r.output, /^5\. typescript - Zod schema: how to make a field optional\? - Stack Overflow$/m);
    assert.match(r.summary, /✓ 5 results for "typescript zod schema"/);
  });

  it('returns at most 10 results and refuses to be asked for more', async () => {
    const r = await search({ query: 'zod', max_results: 10 });
    assert.equal([...r.output.matchAll(/^\d+\. /gm)].length, 10);
    const tooMany = await search({ query: 'zod', max_results: 11 });
    assert.equal(tooMany.ok, false);
    assert.match(tooMany.output, /max_results/);
  });

  it('keeps only allowed domains and drops blocked ones, asking the engine with site: operators', async () => {
    const only = await search({ query: 'zod', max_results: 10, allowed_domains: ['github.com'] });
    assert.equal(lastQuery(), 'zod site:github.com');
    const urls = [...only.output.matchAll(/^ {3}(https?:\/\/\S+)$/gm)].map((m) => m[1]);
    assert.deepEqual(urls, ['https://github.com/colinhacks/zod', 'https://github.com/colinhacks/zod/discussions/2134']);
    assert.match(only.output, /\(only github\.com\)/);
    const without = await search({ query: 'zod', max_results: 10, blocked_domains: ['stackoverflow.com'] });
    assert.equal(lastQuery(), 'zod -site:stackoverflow.com');
    const kept = [...without.output.matchAll(/^ {3}(https?:\/\/\S+)$/gm)].map((m) => m[1]!);
    assert.equal(kept.length, 10);
    assert.ok(!kept.some((u) => u.includes('stackoverflow.com')), kept.join(' '));
    assert.match(without.output, /\(not stackoverflow\.com\)/);
  });

  it('says when nothing was found, and treats a bot check as a rate limit', async () => {
    const none = await search({ query: 'nothing-at-all' });
    assert.equal(none.ok, true);
    assert.match(none.output, /No results for "nothing-at-all" from duckduckgo/);
    const bot = await search({ query: 'bot-check' });
    assert.equal(bot.errorKind, 'rate_limit');
  });

  it('uses the web_search_provider setting: a SearXNG instance answers in JSON', async () => {
    const r = await search({ query: 'python json' }, { settings: { searchProvider: 'searxng' }, env: { OPENDEV_WEB_SEARCH_URL: site.url('/searx') } });
    assert.equal(r.ok, true, r.output);
    assert.equal(new URL(site.requests.at(-1)!, 'http://x').searchParams.get('format'), 'json');
    assert.match(r.output, /from searxng:\n\n1\. json — JSON encoder and decoder\n {3}https:\/\/docs\.python\.org\/3\/library\/json\.html\n {3}Python json module\./);
    const unset = await search({ query: 'python json' }, { settings: { searchProvider: 'searxng' }, env: {} });
    assert.match(unset.output, /needs its address: set OPENDEV_WEB_SEARCH_URL/);
  });

  it('reports an unreachable search service as a network failure', async () => {
    const r = await search({ query: 'zod' }, { env: { OPENDEV_WEB_SEARCH_URL: site.url('/missing') } });
    assert.equal(r.errorKind, 'not_found');
    assert.match(r.output, /HTTP 404/);
  });
});
