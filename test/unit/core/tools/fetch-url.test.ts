import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchUrlTool } from '../../../../src/core/tools/fetch-url';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { WebSession, type WebSessionOptions } from '../../../../src/core/web/web-session';
import { toolContext } from '../../../helpers/tool-context';
import { startWebSite, type WebSite } from '../../../helpers/web-site';

/** The environment without a chosen browser: the web tools find /usr/bin/chromium themselves. */
function envWithoutChoice(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENDEV_CHROMIUM;
  return env;
}

describe('fetch_url', function () {
  this.timeout(60_000);
  let site: WebSite;
  const sessions: WebSession[] = [];
  const workspaceRoot = mkdtempSync(join(tmpdir(), 'opendev-fetch-'));

  const fetchWith = async (options: WebSessionOptions, args: Record<string, unknown>): Promise<ToolResult> => {
    const web = new WebSession({ env: envWithoutChoice(), ...options });
    sessions.push(web);
    const registry = new ToolRegistry().register(fetchUrlTool(web));
    return registry.execute({ id: 'c1', name: 'fetch_url', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot }));
  };
  // The product's time limit: what should succeed gets all of it, however loaded the machine.
  const fetchUrl = (args: Record<string, unknown>) => fetchWith({}, args);

  before(async () => {
    site = await startWebSite();
  });
  after(async () => {
    await Promise.all(sessions.map((s) => s.dispose()));
    await site.close();
  });

  it('turns a static article into markdown: headings, absolute links, a fenced code block, a table, no scripts or navigation', async () => {
    const r = await fetchUrl({ url: site.url('/article') });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /^# Parsing configs safely\nURL: http:\/\/127\.0\.0\.1:\d+\/article/);
    assert.match(r.output, /^## An example$/m);
    assert.ok(r.output.includes(`[validation guide](${site.origin}/guide/zod?lang=en)`), r.output);
    assert.ok(r.output.includes('[the spec](https://example.org/spec)'));
    assert.ok(r.output.includes('```ts\nconst config = Schema.parse(JSON.parse(text));\nif (config.retries > 3) warn();\n```'), r.output);
    assert.ok(r.output.includes('| Option | Default |\n| --- | --- |\n| retries | 3 |\n| timeout | 30 s |'), r.output);
    for (const noise of ['analytics', 'Pricing', 'newsletter', 'Privacy', 'font: 16px']) assert.ok(!r.output.includes(noise), `${noise} is left out`);
    assert.match(r.summary, /✓ \d+ chars from http:\/\/127\.0\.0\.1:\d+\/article/);
  });

  it('follows redirects and says so; returns plain text as it is', async () => {
    const moved = await fetchUrl({ url: site.url('/moved') });
    assert.match(moved.output, /URL: http:\/\/127\.0\.0\.1:\d+\/article\nNote: Redirected from http:\/\/127\.0\.0\.1:\d+\/moved\./);
    const text = await fetchUrl({ url: site.url('/notes.txt') });
    assert.ok(text.output.endsWith('plain notes\nline two'), text.output);
  });

  it('renders a page that JavaScript builds in the real Chromium', async () => {
    const r = await fetchUrl({ url: site.url('/app') });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /^# Rendered dashboard/);
    assert.match(r.output, /Note: Rendered in Chromium \(the page builds its content with JavaScript\)\./);
    assert.match(r.output, /^# Quarterly numbers$/m);
    assert.match(r.output, /Revenue grew in every region/);
    assert.ok(r.output.includes(`[Details](${site.origin}/site/a)`));
    assert.match(r.summary, /\(rendered\)/);
  });

  it('without a browser, returns the static HTML with a note on how to get one', async () => {
    const r = await fetchWith({ env: { ...process.env, OPENDEV_CHROMIUM: '/nonexistent/chromium' } }, { url: site.url('/app') });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Note: Not rendered although the page builds its content with JavaScript: this is the static HTML only/);
    assert.match(r.output, /OPENDEV_CHROMIUM names \/nonexistent\/chromium, which does not exist/);
    assert.doesNotMatch(r.output, /Quarterly numbers/);
    // render: true on a static page uses the browser too, and still works without one.
    const forced = await fetchWith({ env: { ...process.env, OPENDEV_CHROMIUM: '/nonexistent/chromium' } }, { url: site.url('/article'), render: true });
    assert.equal(forced.ok, true);
    assert.match(forced.output, /Not rendered although rendering was asked for/);
    assert.match(forced.output, /## An example/);
  });

  it('refuses downloads: a binary file with its type and size, a PDF with how to read it, an untyped binary', async () => {
    const bin = await fetchUrl({ url: site.url('/download.bin') });
    assert.equal(bin.ok, false);
    assert.match(bin.output, /is a file \(application\/octet-stream, 146\.5 KB\), not a web page: fetch_url does not download files/);
    const pdf = await fetchUrl({ url: site.url('/paper.pdf') });
    assert.match(pdf.output, /is a PDF \(2\.0 KB\).*run_command.*read_pdf/);
    const untyped = await fetchUrl({ url: site.url('/untyped') });
    assert.match(untyped.output, /is a file \(binary, size unknown\)/);
  });

  it('reports HTTP errors with their status and a kind the model can act on', async () => {
    const missing = await fetchUrl({ url: site.url('/missing') });
    assert.equal(missing.errorKind, 'not_found');
    assert.match(missing.output, /HTTP 404 Not Found from http:\/\/127\.0\.0\.1:\d+\/missing/);
    const broken = await fetchUrl({ url: site.url('/broken') });
    assert.equal(broken.errorKind, 'other');
    assert.match(broken.output, /HTTP 500 Internal Server Error/);
  });

  it('times out on a server that does not answer, with the deadline in the message', async () => {
    const started = Date.now();
    const r = await fetchWith({ timeoutMs: 400 }, { url: site.url('/slow') });
    assert.equal(r.errorKind, 'timeout');
    assert.match(r.output, /\/slow did not answer within 400 ms\./);
    assert.ok(Date.now() - started < 10_000, 'well before the server would answer (20 s)');
  });

  it('stops at once when the user stops the agent', async () => {
    const web = new WebSession({ env: envWithoutChoice() });
    sessions.push(web);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const started = Date.now();
    const r = await new ToolRegistry().register(fetchUrlTool(web)).execute({ id: 'x', name: 'fetch_url', arguments: JSON.stringify({ url: site.url('/slow') }) }, toolContext({ workspaceRoot, signal: stop.signal }));
    assert.equal(r.ok, false);
    assert.notEqual(r.errorKind, 'timeout', 'stopped, not timed out');
    assert.ok(Date.now() - started < 10_000, 'well before the server would answer (20 s)');
  });

  it('says a refused connection is nobody listening, and a missing host is a DNS failure', async () => {
    const port = await closedPort();
    const refused = await fetchUrl({ url: `http://127.0.0.1:${port}/` });
    assert.equal(refused.errorKind, 'other');
    assert.match(refused.output, new RegExp(`Connection refused by 127\\.0\\.0\\.1:${port}: nothing is listening there`));
    const dns = await fetchUrl({ url: 'http://no-such-host.invalid/' });
    assert.match(dns.output, /no-such-host\.invalid (?:does not exist \(DNS lookup failed\)|failed for now)/);
  });

  it('rejects non-web URLs with a clear error', async () => {
    for (const url of ['file:///etc/passwd', 'data:text/html,<b>x</b>', 'javascript:alert(1)', 'ftp://example.org/x']) {
      const r = await fetchUrl({ url });
      assert.equal(r.ok, false, url);
      assert.match(r.output, /Only http:\/\/ and https:\/\/ URLs can be fetched/, url);
    }
    assert.match((await fetchUrl({ url: 'file:///etc/passwd' })).output, /read_file/);
    assert.match((await fetchUrl({ url: 'not a url' })).output, /is not a valid URL/);
  });

  it('caps a huge page at 50,000 characters and says how much was left out', async () => {
    const r = await fetchUrl({ url: site.url('/huge') });
    assert.equal(r.ok, true);
    assert.ok(r.output.length <= 50_200, `${r.output.length} chars`);
    assert.match(r.output, /\[Truncated: showing [\d,]+ of [\d,]+ characters\.\]$/);
    assert.match(r.summary, /\(truncated\)/);
  });
});

/** A port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
