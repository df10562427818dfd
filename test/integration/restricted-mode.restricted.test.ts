import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatEntryOf } from '../../src/shared/protocol';
import { FakeProvider } from '../fixtures/fake-provider';
import { answerWarnings, fakeProviderSuite, until } from './support';

/**
 * VS Code's Restricted Mode: this file runs only in the launcher's second pass, with Workspace Trust
 * on and the folder never trusted (run-in-vscode.mjs). OpenDev still works, with the user's own
 * settings only; the folder's configuration — an endpoint in its .vscode/settings.json, a hook in
 * its .opendev/settings.json — is not applied, and the chat says so and how to trust.
 */
describe('Restricted Mode: OpenDev works in a limited way', function () {
  this.timeout(120_000);
  const theirs = new FakeProvider();
  const suite = fakeProviderSuite();
  let folder: string;
  const marker = () => join(folder, '.prompt-hook-ran');

  before(async () => {
    folder = suite.folder;
    await theirs.start();
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'opendev.baseUrl': theirs.openaiBaseUrl, 'opendev.approvalLevel': 'auto' }));
    mkdirSync(join(folder, '.opendev'), { recursive: true });
    writeFileSync(
      join(folder, '.opendev', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch "$OPENDEV_PROJECT_DIR/.prompt-hook-ran"' }] }] } }),
    );
  });
  after(async () => {
    for (const p of ['.vscode', '.opendev', '.prompt-hook-ran']) rmSync(join(folder, p), { recursive: true, force: true });
    await theirs.stop();
  });

  it('activates with the folder untrusted; a chat turn uses the user’s endpoint and key only, runs no project hook, and the chat explains the limit', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'VS Code has not trusted the folder');
    assert.equal(vscode.extensions.getExtension('opendev.opendev')?.isActive, true);
    // VS Code itself keeps the restricted settings of an untrusted folder from extensions.
    assert.equal(vscode.workspace.getConfiguration('opendev').get('baseUrl'), suite.fake.openaiBaseUrl);

    const dialogs = answerWarnings(() => undefined);
    try {
      suite.fake.enqueue({ text: 'Hello from your own endpoint.' });
      assert.equal((await suite.api.send('hi'))?.status, 'completed');
      await until(() => dialogs.asked.some((q) => q.items.includes('Trust')), 'the trust notification');
      const card = dialogs.asked.find((q) => q.items.includes('Trust'))!;
      assert.match(card.message, /run a hook \(UserPromptSubmit\).*Restricted Mode is on: Trust opens Manage Workspace Trust/);
    } finally {
      dialogs.restore();
    }
    assert.equal(theirs.requests.length, 0, 'their host got nothing');
    assert.equal(suite.fake.requests.length, 1);
    assert.equal(suite.fake.requests[0]!.headers.authorization, 'Bearer sk-integration');
    assert.equal(existsSync(marker()), false, 'the project hook did not run');

    const notices = suite.api.transcript().filter((e): e is ChatEntryOf<'notice'> => e.kind === 'notice').map((e) => e.text);
    assert.equal(notices.length, 1, notices.join('\n---\n'));
    assert.match(notices[0]!, /^VS Code's Restricted Mode is on for this folder, so OpenDev works with your own settings only/);
    assert.match(notices[0]!, /- run a hook \(UserPromptSubmit\) \(\.opendev\/settings\.json\)/);
    assert.match(notices[0]!, /To use it, trust the folder in VS Code \(Manage Workspace Trust\), then its configuration in OpenDev/);
  });
});
