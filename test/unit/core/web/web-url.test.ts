import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError } from '../../../../src/core/tools/tool';
import { parseWebOrWorkspaceTarget } from '../../../../src/core/web/web-url';

/** The one rule for "a URL or a workspace file" (capture_web_screenshot, capture_screenshot, open_browser). */
describe('parseWebOrWorkspaceTarget', () => {
  let root: string;
  let outside: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'opendev-target-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'opendev-outside-')));
    mkdirSync(join(root, 'site'));
    writeFileSync(join(root, 'site', 'index.html'), '<h1>Hi</h1>');
    writeFileSync(join(outside, 'secret.html'), '<h1>Secret</h1>');
    symlinkSync(join(outside, 'secret.html'), join(root, 'link.html'));
  });

  const refusal = (raw: string): ToolError => {
    try {
      parseWebOrWorkspaceTarget(raw, root, 'captured');
    } catch (err) {
      assert.ok(err instanceof ToolError, String(err));
      return err;
    }
    assert.fail(`${raw} was accepted`);
  };

  it('takes http(s) URLs as they are', () => {
    const t = parseWebOrWorkspaceTarget('  https://example.org/a?b=1  ', root, 'captured');
    assert.deepEqual([t.kind, t.url.href, t.shown], ['web', 'https://example.org/a?b=1', 'https://example.org/a?b=1']);
  });

  it('takes a workspace file as a path or as a file: URL, the same way', () => {
    const byPath = parseWebOrWorkspaceTarget('site/index.html', root, 'captured');
    const byUrl = parseWebOrWorkspaceTarget(pathToFileURL(join(root, 'site', 'index.html')).href, root, 'captured');
    const absolute = parseWebOrWorkspaceTarget(join(root, 'site', 'index.html'), root, 'captured');
    for (const t of [byPath, byUrl, absolute]) {
      assert.equal(t.kind, 'file');
      assert.equal(t.url.href, pathToFileURL(join(root, 'site', 'index.html')).href);
      assert.equal(t.shown, join('site', 'index.html'));
    }
  });

  it('refuses files outside the workspace (by path, file: URL or symbolic link), missing files and other schemes', () => {
    assert.equal(refusal(pathToFileURL(join(outside, 'secret.html')).href).kind, 'permission');
    assert.equal(refusal('../x.html').kind, 'permission');
    const link = refusal('link.html');
    assert.equal(link.kind, 'permission');
    assert.match(link.message, /link\.html is a symbolic link to .*secret\.html, outside the workspace/);
    const missing = refusal('missing.html');
    assert.equal(missing.kind, 'not_found');
    assert.match(missing.message, /missing\.html does not exist in the workspace/);
    for (const scheme of ['ftp://example.org/x', 'javascript:alert(1)', 'data:text/html,<h1>x</h1>', 'chrome://settings']) {
      assert.match(refusal(scheme).message, new RegExp(`Only http\\(s\\) URLs and files in the workspace can be captured, not ${scheme.split(':')[0]}: addresses\\.`), scheme);
    }
    assert.match(refusal('file://%%bad').message, /is not a valid file: URL/);
    assert.match(refusal('http://exa mple.org/').message, /is not a valid URL/);
  });
});
