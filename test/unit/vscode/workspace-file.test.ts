import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceFile } from '../../../src/vscode/workspace-file';

describe('a file link from the chat (workspaceFile)', () => {
  let root: string;
  let outside: string;
  let second: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-link-ws-'));
    second = mkdtempSync(join(tmpdir(), 'opendev-link-ws2-'));
    outside = mkdtempSync(join(tmpdir(), 'opendev-link-out-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/app.ts'), 'x');
    writeFileSync(join(second, 'only-here.md'), 'y');
    writeFileSync(join(outside, 'secret.txt'), 'z');
    symlinkSync(outside, join(root, 'link-out'));
  });

  after(() => {
    for (const dir of [root, second, outside]) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a path inside the workspace, in whichever folder holds it', () => {
    assert.equal(workspaceFile('src/app.ts', [root, second]), join(root, 'src/app.ts'));
    assert.equal(workspaceFile('./src/../src/app.ts', [root]), join(root, 'src/app.ts'));
    assert.equal(workspaceFile('only-here.md', [root, second]), join(second, 'only-here.md'));
    assert.equal(workspaceFile(join(root, 'src/app.ts'), [root]), join(root, 'src/app.ts'), 'an absolute path inside');
  });

  it('refuses a path that leaves the workspace, as written or through a link', () => {
    for (const path of ['../x', join(outside, 'secret.txt'), 'link-out/secret.txt', '/etc/passwd']) {
      const result = workspaceFile(path, [root]);
      assert.equal(typeof result, 'object', `${path} → ${String(result)}`);
    }
    assert.deepEqual(workspaceFile('src/app.ts', []), { problem: 'no folder is open' });
  });
});
