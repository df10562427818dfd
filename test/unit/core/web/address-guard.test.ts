import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureWebScreenshotTool } from '../../../../src/core/tools/capture-web-screenshot';
import { fetchUrlTool } from '../../../../src/core/tools/fetch-url';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool, ToolResult } from '../../../../src/core/tools/tool';
import { webSearchTool } from '../../../../src/core/tools/web-search';
import { checkHost, forbiddenAddress, systemLookup, type HostLookup } from '../../../../src/core/web/address-guard';
import { WebSession } from '../../../../src/core/web/web-session';
import { toolContext } from '../../../helpers/tool-context';
import { startWebSite, type WebSite } from '../../../helpers/web-site';

/** `metadata-alias.test` and `evil.test` resolve to link-local addresses; everything else as the system says. */
const lookup: HostLookup = async (host) => (host === 'metadata-alias.test' ? ['169.254.169.254'] : host === 'evil.test' ? ['10.0.0.5', 'fe80::1'] : systemLookup(host));

describe('the web tools’ address guard (no link-local or cloud-metadata addresses)', function () {
  this.timeout(60_000);
  let site: WebSite;
  let workspaceRoot: string;
  const env = { ...process.env };
  delete env.OPENDEV_CHROMIUM;
  const web = new WebSession({ env, lookup, timeoutMs: 10_000 });
  const registry = new ToolRegistry().register(fetchUrlTool(web) as Tool).register(captureWebScreenshotTool(web) as Tool);
  const call = (name: string, args: Record<string, unknown>, session = registry): Promise<ToolResult> =>
    session.execute({ id: 'g', name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot }));

  before(async () => {
    site = await startWebSite();
    workspaceRoot = mkdtempSync(join(tmpdir(), 'opendev-guard-'));
  });
  after(async () => {
    await web.dispose();
    await site.close();
  });

  it('knows link-local and metadata addresses in every spelling, and leaves loopback and the LAN alone', async () => {
    for (const ip of ['169.254.169.254', '169.254.0.1', '::ffff:169.254.169.254', 'fe80::1', 'fe80::1%eth0', '[fe80::abcd]']) assert.equal(forbiddenAddress(ip), 'what_link_local', ip);
    for (const ip of ['fd00:ec2::254', '100.100.100.200']) assert.equal(forbiddenAddress(ip), 'what_metadata', ip);
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.20', '172.16.0.9', 'fd12::1', '93.184.216.34', 'localhost']) assert.equal(forbiddenAddress(ip), undefined, ip);
    assert.deepEqual(await checkHost('METADATA.google.internal.'), { what: 'what_metadata' }, 'by name, without asking DNS');
    assert.deepEqual(await checkHost('evil.test', lookup), { what: 'what_link_local', address: 'fe80::1' }, 'any of the addresses a name resolves to');
    assert.equal(await checkHost('localhost'), undefined);
    assert.deepEqual(await checkHost(new URL('http://0xa9fea9fe/').hostname), { what: 'what_link_local' }, 'hex IPv4, as the URL parser normalises it');
    assert.deepEqual(await checkHost(new URL('http://[::ffff:169.254.169.254]/').hostname), { what: 'what_link_local' }, 'IPv4-mapped IPv6');
  });

  it('fetch_url refuses the metadata address, a name that resolves to it, and redirects to either, as a permission error; a local server still works', async () => {
    const direct = await call('fetch_url', { url: 'http://169.254.169.254/latest/meta-data/' });
    assert.equal(direct.errorKind, 'permission');
    assert.match(direct.output, /http:\/\/169\.254\.169\.254\/latest\/meta-data\/ was not fetched: 169\.254\.169\.254 is a link-local address \(169\.254\.0\.0\/16, fe80::\/10\)\. The web tools never reach link-local or cloud-metadata addresses/);
    assert.match(direct.output, /servers on 127\.0\.0\.1, localhost or the local network are allowed/);

    const google = await call('fetch_url', { url: 'http://metadata.google.internal/computeMetadata/v1/' });
    assert.equal(google.errorKind, 'permission');
    assert.match(google.output, /metadata\.google\.internal is a cloud metadata service/);

    const named = await call('fetch_url', { url: `http://metadata-alias.test:${new URL(site.origin).port}/secret` });
    assert.equal(named.errorKind, 'permission');
    assert.match(named.output, /metadata-alias\.test resolves to 169\.254\.169\.254, a link-local address/);

    const requestsBefore = site.requests.length;
    const redirected = await call('fetch_url', { url: site.url('/to-metadata') });
    assert.equal(redirected.errorKind, 'permission', redirected.output);
    assert.match(redirected.output, /http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/ was not fetched/);
    const viaName = await call('fetch_url', { url: site.url('/to-alias') });
    assert.equal(viaName.errorKind, 'permission', viaName.output);
    assert.match(viaName.output, /resolves to 169\.254\.169\.254/);
    assert.deepEqual(site.requests.slice(requestsBefore), ['/to-metadata', '/to-alias'], 'the redirect targets were never requested');

    const local = await call('fetch_url', { url: site.url('/moved') });
    assert.equal(local.ok, true, local.output);
    assert.match(local.output, /Note: Redirected from/);
  });

  it('a crawl records a link that redirects to the metadata address as not read, and reads the rest', async () => {
    const r = await call('fetch_url', { url: site.url('/guarded/'), crawl: { max_depth: 1, max_pages: 5 } });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /## \d\. Parsing configs safely/, 'the ordinary link was read');
    assert.match(r.output, /Not read:\n- http:\/\/127\.0\.0\.1:\d+\/to-metadata: http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/ was not fetched/);
    const start = await call('fetch_url', { url: site.url('/to-metadata'), crawl: { max_depth: 1, max_pages: 3 } });
    assert.equal(start.errorKind, 'permission', 'a crawl whose start page is refused is refused');
  });

  it('web_search refuses a search endpoint on the metadata address', async () => {
    const searchEnv = { ...env, OPENDEV_WEB_SEARCH_URL: 'http://169.254.169.254/html/' };
    const search = new ToolRegistry().register(webSearchTool(new WebSession({ env: searchEnv })) as Tool);
    const r = await call('web_search', { query: 'credentials' }, search);
    assert.equal(r.errorKind, 'permission');
    assert.match(r.output, /169\.254\.169\.254 is a link-local address/);
  });

  it('in the browser: a page that redirects a frame, or navigates, to the metadata address is refused whole, and no screenshot is written', async () => {
    assert.ok(web.browser.locate().found, 'a Chromium is installed (apt-get install chromium): this test needs it');
    const framed = await call('capture_web_screenshot', { url: site.url('/framed-metadata'), timeout_ms: 15_000 });
    assert.equal(framed.errorKind, 'permission', framed.output);
    assert.match(framed.output, /169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/ was not fetched/);
    assert.ok(!existsSync(join(workspaceRoot, '.opendev')), 'nothing written');

    const scripted = await call('fetch_url', { url: site.url('/scripted-metadata'), render: true });
    assert.equal(scripted.errorKind, 'permission', scripted.output);
    assert.match(scripted.output, /http:\/\/169\.254\.169\.254\/latest\/meta-data\/ was not fetched/);

    const fine = await call('fetch_url', { url: site.url('/app') });
    assert.equal(fine.ok, true, fine.output);
    assert.match(fine.output, /Note: Rendered in Chromium/);
  });
});
