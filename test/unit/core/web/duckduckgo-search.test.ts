import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../../../../src/core/tools/tool';
import { parseDuckDuckGoResults, unwrapRedirect } from '../../../../src/core/web/duckduckgo-search';
import { filterResults, withSiteOperators } from '../../../../src/core/web/search-provider';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../../../test/fixtures/web', name), 'utf8');

describe('DuckDuckGo HTML results', () => {
  it('reads title, target URL and snippet of every organic result of a saved results page, skipping the ad', () => {
    const results = parseDuckDuckGoResults(fixture('duckduckgo-results.html'), 'https://html.duckduckgo.com/html/?q=typescript+zod+schema');
    assert.equal(results.length, 12);
    assert.deepEqual(results[0], {
      title: 'Zod | Documentation',
      url: 'https://zod.dev/',
      snippet: 'TypeScript-first schema validation with static type inference. Zod lets you define a schema once and get both runtime validation and a static type.',
    });
    assert.equal(results[7]!.snippet.includes('"strict": true'), true, 'entities are decoded');
    assert.ok(!results.some((r) => r.url.includes('schemaly') || r.url.includes('y.js')), 'no ad');
  });

  it('unwraps /l/?uddg= redirects (protocol-relative or relative), keeps direct links, drops ad trackers and other schemes', () => {
    const page = 'https://html.duckduckgo.com/html/';
    assert.equal(unwrapRedirect('//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&rut=abc', page), 'https://example.org/a?b=1');
    assert.equal(unwrapRedirect('/l/?uddg=http%3A%2F%2F127.0.0.1%3A8080%2Fdocs', 'http://127.0.0.1:9/html/'), 'http://127.0.0.1:8080/docs');
    assert.equal(unwrapRedirect('https://plain.example/page', page), 'https://plain.example/page');
    assert.equal(unwrapRedirect('https://duckduckgo.com/y.js?ad_domain=x', page), undefined);
    assert.equal(unwrapRedirect('//duckduckgo.com/l/?uddg=javascript%3Aalert(1)', page), undefined);
    assert.equal(unwrapRedirect('javascript:alert(1)', page), undefined);
  });

  it('takes a bot-check page for a rate limit, and a page without results for no results', () => {
    assert.throws(
      () => parseDuckDuckGoResults(fixture('duckduckgo-bot-check.html'), 'https://html.duckduckgo.com/html/', 202),
      (err: unknown) => err instanceof ToolError && err.kind === 'rate_limit' && /bot check/.test(err.message),
    );
    assert.deepEqual(parseDuckDuckGoResults('<html><body><div class="no-results">No results.</div></body></html>', 'https://html.duckduckgo.com/html/'), []);
  });

  it('filters by allowed and blocked domains (subdomains included), drops duplicates, keeps at most max_results', () => {
    const results = parseDuckDuckGoResults(fixture('duckduckgo-results.html'), 'https://html.duckduckgo.com/html/');
    const hosts = (rs: Array<{ url: string }>) => rs.map((r) => new URL(r.url).hostname);
    assert.deepEqual(hosts(filterResults(results, { maxResults: 10, allowedDomains: ['github.com', 'zod.dev'], blockedDomains: [] })), ['zod.dev', 'github.com', 'zod.dev', 'github.com']);
    const blocked = filterResults(results, { maxResults: 10, allowedDomains: [], blockedDomains: ['stackoverflow.com', 'medium.com'] });
    assert.ok(!hosts(blocked).some((h) => h.endsWith('stackoverflow.com') || h.endsWith('medium.com')));
    assert.equal(blocked.length, 9);
    assert.equal(filterResults(results, { maxResults: 3, allowedDomains: [], blockedDomains: [] }).length, 3);
    assert.deepEqual(hosts(filterResults(results, { maxResults: 10, allowedDomains: ['logrocket.com'], blockedDomains: [] })), ['blog.logrocket.com']);
    assert.equal(filterResults([...results, results[0]!], { maxResults: 20, allowedDomains: [], blockedDomains: [] }).length, 12);
  });

  it('narrows the query with site: operators (one allowed site; every blocked one)', () => {
    assert.equal(withSiteOperators({ query: 'zod', allowedDomains: ['zod.dev'], blockedDomains: ['medium.com'] }), 'zod site:zod.dev -site:medium.com');
    assert.equal(withSiteOperators({ query: 'zod', allowedDomains: ['a.dev', 'b.dev'], blockedDomains: [] }), 'zod');
  });
});
