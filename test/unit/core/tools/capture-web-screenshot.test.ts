import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureWebScreenshotTool } from '../../../../src/core/tools/capture-web-screenshot';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { WebSession } from '../../../../src/core/web/web-session';
import { toolContext } from '../../../helpers/tool-context';
import { startWebSite, type WebSite } from '../../../helpers/web-site';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG file's IHDR chunk, after checking the signature. */
function pngDimensions(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE, `${file} is a PNG`);
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Screenshots of pages served on 127.0.0.1, taken in the real Chromium (/usr/bin/chromium). */
describe('capture_web_screenshot', function () {
  this.timeout(90_000);
  let site: WebSite;
  let workspaceRoot: string;
  const env = { ...process.env };
  delete env.OPENDEV_CHROMIUM;
  const web = new WebSession({ env });
  const registry = new ToolRegistry().register(captureWebScreenshotTool(web));
  const capture = (args: Record<string, unknown>, session = registry): Promise<ToolResult> =>
    session.execute({ id: 'shot', name: 'capture_web_screenshot', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot }));

  before(async () => {
    site = await startWebSite();
    assert.ok(web.browser.locate().found, 'a Chromium is installed (apt-get install chromium): these tests need it');
  });
  beforeEach(() => {
    workspaceRoot = mkdtempSync(join(tmpdir(), 'opendev-shot-'));
  });
  after(async () => {
    await web.dispose();
    await site.close();
  });

  it('saves a full-page PNG under .opendev/screenshots by default, at the default 1920-pixel width', async () => {
    const r = await capture({ url: site.url('/tall') });
    assert.equal(r.ok, true, r.output);
    const folder = join(workspaceRoot, '.opendev', 'screenshots');
    const [name] = readdirSync(folder);
    assert.match(name!, /^127\.0\.0\.1-\d{8}-\d{6}-\d{3}\.png$/);
    const size = pngDimensions(join(folder, name!));
    assert.deepEqual(size, { width: 1920, height: 3000 }, 'the whole 3000-pixel page');
    assert.match(r.output, new RegExp(`Saved a screenshot of ${site.url('/tall').replace(/\./g, '\\.')}: \\.opendev/screenshots/${name!.replace(/\./g, '\\.')} \\(PNG, 1920×3000, [\\d.]+ (?:KB|MB)\\)`));
  });

  it('two captures of the same site at once get two files, neither overwriting the other', async () => {
    const [a, b] = await Promise.all([capture({ url: site.url('/article'), full_page: false, viewport: '640x480' }), capture({ url: site.url('/tall'), full_page: false, viewport: '320x240' })]);
    assert.equal(a!.ok && b!.ok, true, `${a!.output}\n${b!.output}`);
    const folder = join(workspaceRoot, '.opendev', 'screenshots');
    const names = readdirSync(folder);
    assert.equal(names.length, 2, names.join(', '));
    assert.deepEqual(names.map((n) => pngDimensions(join(folder, n)).width).sort((x, y) => x - y), [320, 640]);
  });

  it('captures only the viewport when full_page is false, at the size asked, and writes a PDF beside the PNG', async () => {
    const r = await capture({ url: site.url('/article'), path: 'shots/article.png', full_page: false, viewport: '800x600', pdf: true });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(pngDimensions(join(workspaceRoot, 'shots', 'article.png')), { width: 800, height: 600 });
    const pdf = readFileSync(join(workspaceRoot, 'shots', 'article.pdf'));
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(r.output, /PDF: shots\/article\.pdf \([\d.]+ KB\)/);
  });

  it('captures an HTML file of the workspace, after the selector it waits for', async () => {
    writeFileSync(join(workspaceRoot, 'index.html'), '<html><body><script>setTimeout(() => { document.body.innerHTML = "<h1 id=ready>Ready</h1>"; }, 300)</script></body></html>');
    const r = await capture({ url: 'index.html', path: 'index.png', wait_for: '#ready', full_page: false, viewport: '400x300' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(pngDimensions(join(workspaceRoot, 'index.png')), { width: 400, height: 300 });
    assert.match(r.output, /Saved a screenshot of file:\/\/.*index\.html: index\.png/);
  });

  it('reports a selector that never appears as a timeout, and an HTTP error with its status', async () => {
    const late = await capture({ url: site.url('/article'), wait_for: '#never', timeout_ms: 1_000 });
    assert.equal(late.errorKind, 'timeout');
    assert.match(late.output, /was not ready within 1 s/);
    const missing = await capture({ url: site.url('/missing') });
    assert.equal(missing.errorKind, 'not_found');
    assert.match(missing.output, /HTTP 404/);
    assert.ok(!existsSync(join(workspaceRoot, '.opendev')), 'nothing written');
  });

  it('writes only inside the workspace, as .png, never into .git or the agent settings; keeps timeout and viewport in range', async () => {
    mkdirSync(join(workspaceRoot, '.git'));
    for (const [path, pattern] of [
      ['../outside.png', /outside the workspace/],
      ['shot.jpg', /must end in \.png/],
      ['.git/hooks/pre-commit.png', /inside \.git\//],
      ['.opendev/settings.png', /inside \.opendev\//],
    ] as const) {
      const r = await capture({ url: site.url('/article'), path });
      assert.equal(r.ok, false, path);
      assert.match(r.output, pattern, path);
    }
    for (const url of ['file:///etc/hostname', 'javascript:alert(1)', 'missing.html']) assert.equal((await capture({ url })).ok, false, url);
    assert.equal((await capture({ url: site.url('/article'), timeout_ms: 180_001 })).ok, false, 'timeout_ms is capped at 180 s');
    assert.match((await capture({ url: site.url('/article'), viewport: '100x100' })).output, /viewport 100x100 is out of range/);
    assert.match((await capture({ url: site.url('/article'), viewport: '1280*720' })).output, /WIDTHxHEIGHT/);
  });

  it('stops at once when the user stops the agent, writing nothing', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 500);
    const started = Date.now();
    const r = await registry.execute({ id: 'x', name: 'capture_web_screenshot', arguments: JSON.stringify({ url: site.url('/slow'), timeout_ms: 60_000 }) }, toolContext({ workspaceRoot, signal: stop.signal }));
    assert.equal(r.ok, false);
    assert.notEqual(r.errorKind, 'timeout', 'stopped, not timed out');
    assert.ok(Date.now() - started < 15_000, `stopped after ${Date.now() - started} ms, not when the page would have loaded (20 s)`);
    assert.ok(!existsSync(join(workspaceRoot, '.opendev')), 'nothing written');
  });

  it('without a browser, says how to get one', async () => {
    const none = new WebSession({ env: { ...process.env, OPENDEV_CHROMIUM: '/nonexistent/chromium' } });
    const r = await capture({ url: site.url('/article') }, new ToolRegistry().register(captureWebScreenshotTool(none)));
    assert.equal(r.ok, false);
    assert.match(r.output, /OPENDEV_CHROMIUM names \/nonexistent\/chromium, which does not exist/);
  });
});
