import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatEntryOf } from '../../src/shared/protocol';
import { changeProjectConfiguration, fakeProviderSuite, trustFolderConfiguration, until, untrustFolderConfiguration } from './support';

/**
 * Trust belongs to a folder: in the two-folder workspace both folders bring the same project hook
 * (.opendev/settings.json, UserPromptSubmit: touch a marker in the folder). The user trusts app's
 * configuration; api's stays untrusted. A chat in app runs app's hook; a chat in api does not run
 * api's (its configuration stays inert and the chat says why), though app's is trusted.
 */
describe('multi-root workspace: trust is per folder', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite();
  const { fake } = suite;
  const folder = (name: string) => {
    const found = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
    assert.ok(found, `the workspace has a folder named ${name}`);
    return found;
  };
  const marker = (name: string) => join(folder(name).uri.fsPath, '.prompt-hook-ran');
  const notices = () => suite.api.transcript().filter((e): e is ChatEntryOf<'notice'> => e.kind === 'notice' && e.command === undefined).map((e) => e.text);

  /** Puts the chat in `name` as the user would: New Chat, then a file of that folder in the editor. */
  async function chatIn(name: string, file: string): Promise<void> {
    suite.api.newChat();
    await vscode.window.showTextDocument(vscode.Uri.file(join(folder(name).uri.fsPath, file)));
    await until(() => suite.api.chatFolders().current === folder(name).uri.toString(), `the chat in ${name}`);
  }

  before(async () => {
    for (const name of ['app', 'api']) {
      await changeProjectConfiguration(suite.api, () => {
        mkdirSync(join(folder(name).uri.fsPath, '.opendev'), { recursive: true });
        const hook = { hooks: [{ type: 'command', command: 'touch "$OPENDEV_PROJECT_DIR/.prompt-hook-ran"' }] };
        writeFileSync(join(folder(name).uri.fsPath, '.opendev', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [hook] } }, null, 2));
      });
    }
  });
  after(async () => {
    await chatIn('app', 'math.ts');
    await untrustFolderConfiguration();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of ['app', 'api']) {
      rmSync(join(folder(name).uri.fsPath, '.opendev'), { recursive: true, force: true });
      rmSync(marker(name), { force: true });
    }
  });

  it("the trusted folder's hook runs in a chat there; the same hook of the untrusted folder stays inert in a chat there", async () => {
    await chatIn('app', 'math.ts');
    const asked = await trustFolderConfiguration();
    assert.ok(asked.some((q) => q.modal && q.message === 'Trust the OpenDev configuration of app?'), JSON.stringify(asked));

    fake.enqueue({ text: 'Hello from app.' });
    assert.equal((await suite.api.send('hi from app'))?.status, 'completed');
    assert.equal(existsSync(marker('app')), true, "app's trusted hook ran");
    assert.equal(existsSync(marker('api')), false);

    await chatIn('api', 'src/server.ts');
    fake.enqueue({ text: 'Hello from api.' });
    assert.equal((await suite.api.send('hi from api'))?.status, 'completed');
    assert.equal(fake.requests.length, 2, 'both messages reached the model');
    assert.equal(existsSync(marker('api')), false, "api's untrusted hook did not run");
    const said = notices().join('\n');
    assert.match(said, /^This folder's OpenDev configuration is not applied \(the folder is not trusted\)\. It wants to:/m);
    assert.match(said, /run a hook \(UserPromptSubmit\) \(\.opendev\/settings\.json\)/);
  });
});
