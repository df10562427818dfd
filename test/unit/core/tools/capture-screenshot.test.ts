import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureScreenshotTool } from '../../../../src/core/tools/capture-screenshot';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool, ToolResult } from '../../../../src/core/tools/tool';
import { WebSession } from '../../../../src/core/web/web-session';
import { toolContext } from '../../../helpers/tool-context';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The signature and the IHDR chunk's width and height: what makes a file a PNG of that size. */
function pngHeader(file: string): { signature: boolean; chunk: string; width: number; height: number } {
  const bytes = readFileSync(file);
  return { signature: bytes.subarray(0, 8).equals(PNG_SIGNATURE), chunk: bytes.subarray(12, 16).toString('latin1'), width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('capture_screenshot', function () {
  this.timeout(60_000);
  let server: Server;
  let origin: string;
  let root: string;
  const sessions: WebSession[] = [];

  const capture = (args: Record<string, unknown>, env: NodeJS.ProcessEnv = withoutChoice()): Promise<ToolResult> => {
    const web = new WebSession({ env, browserIdleMs: 1_000 });
    sessions.push(web);
    return new ToolRegistry().register(captureScreenshotTool(web) as Tool).execute({ id: 'c', name: 'capture_screenshot', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: root }));
  };

  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body style="margin:0;background:#2a6"><h1>Dashboard</h1><script>document.body.insertAdjacentHTML("beforeend", "<p>rendered by script</p>")</script></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await Promise.all(sessions.map((s) => s.dispose()));
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-shot-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('captures a page served on 127.0.0.1 as a real PNG of the viewport in .opendev/screenshots/', async () => {
    const r = await capture({ url_or_path: `${origin}/dashboard` });
    assert.equal(r.ok, true, r.output);
    const files = readdirSync(join(root, '.opendev/screenshots'));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^127\.0\.0\.1-\d{8}-\d{6}-\d{3}\.png$/, 'named by site and time to the millisecond');
    assert.deepEqual(pngHeader(join(root, '.opendev/screenshots', files[0]!)), { signature: true, chunk: 'IHDR', width: 1280, height: 800 });
    assert.match(r.output, new RegExp(`^Saved a screenshot of ${origin}/dashboard: \\.opendev/screenshots/${files[0]!.replace(/\./g, '\\.')} \\(PNG, 1280×800, [\\d.]+ KB\\)\\.\nLook at it with analyze_image\\.$`));
  });

  it('renders an SVG from the workspace to a PNG of its own size at the path asked for', async () => {
    writeFileSync(join(root, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="300" height="150" fill="#c33"/><text x="20" y="80">OpenDev</text></svg>');
    const r = await capture({ url_or_path: 'logo.svg', path: 'shots/logo.png' });
    assert.equal(r.ok, true, r.output);
    assert.deepEqual(pngHeader(join(root, 'shots/logo.png')), { signature: true, chunk: 'IHDR', width: 300, height: 150 });
  });

  it('explains that the screen and the VS Code window cannot be captured, and refuses what is not a page or an image', async () => {
    const window = await capture({ url_or_path: 'the VS Code window' });
    assert.equal(window.ok, false);
    assert.match(window.output, /cannot be captured: VS Code gives extensions no way to screenshot its window or the screen/);
    assert.match(window.output, /Ask the user to paste a screenshot into the chat/);

    writeFileSync(join(root, 'notes.png'), 'not an image at all');
    const text = await capture({ url_or_path: 'notes.png' });
    assert.match(text.output, /notes\.png is not an HTML page, an SVG or a PNG, JPEG, GIF or WebP image/);
    const ftp = await capture({ url_or_path: 'ftp://example.org/x' });
    assert.match(ftp.output, /Only http\(s\) URLs and files in the workspace can be captured/);
    for (const path of ['.git/x.png', '.claude/x.png', '.opendev/settings.png']) {
      const r = await capture({ url_or_path: `${origin}/`, path });
      assert.equal(r.errorKind, 'permission', `the same protected folders as capture_web_screenshot: ${path}`);
    }
    const fileUrl = await capture({ url_or_path: 'file:///etc/hostname' });
    assert.equal(fileUrl.errorKind, 'permission', 'a file: URL outside the workspace, as capture_web_screenshot and open_browser refuse it');
  });

  it('without a browser, says how to get one', async () => {
    const r = await capture({ url_or_path: `${origin}/` }, { ...withoutChoice(), OPENDEV_CHROMIUM: join(root, 'no-such-chromium') });
    assert.equal(r.ok, false);
    assert.match(r.output, /OPENDEV_CHROMIUM names .*no-such-chromium, which does not exist/);
  });
});

function withoutChoice(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENDEV_CHROMIUM;
  return env;
}
