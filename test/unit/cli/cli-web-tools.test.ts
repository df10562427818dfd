import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { allToolResults, FakeProvider } from '../../fixtures/fake-provider';
import { fakeOpener } from '../../helpers/fake-opener';
import { startWebSite, type WebSite } from '../../helpers/web-site';
import { newHome, opendev } from './cli-harness';

/** The web tools in the real CLI (dist/cli.js): pages on 127.0.0.1, a local search endpoint, a fake system opener. */
describe('opendev CLI web tools', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let site: WebSite;

  before(async () => {
    await fake.start();
    site = await startWebSite();
  });
  after(async () => {
    await fake.stop();
    await site.close();
  });
  beforeEach(() => fake.reset());

  const env = (extra: Record<string, string>) => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: newHome(), OPENDEV_PLAYBOOK_LEARN: '0', OPENDEV_SESSION_TITLES: '0', ...extra });
  /** A workspace whose .opendev/settings.json chooses the SearXNG provider. */
  const workspace = () => {
    const ws = mkdtempSync(join(tmpdir(), 'opendev-cli-web-'));
    mkdirSync(join(ws, '.opendev'));
    writeFileSync(join(ws, '.opendev', 'settings.json'), JSON.stringify({ web_search_provider: 'searxng' }));
    return ws;
  };

  it('fetches a page, searches with the configured provider and opens the browser through the system opener (--approval auto)', async () => {
    const opener = fakeOpener();
    fake.enqueue(
      {
        toolCalls: [
          { id: 'f', name: 'fetch_url', arguments: { url: site.url('/article') } },
          { id: 's', name: 'web_search', arguments: { query: 'python json', max_results: 2 } },
          { id: 'o', name: 'open_browser', arguments: { url: site.url('/article') } },
        ],
      },
      { text: 'Read it, searched, and opened it for you.' },
    );
    const r = await opendev(['-p', 'read the article', '-C', workspace(), '--approval', 'auto'], env({ PATH: `${opener.binDir}${delimiter}${process.env.PATH}`, OPENDEV_WEB_SEARCH_URL: site.url('/searx') }));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Read it, searched, and opened it for you\./);
    const results = new Map(allToolResults(fake.requests.at(-1)!).map((t) => [t.toolCallId, t.content]));
    assert.match(results.get('f')!, /^# Parsing configs safely/);
    assert.match(results.get('f')!, /```ts\nconst config = Schema\.parse/);
    assert.match(results.get('s')!, /from searxng:\n\n1\. json — JSON encoder and decoder/);
    assert.equal(results.get('o'), `Opened ${site.url('/article')} in the user's browser.`);
    assert.deepEqual(opener.calls(), [[site.url('/article')]]);
  });

  it('with -p at the default semi-auto level, open_browser is refused (nobody to ask) while fetch_url runs', async () => {
    const opener = fakeOpener();
    fake.enqueue(
      { toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: site.url('/notes.txt') } }, { id: 'o', name: 'open_browser', arguments: { url: 'https://example.org/' } }] },
      { text: 'Done.' },
    );
    const r = await opendev(['-p', 'open it', '-C', workspace()], env({ PATH: `${opener.binDir}${delimiter}${process.env.PATH}` }));
    assert.equal(r.code, 0, r.stderr);
    const results = new Map(allToolResults(fake.requests.at(-1)!).map((t) => [t.toolCallId, t.content]));
    assert.match(results.get('f')!, /plain notes\nline two/);
    assert.match(results.get('o')!, /open_browser/);
    assert.doesNotMatch(results.get('o')!, /Opened/);
    assert.deepEqual(opener.calls(), [], 'the opener never ran');
  });
});
