import * as assert from 'node:assert/strict';
import { codePathTarget, linkTarget } from '../../../src/shared/link-target';
import { WebviewToExtensionSchema } from '../../../src/shared/protocol';

describe('links in the chat (link-target)', () => {
  it('web addresses open only with http, https or mailto', () => {
    assert.deepEqual(linkTarget('https://example.com/a?b=1#c'), { kind: 'url', url: 'https://example.com/a?b=1#c' });
    assert.deepEqual(linkTarget('mailto:me@example.com'), { kind: 'url', url: 'mailto:me@example.com' });
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'vscode://x', 'command:workbench.action.quit', 'ftp://h/x', '//evil.example/x']) {
      assert.equal(linkTarget(bad), undefined, bad);
    }
  });

  it('a relative path is a workspace file, with its line and column when written', () => {
    assert.deepEqual(linkTarget('src/app.ts'), { kind: 'file', path: 'src/app.ts' });
    assert.deepEqual(linkTarget('src/app.ts:12'), { kind: 'file', path: 'src/app.ts', line: 12 });
    assert.deepEqual(linkTarget('./src/app.ts:12:5'), { kind: 'file', path: './src/app.ts', line: 12, column: 5 });
    assert.deepEqual(linkTarget('docs/guide.md#L3'), { kind: 'file', path: 'docs/guide.md', line: 3 });
    assert.deepEqual(linkTarget('app.ts:7'), { kind: 'file', path: 'app.ts', line: 7 });
    assert.deepEqual(linkTarget('my%20notes.md'), undefined, 'a space is not a path the view links');
  });

  it('inline code is a file link only when it has a folder or a line', () => {
    assert.deepEqual(codePathTarget('src/app.ts:12'), { kind: 'file', path: 'src/app.ts', line: 12 });
    assert.deepEqual(codePathTarget('app.ts:3'), { kind: 'file', path: 'app.ts', line: 3 });
    for (const code of ['README.md', 'foo.bar()', 'npm run build', 'a/b', 'http://x.org/a.js', 'x = a.b']) assert.equal(codePathTarget(code), undefined, code);
  });

  it('the openLink message carries only a valid target', () => {
    assert.equal(WebviewToExtensionSchema.safeParse({ type: 'openLink', target: { kind: 'file', path: 'src/a.ts', line: 3 } }).success, true);
    assert.equal(WebviewToExtensionSchema.safeParse({ type: 'openLink', target: { kind: 'url', url: 'https://x.org' } }).success, true);
    for (const target of [{ kind: 'file', path: '' }, { kind: 'file', path: 'a', line: 0 }, { kind: 'file', path: 'a', line: 1.5 }, { kind: 'shell', command: 'rm' }, { kind: 'url', url: 'x'.repeat(3000) }]) {
      assert.equal(WebviewToExtensionSchema.safeParse({ type: 'openLink', target }).success, false, JSON.stringify(target).slice(0, 80));
    }
  });
});
