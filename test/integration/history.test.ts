import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../src/core/session/session-store';
import type { ChatEntryOf, ExtensionToWebview } from '../../src/shared/protocol';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { toolResults } from '../fixtures/fake-provider';
import { changeProjectConfiguration, clearSettings, fakeProviderSuite, trustFolderConfiguration, until, untrustFolderConfiguration, useSettings } from './support';

type SessionsMessage = Extract<ExtensionToWebview, { type: 'sessions' }>;

/**
 * The chat panel's history and "Restore to here" inside a real VS Code, driven through the same
 * messages the webview sends (api.fromView): one session id for the agent and the saved session
 * (its scratch folder, the hooks' session_id) in a new chat and after a resume from the history
 * list, and restoring the files to just before a step.
 */
describe('chat history in VS Code', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  let folder: string;
  const home = () => process.env.OPENDEV_HOME!;
  const hookLog = () => join(folder, '.hook-inputs');
  const hookSessionIds = () => (existsSync(hookLog()) ? readdirSync(hookLog()).sort().map((f) => JSON.parse(readFileSync(join(hookLog(), f), 'utf8')).session_id as string) : []);
  const cards = () => api.transcript().filter((e): e is ChatEntryOf<'tool'> => e.kind === 'tool');

  before(async () => {
    assert.ok(process.env.OPENDEV_HOME, 'the test run sets OPENDEV_HOME');
    api = suite.api;
    folder = suite.folder;
    // A hook that logs what it is given: its session_id is the agent's.
    // The extension watches the file and rebuilds the agent (also when its folder is new: `mkdir -p && write`).
    await changeProjectConfiguration(api, () => {
      mkdirSync(join(folder, '.opendev'), { recursive: true });
      writeFileSync(
        join(folder, '.opendev', 'settings.json'),
        JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'd="$OPENDEV_PROJECT_DIR/.hook-inputs"; mkdir -p "$d"; cat > "$d/$(date +%s%N).json"' }] }] } }),
      );
    });
    await trustFolderConfiguration(); // a project hook runs only in a trusted folder
  });
  after(async () => {
    for (const path of ['.opendev', '.hook-inputs', 'notes.txt', 'todo.txt']) rmSync(join(folder, path), { recursive: true, force: true });
    await untrustFolderConfiguration();
  });
  beforeEach(() => {
    rmSync(hookLog(), { recursive: true, force: true });
    for (const file of ['notes.txt', 'todo.txt']) rmSync(join(folder, file), { force: true });
  });

  async function sessionList(): Promise<SessionsMessage> {
    let list: SessionsMessage | undefined;
    const listening = api.onViewMessage((m) => {
      if (m.type === 'sessions') list = m;
    });
    try {
      api.fromView({ type: 'listSessions' });
      await until(() => list !== undefined, 'the session list');
      return list!;
    } finally {
      listening.dispose();
    }
  }

  it('a new chat is saved under the agent’s id: the scratch folder and the hooks name the same session', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 3000' } }] }, { text: 'Counted.' });
    assert.equal((await api.send('count to 3000'))?.status, 'completed');
    await api.sessionsSettled();
    const id = api.sessionId()!;
    assert.match(id, /^[a-z0-9]{8}$/);
    assert.deepEqual(hookSessionIds(), [id], 'UserPromptSubmit saw the saved session’s id');
    assert.match(toolResults(fake.requests[1]!)[0]!.content, new RegExp(`scratch/${id}/`), 'the long output went to the session’s scratch folder');
    assert.equal(existsSync(join(home(), 'scratch', id)), true);
  });

  it('after /clear the new conversation is saved under the new agent’s id, which its hooks and scratch folder use', async () => {
    fake.enqueue({ text: 'First.' });
    await api.send('first conversation');
    await api.sessionsSettled();
    const first = api.sessionId()!;
    await api.send('/clear');
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 3000' } }] }, { text: 'Counted.' });
    await api.send('count to 3000');
    await api.sessionsSettled();
    const second = api.sessionId()!;
    assert.notEqual(second, first, 'a new session');
    assert.deepEqual(hookSessionIds(), [first, second], 'UserPromptSubmit saw each conversation’s own session id');
    assert.match(toolResults(fake.requests.at(-1)!)[0]!.content, new RegExp(`scratch/${second}/`), 'the agent’s scratch folder is the new session’s');
    assert.deepEqual((await new SessionStore().load(second, folder))?.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
    assert.equal((await new SessionStore().load(first, folder))?.messages.length, 2, 'the first conversation stays saved');
  });

  it('a settings change mid-conversation: the next message runs on the new model, the conversation and the session go on', async () => {
    fake.enqueue({ text: 'Noted: Friday.' });
    await api.send('the release is on Friday');
    await api.sessionsSettled();
    const id = api.sessionId()!;
    try {
      await useSettings({ model: 'gpt-4.1-mini' });
      fake.enqueue({ text: 'On Friday.' });
      await api.send('when is the release?');
      await api.sessionsSettled();
      assert.equal(fake.requests.at(-1)!.body.model, 'gpt-4.1-mini');
      assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /the release is on Friday/, 'the new agent has the conversation');
      assert.equal(api.sessionId(), id);
      assert.deepEqual(hookSessionIds(), [id, id], 'the hooks see one session before and after the rebuild');
      assert.equal((await new SessionStore().load(id, folder))?.messages.length, 4);
    } finally {
      await clearSettings(['model']);
    }
  });

  it('resuming from the history list rebuilds the transcript; the next turn continues the same session, its hooks and scratch folder', async () => {
    fake.enqueue({ toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes.txt', content: 'remember the milk\n' } }] }, { text: 'Saved your note.' });
    await api.send('save a note about milk');
    await api.sessionsSettled();
    const id = api.sessionId()!;

    api.newChat();
    assert.equal(api.transcript().length, 0);
    const list = await sessionList();
    const listed = list.items.find((s) => s.id === id);
    assert.equal(listed?.title, 'save a note about milk');
    assert.equal(listed?.firstPrompt, 'save a note about milk');
    assert.equal(listed?.messageCount, 4);

    api.fromView({ type: 'resumeSession', id });
    await until(() => api.transcript().some((e) => e.kind === 'notice' && e.text.startsWith(`Resumed session ${id}`)), 'the resumed transcript');
    assert.deepEqual(api.transcript().map((e) => e.kind), ['notice', 'user', 'tool', 'assistant']);
    const [, said, card, answer] = api.transcript();
    assert.equal(said?.kind === 'user' && said.text, 'save a note about milk');
    assert.match(card?.kind === 'tool' ? card.summary ?? '' : '', /notes\.txt/);
    assert.equal(answer?.kind === 'assistant' && answer.text, 'Saved your note.');
    await until(() => cards()[0]?.step === 1, 'the restore mark on the resumed card');

    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 3000' } }] }, { text: 'Counted.' });
    await api.send('now count');
    await api.sessionsSettled();
    assert.equal(api.sessionId(), id, 'the same session goes on');
    assert.equal((await new SessionStore().load(id, folder))?.messages.length, 8);
    assert.deepEqual(hookSessionIds(), [id, id], 'the hooks see one session id before and after the resume');
    assert.match(toolResults(fake.requests.at(-1)!)[0]!.content, new RegExp(`scratch/${id}/`), 'and the scratch folder is the session’s');
  });

  it('Restore to here puts the files back as they were before the step, and the chat says so', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'call_note', name: 'write_file', arguments: { file_path: 'notes.txt', content: 'one\n' } }] },
      { toolCalls: [{ id: 'call_todo', name: 'write_file', arguments: { file_path: 'todo.txt', content: 'two\n' } }] },
      { text: 'Wrote both.' },
    );
    await api.send('write two files');
    await until(() => cards().filter((c) => c.step).length === 2, 'a restore mark on each step');
    assert.deepEqual(cards().map((c) => [c.id, c.step]), [['tool-call_note', 1], ['tool-call_todo', 2]]);

    api.fromView({ type: 'restoreTo', step: 1 });
    await until(() => !existsSync(join(folder, 'notes.txt')) && !existsSync(join(folder, 'todo.txt')), 'both files removed');
    await until(() => cards().every((c) => c.undone === true), 'both steps shown as undone');
    const notice = [...api.transcript()].reverse().find((e) => e.kind === 'notice');
    assert.match(notice?.kind === 'notice' ? notice.text : '', /Restored the files to just before step 1\.\nUndid steps 1, 2/);
  });
});
