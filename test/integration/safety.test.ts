import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { allToolResults } from '../fixtures/fake-provider';
import { changeProjectConfiguration, fakeProviderSuite, trustFolderConfiguration, until, untrustFolderConfiguration } from './support';

/**
 * Safety and persistence in the VS Code chat: the project's .opendev/settings.json layered over the
 * editor's settings, its hooks (the folder's configuration trusted first: trust.test.ts shows what
 * happens before), the danger rules in auto mode, and Undo Last Step from the palette.
 */
describe('safety and persistence in VS Code', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  let folder: string;
  const projectSettings = () => join(folder, '.opendev', 'settings.json');

  before(() => {
    api = suite.api;
    folder = suite.folder;
  });
  after(async () => {
    rmSync(join(folder, '.opendev'), { recursive: true, force: true });
    rmSync(join(folder, 'notes.txt'), { force: true });
    await untrustFolderConfiguration();
  });

  it("the project's .opendev/settings.json chooses the model over the editor's settings, and its hook blocks a prompt", async () => {
    mkdirSync(join(folder, '.opendev'), { recursive: true });
    const hook = join(folder, '.opendev', 'no-secrets.sh');
    writeFileSync(hook, '#!/bin/sh\ngrep -q "password" && { echo "Prompts must not contain passwords." >&2; exit 2; }\nexit 0\n', { mode: 0o755 });
    // The extension watches the project file and builds a new agent from it.
    await changeProjectConfiguration(api, () =>
      writeFileSync(
        projectSettings(),
        JSON.stringify({ model: 'project-model', hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] } }),
      ),
    );
    // Its hook runs only once the user trusts the folder's configuration.
    await trustFolderConfiguration();
    api.newChat();

    fake.enqueue({ text: 'Hello.' });
    assert.equal((await api.send('hi'))?.status, 'completed');
    assert.equal(fake.requests[0]!.body.model, 'project-model');

    const blocked = await api.send('my password is hunter2');
    assert.equal(blocked?.status, 'blocked');
    assert.equal(fake.requests.length, 1, 'the blocked prompt never reached the model');
    const said = api.transcript().map((e) => ('text' in e ? e.text : '')).join('\n');
    assert.match(said, /Prompts must not contain passwords\./);
    // The whole folder at once: the extension sees it go (the editor reports the folder, not always the files in it).
    await changeProjectConfiguration(api, () => rmSync(join(folder, '.opendev'), { recursive: true, force: true }));
  });

  it('refuses a dangerous command even in auto, and Undo Last Step removes a file the agent created', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'call_sudo', name: 'run_command', arguments: { command: 'sudo rm -rf /' } }] },
      { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { file_path: 'notes.txt', content: 'remember the milk\n' } }] },
      { text: 'Saved your note.' },
    );
    assert.equal((await api.send('clean up, then save a note'))?.status, 'completed');
    const [refused] = allToolResults(fake.requests.at(-1)!);
    assert.match(refused!.content, /sudo|privilege|refused|blocked/i);
    const notes = join(folder, 'notes.txt');
    assert.equal(readFileSync(notes, 'utf8'), 'remember the milk\n');

    await vscode.commands.executeCommand('opendev.undo');
    await until(() => !existsSync(notes), 'the undo to remove notes.txt');
    const said = api.transcript().map((e) => ('text' in e ? e.text : '')).join('\n');
    assert.match(said, /notes\.txt/, 'the chat says what was undone');
  });
});
