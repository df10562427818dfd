import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../src/core/agent/agent';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { sessionFiles } from '../../../src/core/session/session-record';
import { SessionStore } from '../../../src/core/session/session-store';
import type { ChatEntryOf, ExtensionToWebview } from '../../../src/shared/protocol';
import { ChatController } from '../../../src/vscode/chat-controller';
import { ChatSessions } from '../../../src/vscode/chat-sessions';
import { builtinSlashPort } from '../../../src/vscode/slash-port';
import { FakeProvider, lastUserText } from '../../fixtures/fake-provider';

const fixture = join(__dirname, '../../../../test/fixtures/workspace');

type SessionsMessage = Extract<ExtensionToWebview, { type: 'sessions' }>;

/**
 * The chat's history view and "Restore to here" as the view model drives them (the same calls the
 * webview's messages make): one session id for agent and saved session, resume with the transcript
 * rebuilt, listing and deleting sessions, and restoring files to before a step.
 */
describe('chat history and restore to here (the chat view model, without VS Code)', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let workspace: string;
  let store: SessionStore;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = mkdtempSync(join(tmpdir(), 'opendev-chat-history-'));
    workspace = join(mkdtempSync(join(tmpdir(), 'opendev-chat-history-ws-')), 'ws');
    cpSync(fixture, workspace, { recursive: true });
    store = new SessionStore({ home });
  });

  function chatWith() {
    const built: Array<{ agent: Agent; sessionId: string | undefined }> = [];
    const sessions = new ChatSessions(store, workspace, { titles: () => 'first-prompt', onProblem: (t) => assert.fail(t) });
    const chat = new ChatController(
      async (options) => {
        const agent = await createMainAgent({
          roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
          workspaceRoot: workspace,
          home,
          approvalLevel: 'auto',
          // The steps are undone: a loaded machine must not push their snapshots past the 2 s default.
          undo: { budgetMs: 60_000 },
          ...(options?.sessionId ? { sessionId: options.sessionId } : {}),
        });
        built.push({ agent, sessionId: options?.sessionId });
        return { agent };
      },
      { slash: builtinSlashPort(), workingDir: workspace, sessions },
    );
    const sent: ExtensionToWebview[] = [];
    chat.onMessage((m) => sent.push(m));
    const lastList = () => [...sent].reverse().find((m): m is SessionsMessage => m.type === 'sessions');
    return { chat, sessions, built, lastList };
  }

  const toolCards = (chat: ChatController) => chat.transcript().filter((e): e is ChatEntryOf<'tool'> => e.kind === 'tool');

  it("saves a new chat under the agent's own session id; a resumed chat's agent is built with the saved session's id", async () => {
    const { chat, sessions, built } = chatWith();
    fake.enqueue({ text: 'Hello.' });
    await chat.send('hello');
    await sessions.settled();
    const id = sessions.currentId!;
    assert.equal(id, built[0]!.agent.sessionId, 'the saved session is the agent’s session');

    chat.newChat();
    assert.equal(await chat.resumeSession(id), true);
    assert.equal(built[1]!.sessionId, id, 'the agent for the resumed conversation was asked for under its id');
    assert.equal(built[1]!.agent.sessionId, id);
    fake.enqueue({ text: 'Again.' });
    await chat.send('hello again');
    await sessions.settled();
    assert.equal(sessions.currentId, id, 'the next turn continues the same session');
    assert.equal((await store.load(id, workspace))?.messages.length, 4);
  });

  it('lists the sessions with title, first message, messages and cost; deletes one, never the chat’s own', async () => {
    const older = await store.create(workspace);
    await store.sync(older, [{ role: 'user', content: 'Explain the release process in detail please' }, { role: 'assistant', content: 'Sure.', toolCalls: [] }], { inputTokens: 10, cachedTokens: 0, outputTokens: 5, usd: 0.25, calls: 1 });
    older.meta.title = 'Release process';
    older.meta.titleSource = 'model';
    await store.save(older.meta);
    // A session saved before the metadata kept the first message: it is read from the transcript.
    const legacy = await store.create(workspace);
    await store.sync(legacy, [{ role: 'user', content: 'Fix the flaky parser test' }]);
    const metaFile = sessionFiles(store.projectDir(workspace), legacy.meta.id).meta;
    const { firstPrompt: _dropped, ...withoutPrompt } = JSON.parse(readFileSync(metaFile, 'utf8'));
    writeFileSync(metaFile, JSON.stringify(withoutPrompt));

    const { chat, sessions, lastList } = chatWith();
    fake.enqueue({ text: 'Hi.' });
    await chat.send('current chat');
    await sessions.settled();
    await chat.listSessions();
    const list = lastList()!;
    assert.equal(list.currentId, sessions.currentId);
    const byId = new Map(list.items.map((s) => [s.id, s]));
    assert.deepEqual(list.items[0]?.id, sessions.currentId, 'newest first');
    assert.equal(byId.get(older.meta.id)?.title, 'Release process');
    assert.equal(byId.get(older.meta.id)?.firstPrompt, 'Explain the release process in detail please');
    assert.equal(byId.get(older.meta.id)?.messageCount, 2);
    assert.equal(byId.get(older.meta.id)?.usd, 0.25);
    assert.equal(byId.get(legacy.meta.id)?.firstPrompt, 'Fix the flaky parser test');

    await chat.deleteSession(sessions.currentId!);
    assert.match(lastList()!.problem ?? '', /the chat you are in/);
    assert.ok(await store.load(sessions.currentId!, workspace), 'the chat’s own session is still there');

    await chat.deleteSession(older.meta.id);
    assert.equal(lastList()!.problem, undefined);
    assert.deepEqual(lastList()!.items.map((s) => s.id).sort(), [sessions.currentId!, legacy.meta.id].sort());
    assert.equal(await store.load(older.meta.id, workspace), undefined);
  });

  it('marks the first card of each step that changed files; Restore to here puts the files back and says what it did', async () => {
    const { chat } = chatWith();
    fake.enqueue(
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { file_path: 'a.txt', content: 'first\n' } }] },
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { file_path: 'b.txt', content: 'second\n' } }, { id: 'w3', name: 'write_file', arguments: { file_path: 'c.txt', content: 'third\n' } }] },
      { text: 'Wrote three files.' },
    );
    await chat.send('write the files');
    const marks = toolCards(chat).map((c) => [c.id, c.step]);
    assert.deepEqual(marks, [['tool-w1', 1], ['tool-r1', undefined], ['tool-w2', 3], ['tool-w3', undefined]], 'steps that changed files, on their first card');

    await chat.restoreTo(3);
    assert.equal(existsSync(join(workspace, 'b.txt')) || existsSync(join(workspace, 'c.txt')), false, 'step 3 is undone');
    assert.equal(readFileSync(join(workspace, 'a.txt'), 'utf8'), 'first\n', 'step 1 is kept');
    const said = chat.transcript().at(-1);
    assert.match(said?.kind === 'notice' ? said.text : '', /Restored the files to just before step 3\.\nUndid step 3 \(write_file\): 0 files restored, 2 files removed/);
    assert.deepEqual(toolCards(chat).filter((c) => c.step).map((c) => [c.step, c.undone ?? false]), [[1, false], [3, true]]);

    fake.enqueue({ text: 'OK.' });
    await chat.send('what happened?');
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /The user undid step 3/, 'the model is told');
    assert.equal(lastUserText(fake.requests.at(-1)!), 'what happened?');
  });

  it('a resumed chat rebuilds its tool cards with their restore marks, and can restore a step of the earlier agent', async () => {
    const first = chatWith();
    fake.enqueue({ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { file_path: 'notes.txt', content: 'remember\n' } }] }, { text: 'Saved the note.' });
    await first.chat.send('save a note');
    await first.sessions.settled();
    const id = first.sessions.currentId!;
    first.chat.dispose();

    const { chat } = chatWith();
    assert.equal(await chat.resumeSession(id), true);
    assert.deepEqual(chat.transcript().map((e) => e.kind), ['notice', 'user', 'tool', 'assistant']);
    const card = toolCards(chat)[0]!;
    assert.equal(card.summary?.includes('notes.txt'), true, 'the card has its summary');
    assert.equal(card.step, 1, 'the earlier agent’s step is offered for restore');
    await chat.restoreTo(1);
    assert.equal(existsSync(join(workspace, 'notes.txt')), false);
    assert.equal(toolCards(chat)[0]!.undone, true);
  });

  it('restoring while the agent works is refused', async () => {
    const { chat } = chatWith();
    fake.enqueue({ text: 'slow answer in many pieces', chunkDelayMs: 300 });
    const turn = chat.send('go slowly');
    await fake.waitForRequests(1);
    await chat.restoreTo(1);
    const said = chat.transcript().find((e) => e.kind === 'notice');
    assert.match(said?.kind === 'notice' ? said.text : '', /once OpenDev has finished/);
    chat.stop();
    await turn;
  });
});
