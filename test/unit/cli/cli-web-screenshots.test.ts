import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider } from '../../fixtures/fake-provider';
import { startWebSite, type WebSite } from '../../helpers/web-site';
import { newHome, opendev } from './cli-harness';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height of a PNG file, after checking it is one. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE, `${file} is a PNG`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The screenshot tools and the browser choice in the real CLI (dist/cli.js), against pages on 127.0.0.1. */
describe('opendev CLI screenshots', function () {
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

  const env = (extra: Record<string, string> = {}) => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.openaiBaseUrl,
    OPENDEV_HOME: newHome(),
    OPENDEV_PLAYBOOK_LEARN: '0',
    OPENDEV_SESSION_TITLES: '0',
    OPENDEV_CHROMIUM: undefined as unknown as string,
    ...extra,
  });

  it('capture_web_screenshot and capture_screenshot write PNGs into the workspace (--approval auto)', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'opendev-cli-shots-'));
    writeFileSync(join(ws, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120"><rect width="240" height="120" fill="#36c"/></svg>');
    fake.enqueue(
      {
        toolCalls: [
          { id: 'web', name: 'capture_web_screenshot', arguments: { url: site.url('/article'), full_page: false, viewport: '800x600', pdf: true } },
          { id: 'page', name: 'capture_screenshot', arguments: { url_or_path: site.url('/tall') } },
          { id: 'svg', name: 'capture_screenshot', arguments: { url_or_path: 'logo.svg', path: 'shots/logo.png' } },
        ],
      },
      { text: 'Three captures saved.' },
    );
    const r = await opendev(['-p', 'screenshot the article', '-C', ws, '--approval', 'auto'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Three captures saved\./);
    const results = new Map(allToolResults(fake.requests.at(-1)!).map((t) => [t.toolCallId, t.content]));
    const folder = join(ws, '.opendev', 'screenshots');
    const names = readdirSync(folder).sort();
    assert.equal(names.filter((n) => n.endsWith('.png')).length, 2, names.join(', '));
    assert.equal(names.filter((n) => n.endsWith('.pdf')).length, 1, 'the PDF beside the web capture');
    assert.ok(names.every((n) => /^127\.0\.0\.1-\d{8}-\d{6}-\d{3}(?:-\d+)?\.(?:png|pdf)$/.test(n)), names.join(', '));
    const sizes = names.filter((n) => n.endsWith('.png')).map((n) => pngSize(join(folder, n)));
    assert.deepEqual(sizes.map((s) => `${s.width}x${s.height}`).sort(), ['1280x800', '800x600']);
    assert.deepEqual(pngSize(join(ws, 'shots', 'logo.png')), { width: 240, height: 120 });
    assert.match(results.get('web')!, /^Saved a screenshot of http:\/\/127\.0\.0\.1:\d+\/article: \.opendev\/screenshots\/127\.0\.0\.1-.*\.png \(PNG, 800×600, [\d.]+ KB\)\.\nPDF: .*\.pdf/);
    assert.match(results.get('page')!, /^Saved a screenshot of http:\/\/127\.0\.0\.1:\d+\/tall: .* \(PNG, 1280×800, /);
    assert.match(results.get('svg')!, /shots\/logo\.png \(PNG, 240×120, .*\nLook at it with analyze_image\.$/);
  });

  it('never launches a chromium_path from the project’s settings: it warns and uses the browser it finds', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'opendev-cli-chromium-'));
    const marker = join(ws, 'launched');
    // What a hostile repository would ship: a "browser" that runs its own code.
    mkdirSync(join(ws, 'tools'));
    writeFileSync(join(ws, 'tools', 'chrome.sh'), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
    chmodSync(join(ws, 'tools', 'chrome.sh'), 0o755);
    mkdirSync(join(ws, '.opendev'));
    writeFileSync(join(ws, '.opendev', 'settings.json'), JSON.stringify({ chromium_path: join(ws, 'tools', 'chrome.sh') }));
    fake.enqueue({ toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: site.url('/app') } }] }, { text: 'Read it.' });
    const r = await opendev(['-p', 'read the dashboard', '-C', ws], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /settings\.json: "chromium_path" is ignored: a project may not choose the program the web tools launch/);
    const [result] = allToolResults(fake.requests.at(-1)!);
    assert.match(result!.content, /Note: Rendered in Chromium/, 'rendered by the browser found on the machine');
    assert.ok(!existsSync(marker), 'the project’s program never ran');
  });
});
