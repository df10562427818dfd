import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderMentionSources } from '../../../../src/vscode/mentions/folder-mention-sources';

/** Mentions in a multi-root workspace: the chat folder's paths as they are, another folder's with its name first. */
describe('folderMentionSources (mentions across workspace folders)', () => {
  let chat: string;
  let api: string;

  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), 'opendev-folder-mentions-'));
    chat = join(root, 'app');
    api = join(root, 'api');
    mkdirSync(join(chat, 'src'), { recursive: true });
    mkdirSync(join(api, 'src'), { recursive: true });
    writeFileSync(join(chat, 'src', 'app.ts'), 'export const APP = 1;\n');
    writeFileSync(join(api, 'src', 'server.ts'), 'export const PORT = 8080;\n');
    // The same relative path in both: the chat folder's wins.
    writeFileSync(join(chat, 'README.md'), '# app\n');
    writeFileSync(join(api, 'README.md'), '# api\n');
  });

  it("reads the chat folder's files by their relative path", async () => {
    const sources = folderMentionSources(chat, [{ name: 'api', path: api }]);
    assert.equal(await sources.kindOf('src/app.ts'), 'file');
    assert.match(await sources.readFile('src/app.ts'), /APP = 1/);
    assert.match(await sources.readFile('README.md'), /# app/);
  });

  it("reads another folder's files and folders named with the folder first, by absolute path", async () => {
    const sources = folderMentionSources(chat, [{ name: 'api', path: api }]);
    assert.equal(await sources.kindOf('api/src/server.ts'), 'file');
    assert.equal(await sources.kindOf('api/src'), 'folder');
    assert.equal(await sources.kindOf('api'), 'folder');
    const text = await sources.readFile('api/src/server.ts');
    assert.match(text, /PORT = 8080/);
    assert.match(await sources.listFolder('api/src'), /server\.ts/);
  });

  it('knows nothing outside the workspace folders, nor a folder name it was not given', async () => {
    const sources = folderMentionSources(chat, [{ name: 'api', path: api }]);
    assert.equal(await sources.kindOf('../api/src/server.ts'), undefined);
    assert.equal(await sources.kindOf('web/src/server.ts'), undefined);
    assert.equal(await sources.kindOf('api/../../etc/passwd'), undefined);
  });
});
