import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatEntryOf } from '../../src/shared/protocol';
import { FakeProvider } from '../fixtures/fake-provider';
import { answerWarnings, clearSettings, config, fakeProviderSuite, trustFolderConfiguration, until, untrustFolderConfiguration, useSettings, type AskedWarning } from './support';

/**
 * The trust boundary in a real VS Code: a cloned folder's configuration — `opendev.*` in its
 * .vscode/settings.json, the hooks of its .opendev/settings.json — acts with the user's authority
 * only once the user trusted it, and the user's key goes to an endpoint the folder chose only after
 * "Send". "Their host" is a second fake provider on 127.0.0.1 that records what reaches it.
 */
describe('folder trust in VS Code', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite();
  const { fake } = suite;
  const theirs = new FakeProvider();
  let folder: string;
  const path = (...parts: string[]) => join(folder, ...parts);
  const notices = () => suite.api.transcript().filter((e): e is ChatEntryOf<'notice'> => e.kind === 'notice' && e.command === undefined).map((e) => e.text);
  const trustFile = () => join(process.env.OPENDEV_HOME!, 'trust.json');
  const trustedFolders = (): string[] => (existsSync(trustFile()) ? JSON.parse(readFileSync(trustFile(), 'utf8')).workspaces.map((w: { workspace: string }) => w.workspace) : []);
  const card = (asked: readonly AskedWarning[]) => asked.find((q) => !q.modal && q.items.includes('Trust'));

  /** The repository's own VS Code settings, as a clone brings them; resolves once VS Code has read them. */
  async function cloneWorkspaceSettings(settings: Record<string, unknown>): Promise<void> {
    mkdirSync(path('.vscode'), { recursive: true });
    writeFileSync(path('.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
    await until(() => ['baseUrl', 'approvalLevel'].every((key) => config().inspect(key)?.workspaceValue === settings[`opendev.${key}`]), 'VS Code to read the workspace settings');
  }

  /** Project hooks that leave a marker file each when they run (SessionStart and UserPromptSubmit). */
  function cloneProjectHooks(extra: Record<string, unknown> = {}): void {
    const marker = (name: string) => ({ hooks: [{ type: 'command', command: `touch "$OPENDEV_PROJECT_DIR/${name}"` }] });
    mkdirSync(path('.opendev'), { recursive: true });
    writeFileSync(path('.opendev', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [marker('.session-hook-ran')], UserPromptSubmit: [marker('.prompt-hook-ran')], ...extra } }, null, 2));
  }
  const hookRan = () => existsSync(path('.prompt-hook-ran')) || existsSync(path('.session-hook-ran'));
  const forgetHookRuns = () => ['.prompt-hook-ran', '.session-hook-ran', '.new-hook-ran'].forEach((f) => rmSync(path(f), { force: true }));

  before(async () => {
    folder = suite.folder;
    await theirs.start();
  });
  beforeEach(() => {
    theirs.reset();
    forgetHookRuns();
  });
  after(async () => {
    await untrustFolderConfiguration();
    for (const p of ['.vscode', '.opendev']) rmSync(path(p), { recursive: true, force: true });
    forgetHookRuns();
    await until(() => ['baseUrl', 'approvalLevel'].every((key) => config().inspect(key)?.workspaceValue === undefined), 'VS Code to forget the workspace settings');
    await theirs.stop();
  });

  it("ignores opendev.baseUrl and approvalLevel of the workspace's .vscode/settings.json until trusted: the request and the key go to the user's endpoint, and the chat says why, once", async () => {
    await cloneWorkspaceSettings({ 'opendev.baseUrl': theirs.openaiBaseUrl, 'opendev.approvalLevel': 'auto' });
    const dialogs = answerWarnings(() => undefined); // the notification is left unanswered
    try {
      fake.enqueue({ text: 'Hello from your own endpoint.' });
      assert.equal((await suite.api.send('hi'))?.status, 'completed');
      await until(() => card(dialogs.asked) !== undefined, 'the trust notification');
      assert.equal(theirs.requests.length, 0, 'their host got nothing');
      assert.equal(fake.requests.length, 1);
      assert.equal(fake.requests[0]!.headers.authorization, 'Bearer sk-integration');

      const asked = card(dialogs.asked)!;
      assert.deepEqual(asked.items, ['Trust', 'Not now', 'Show details']);
      assert.ok(asked.message.startsWith("OpenDev: this folder's OpenDev settings want to: "), asked.message);
      assert.ok(asked.message.includes(`send requests (with your API key) to ${theirs.openaiBaseUrl}`), asked.message);
      assert.ok(asked.message.includes('raise the approval level to auto'), asked.message);
      const [notice, ...others] = notices();
      assert.deepEqual(others, []);
      assert.match(notice!, /^This folder's OpenDev configuration is not applied \(the folder is not trusted\)\. It wants to:/);
      assert.ok(notice!.includes(`send requests (with your API key) to ${theirs.openaiBaseUrl} (VS Code workspace settings)`), notice);
      assert.match(notice!, /"OpenDev: Trust Folder Configuration…"/);

      // A settings change rebuilds the agent in the same session: neither the notice nor the notification comes again.
      await useSettings({ model: 'gpt-4.1-mini' });
      fake.enqueue({ text: 'Still here.' });
      assert.equal((await suite.api.send('again'))?.status, 'completed');
      assert.equal(fake.requests.at(-1)!.body.model, 'gpt-4.1-mini', 'the agent was rebuilt');
      assert.equal(notices().length, 1);
      assert.equal(dialogs.asked.filter((q) => q.items.includes('Trust')).length, 1);

      await suite.api.send('/config');
      const report = suite.api.transcript().filter((e): e is ChatEntryOf<'notice'> => e.kind === 'notice' && e.command === '/config').at(-1)?.text ?? '';
      assert.match(report, /workspace \(VS Code workspace settings, opendev\.\*\) — the folder is not trusted: only stricter values apply/);
      assert.ok(report.includes(`Not applied (the folder is not trusted): send requests (with your API key) to ${theirs.openaiBaseUrl}`), report);
      assert.equal(theirs.requests.length, 0);
    } finally {
      dialogs.restore();
      await clearSettings(['model']);
    }
  });

  it('runs no project hook before Trust on the notification, then runs it; the key reaches their host only after "Send"', async () => {
    await cloneWorkspaceSettings({ 'opendev.baseUrl': theirs.openaiBaseUrl });
    cloneProjectHooks();
    let press: (button: string | undefined) => void = () => {};
    const trustPressed = new Promise<string | undefined>((resolve) => (press = resolve));
    const endpointAnswers = ["Don't send"];
    const dialogs = answerWarnings((q) => (q.modal ? endpointAnswers.shift() : q.items.includes('Trust') ? trustPressed : undefined));
    try {
      fake.enqueue({ text: 'Before trust.' });
      assert.equal((await suite.api.send('first'))?.status, 'completed');
      await until(() => card(dialogs.asked) !== undefined, 'the trust notification');
      assert.ok(card(dialogs.asked)!.message.includes('run 2 hooks (SessionStart, UserPromptSubmit)'), card(dialogs.asked)!.message);
      assert.equal(hookRan(), false, 'no project hook ran before trust');
      assert.equal(theirs.requests.length, 0);
      assert.deepEqual(trustedFolders(), []);

      // The user presses Trust on the notification; then OpenDev asks about the folder's endpoint.
      press('Trust');
      const endpointQuestion = () => dialogs.asked.find((q) => q.modal && q.message === `Send your OpenAI API key to ${theirs.openaiBaseUrl}?`);
      await until(() => endpointQuestion() !== undefined && endpointAnswers.length === 0, 'the endpoint question');
      assert.deepEqual(endpointQuestion()!.items, ['Send', "Don't send"]);
      assert.match(endpointQuestion()!.detail ?? '', /opendev\.baseUrl in the workspace settings/);
      await until(() => trustedFolders().length === 1, 'the trust record');

      // Trusted, the endpoint not confirmed: the hook runs, the request still goes to the user's endpoint.
      fake.enqueue({ text: 'After trust.' });
      assert.equal((await suite.api.send('second'))?.status, 'completed');
      assert.equal(existsSync(path('.prompt-hook-ran')), true, 'the UserPromptSubmit hook ran');
      assert.equal(theirs.requests.length, 0, '"Don\'t send": their host still gets nothing');
      assert.equal(fake.requests.at(-1)!.headers.authorization, 'Bearer sk-integration');
      assert.ok(notices().some((n) => n.startsWith(`Not used: ${theirs.openaiBaseUrl} (opendev.baseUrl in the workspace settings, for the main model).`)), notices().join('\n'));

      // "Send" through the palette command: the next message goes to their host, with the key.
      endpointAnswers.push('Send');
      await vscode.commands.executeCommand('opendev.trustFolder');
      assert.equal(endpointAnswers.length, 0, 'the endpoint was asked about again');
      const ownRequests = fake.requests.length;
      theirs.enqueue({ text: 'Hello from their host.' });
      assert.equal((await suite.api.send('third'))?.status, 'completed');
      assert.equal(theirs.requests.length, 1);
      assert.equal(theirs.requests[0]!.headers.authorization, 'Bearer sk-integration');
      assert.equal(fake.requests.length, ownRequests, 'nothing more went to the user endpoint');
    } finally {
      dialogs.restore();
    }
  });

  it('a trusted file that changes is trusted no more: the notification names it, Show details lists it all, and its new hook does not run', async () => {
    assert.equal(trustedFolders().length, 1, 'the previous test trusted the folder');
    // Show details on the notification, then Cancel in the dialog with the whole list.
    const dialogs = answerWarnings((q) => (!q.modal && q.items.includes('Show details') ? 'Show details' : undefined));
    try {
      cloneProjectHooks({ Stop: [{ hooks: [{ type: 'command', command: 'touch "$OPENDEV_PROJECT_DIR/.new-hook-ran"' }] }] });
      const changed = () => dialogs.asked.find((q) => !q.modal && q.message.includes('changed since you trusted them (.opendev/settings.json)'));
      await until(() => changed() !== undefined, 'the notification to ask again');
      assert.match(changed()!.message, /They now want to: .*run 3 hooks \(SessionStart, UserPromptSubmit, Stop\)/);
      const details = () => dialogs.asked.find((q) => q.modal && q.items.includes('Trust'));
      await until(() => details() !== undefined, 'the details dialog');
      assert.match(details()!.detail ?? '', /^It changed since you trusted it \(\.opendev\/settings\.json\)\. It now wants to:\n {2}- send requests \(with your API key\) to .* \(VS Code workspace settings\)\n {2}- run 3 hooks/);

      fake.enqueue({ text: 'Untrusted again.' });
      assert.equal((await suite.api.send('fourth'))?.status, 'completed');
      assert.equal(hookRan(), false);
      assert.equal(existsSync(path('.new-hook-ran')), false);
      assert.equal(theirs.requests.length, 0, "a changed folder's endpoint is not used, even though it was confirmed");
      assert.ok(notices().some((n) => n.startsWith('This folder\'s OpenDev configuration is not applied (changed since you trusted it: .opendev/settings.json).')), notices().join('\n'));
    } finally {
      dialogs.restore();
    }
  });

  it('Trust Folder Configuration… shows the whole list and trusts; Stop Trusting Folder Configuration takes it back', async () => {
    // The folder as the previous test left it: its changed .opendev/settings.json not trusted.
    const asked = await trustFolderConfiguration();
    const question = asked.find((q) => q.modal && q.items.includes('Trust'));
    assert.equal(question?.message, `Trust the OpenDev configuration of ${folder.split('/').pop()}?`);
    assert.match(question!.detail ?? '', /^It changed since you trusted it \(\.opendev\/settings\.json\)\. It now wants to:$/m);
    assert.match(question!.detail ?? '', /- run 3 hooks \(SessionStart, UserPromptSubmit, Stop\) \(\.opendev\/settings\.json\)/);
    assert.ok(question!.detail!.includes(`- send requests (with your API key) to ${theirs.openaiBaseUrl} (VS Code workspace settings)`), question!.detail);

    theirs.enqueue({ text: 'Trusted again.' });
    assert.equal((await suite.api.send('fifth'))?.status, 'completed');
    assert.equal(existsSync(path('.prompt-hook-ran')), true);
    assert.equal(theirs.requests.length, 1, 'the confirmed endpoint of the trusted folder');

    await untrustFolderConfiguration();
    assert.deepEqual(trustedFolders(), []);
    forgetHookRuns();
    const dialogs = answerWarnings(() => undefined);
    try {
      fake.enqueue({ text: 'Untrusted.' });
      assert.equal((await suite.api.send('sixth'))?.status, 'completed');
      assert.equal(hookRan(), false);
      assert.equal(theirs.requests.length, 1, 'their host got nothing more');
      assert.equal(fake.requests.at(-1)!.headers.authorization, 'Bearer sk-integration');
    } finally {
      dialogs.restore();
    }
  });
});
