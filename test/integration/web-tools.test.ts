import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { allToolResults } from '../fixtures/fake-provider';
import { startWebSite, type WebSite } from '../helpers/web-site';
import { fakeProviderSuite, processRunning, until } from './support';

/**
 * The web tools in the extension host: fetch_url reads pages served on 127.0.0.1 (a static one,
 * and one JavaScript builds, rendered by playwright-core from the extension's own node_modules),
 * and open_browser asks first, then goes through `vscode.env.openExternal`. That function is
 * replaced for the test (the extension and this test share the one `vscode` API object of the
 * extension), so no browser opens and the URI the extension hands VS Code is what we check.
 */
/** Chromium processes the extension host itself started (Linux /proc; the workbench's own browser is not its child). */
function chromiumChildren(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const ppid = Number(stat.slice(close + 2).split(' ')[1]);
        return ppid === process.pid && /chrom/i.test(stat.slice(stat.indexOf('(') + 1, close)) && processRunning(pid);
      } catch {
        return false;
      }
    });
}

describe('Web tools in VS Code', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'semi-auto' });
  const { fake } = suite;
  let site: WebSite;

  before(async () => {
    site = await startWebSite();
  });
  after(() => site.close());

  it('a scripted turn reads a static page and a JavaScript page with fetch_url, without asking', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'static', name: 'fetch_url', arguments: { url: site.url('/article') } }, { id: 'script', name: 'fetch_url', arguments: { url: site.url('/app') } }] },
      { text: 'The article is about parsing configs.' },
    );
    const result = await suite.api.send('read the article');
    assert.equal(result?.status, 'completed');
    const results = new Map(allToolResults(fake.requests.at(-1)!).map((t) => [t.toolCallId, t.content]));
    assert.match(results.get('static')!, /^# Parsing configs safely/);
    assert.match(results.get('static')!, /\| retries \| 3 \|/);
    assert.match(results.get('script')!, /Note: Rendered in Chromium/);
    assert.match(results.get('script')!, /# Quarterly numbers/);
    assert.ok(!suite.api.transcript().some((e) => e.kind === 'approval'), 'reading the web asks nothing');
    const cards = suite.api.transcript().filter((e) => e.kind === 'tool' && e.name === 'fetch_url');
    assert.deepEqual(cards.map((c) => c.kind === 'tool' && c.status), ['ok', 'ok']);
    // The session's browser is still up (it closes after a minute idle); a new chat ends the session and closes it.
    assert.ok(chromiumChildren().length > 0, 'the extension host started a Chromium');
    suite.api.newChat();
    await until(() => chromiumChildren().length === 0, 'the browser to close with the session');
  });

  it('open_browser asks for approval, then hands the URL to vscode.env.openExternal', async () => {
    const opened: string[] = [];
    const original = vscode.env.openExternal;
    (vscode.env as { openExternal: typeof vscode.env.openExternal }).openExternal = async (uri: vscode.Uri) => {
      opened.push(uri.toString(true));
      return true;
    };
    try {
      const target = site.url('/article?from=agent&x=1');
      fake.enqueue({ toolCalls: [{ id: 'open', name: 'open_browser', arguments: { url: target } }] }, { text: 'Opened it.' });
      const turn = suite.api.send('show me the article');
      await until(() => suite.api.transcript().some((e) => e.kind === 'approval' && e.state === 'pending'), 'the approval card');
      assert.deepEqual(opened, [], 'nothing opens before the user agrees');
      const card = suite.api.transcript().find((e) => e.kind === 'approval' && e.state === 'pending');
      assert.ok(card?.kind === 'approval' && card.request.toolName === 'open_browser');
      assert.deepEqual(suite.api.answer({ type: 'answerApproval', id: card.id, decision: { action: 'allow' } }), { ok: true });
      assert.equal((await turn)?.status, 'completed');
      assert.deepEqual(opened, [target]);
      const [toolResult] = allToolResults(fake.requests.at(-1)!);
      assert.equal(toolResult!.content, `Opened ${target} in the user's browser.`);
    } finally {
      (vscode.env as { openExternal: typeof vscode.env.openExternal }).openExternal = original;
    }
  });

  it('capture_web_screenshot asks for approval, then writes the PNG into the workspace', async () => {
    const shots = join(suite.folder, '.opendev', 'screenshots');
    rmSync(shots, { recursive: true, force: true });
    try {
      fake.enqueue({ toolCalls: [{ id: 'shot', name: 'capture_web_screenshot', arguments: { url: site.url('/article'), full_page: false, viewport: '800x600' } }] }, { text: 'Saved the screenshot.' });
      const turn = suite.api.send('take a screenshot of the article');
      await until(() => suite.api.transcript().some((e) => e.kind === 'approval' && e.state === 'pending'), 'the approval card');
      assert.ok(!existsSync(shots), 'nothing is written before the user agrees');
      const card = suite.api.transcript().find((e) => e.kind === 'approval' && e.state === 'pending');
      assert.ok(card?.kind === 'approval' && card.request.toolName === 'capture_web_screenshot');
      assert.deepEqual(suite.api.answer({ type: 'answerApproval', id: card.id, decision: { action: 'allow' } }), { ok: true });
      assert.equal((await turn)?.status, 'completed');
      const [name, ...others] = readdirSync(shots);
      assert.deepEqual(others, [], 'one capture, one file');
      assert.match(name!, /^127\.0\.0\.1-\d{8}-\d{6}-\d{3}\.png$/);
      const png = readFileSync(join(shots, name!));
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [800, 600]);
      const [toolResult] = allToolResults(fake.requests.at(-1)!);
      assert.match(toolResult!.content, new RegExp(`^Saved a screenshot of ${site.url('/article').replace(/\./g, '\\.')}: \\.opendev/screenshots/${name!.replace(/\./g, '\\.')} \\(PNG, 800×600, `));
    } finally {
      rmSync(shots, { recursive: true, force: true });
    }
  });

  it('web_search reads a DuckDuckGo-shaped results page (OPENDEV_WEB_SEARCH_URL in the extension host), without asking', async () => {
    // The tests run inside the extension host: the extension reads this process's environment when the tool runs.
    const previous = process.env.OPENDEV_WEB_SEARCH_URL;
    process.env.OPENDEV_WEB_SEARCH_URL = site.url('/html/');
    try {
      fake.enqueue({ toolCalls: [{ id: 'search', name: 'web_search', arguments: { query: 'typescript zod schema', max_results: 3 } }] }, { text: 'Zod is the first result.' });
      const result = await suite.api.send('search for zod');
      assert.equal(result?.status, 'completed');
      const [toolResult] = allToolResults(fake.requests.at(-1)!);
      assert.match(toolResult!.content, /^Results for "typescript zod schema" from duckduckgo:\n\n1\. Zod \| Documentation\n {3}https:\/\/zod\.dev\//);
      assert.match(toolResult!.content, /\n3\. /);
      assert.doesNotMatch(toolResult!.content, /\n4\. /, 'max_results is honoured');
      assert.ok(site.requests.some((r) => r.startsWith('/html/?q=typescript+zod+schema')), 'the local endpoint was asked');
      assert.ok(!suite.api.transcript().some((e) => e.kind === 'approval'), 'searching asks nothing');
    } finally {
      if (previous === undefined) delete process.env.OPENDEV_WEB_SEARCH_URL;
      else process.env.OPENDEV_WEB_SEARCH_URL = previous;
    }
  });
});
