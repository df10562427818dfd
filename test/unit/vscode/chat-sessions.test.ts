import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { SessionStore } from '../../../src/core/session/session-store';
import type { SessionTitles } from '../../../src/core/config/session-titles-setting';
import { ChatController } from '../../../src/vscode/chat-controller';
import { ChatSessions } from '../../../src/vscode/chat-sessions';
import { builtinSlashPort } from '../../../src/vscode/slash-port';
import { FakeProvider, lastUserText, type RecordedRequest } from '../../fixtures/fake-provider';

const workspace = join(__dirname, '../../../../test/fixtures/workspace');
const isTitleCall = (req: RecordedRequest) => JSON.stringify(req.body?.messages?.[0] ?? '').includes('You name conversations');

describe('ChatController sessions (the chat view model, without VS Code)', () => {
  const fake = new FakeProvider();
  let home: string;
  let store: SessionStore;
  let warnings: string[];

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = mkdtempSync(join(tmpdir(), 'opendev-chat-sessions-'));
    store = new SessionStore({ home });
    warnings = [];
  });

  const chatWith = (titles: SessionTitles = 'first-prompt') => {
    const sessions = new ChatSessions(store, workspace, { titles: () => titles, onProblem: (t) => warnings.push(t) });
    const chat = new ChatController(
      async () => ({
        agent: await createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: workspace, home }),
      }),
      { slash: builtinSlashPort(), workingDir: workspace, sessions },
    );
    return { chat, sessions };
  };

  it('saves the conversation as a session of the project; New Chat starts another; /sessions lists both', async () => {
    const { chat, sessions } = chatWith();
    fake.enqueue({ text: 'It exports add.' }, { text: 'Hello again.' });
    await chat.send('what does math.ts export?');
    const first = sessions.currentId;
    assert.match(first ?? '', /^[a-z0-9]{8}$/);
    assert.deepEqual((await store.load(first!, workspace))?.messages.map((m) => m.content).slice(-1), ['It exports add.']);

    chat.newChat();
    await chat.send('hello');
    await sessions.settled();
    assert.notEqual(sessions.currentId, first);
    await chat.send('/sessions');
    const listing = chat.transcript().at(-1);
    assert.equal(listing?.kind, 'notice');
    const text = listing?.kind === 'notice' ? listing.text : '';
    assert.match(text, new RegExp(`\\* ${sessions.currentId}\\s+hello`), 'the current session is marked');
    assert.match(text, new RegExp(`${first}\\s+what does math\\.ts export\\?`));
    assert.deepEqual(warnings, []);
  });

  it('resumes a saved session: the agent has the conversation back and the chat shows where it stood', async () => {
    // A session begun elsewhere (the CLI writes the same files).
    const earlier = await store.create(workspace);
    await store.sync(earlier, [
      { role: 'user', content: 'Remember the number 42.' },
      { role: 'assistant', content: 'I will remember 42.', toolCalls: [] },
    ], { inputTokens: 100, cachedTokens: 0, outputTokens: 10, usd: 0.01, calls: 1 });

    const { chat, sessions } = chatWith();
    assert.equal(await chat.resumeSession(earlier.meta.id), true);
    assert.deepEqual(
      chat.transcript().map((e) => e.kind),
      ['notice', 'user', 'assistant'],
      'the transcript is rebuilt from the saved messages, under a notice',
    );
    const [notice, question, answer] = chat.transcript();
    assert.match(notice?.kind === 'notice' ? notice.text : '', new RegExp(`Resumed session ${earlier.meta.id} "Remember the number 42\\." \\(2 messages\\)`));
    assert.equal(question?.kind === 'user' ? question.text : '', 'Remember the number 42.');
    assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'I will remember 42.');
    const snapshot = chat.snapshot();
    assert.equal(snapshot.type === 'snapshot' ? snapshot.cost?.calls : undefined, 1, 'the cost so far comes back too');

    fake.enqueue({ text: 'The number is 42.' });
    await chat.send('Which number?');
    assert.match(JSON.stringify(fake.requests[0]!.body.messages), /Remember the number 42\./);
    assert.equal(lastUserText(fake.requests[0]!), 'Which number?');
    assert.equal(sessions.currentId, earlier.meta.id, 'the same session goes on');
    assert.equal((await store.load(earlier.meta.id, workspace))?.messages.length, 4);

    assert.equal(await chat.resumeSession('zzzzzzzz'), false);
    const refusal = chat.transcript().at(-1);
    assert.match(refusal?.kind === 'notice' ? refusal.text : '', /no session zzzzzzzz in this project/);
  });

  it('titles the session in the background when the setting asks the model', async () => {
    const { chat, sessions } = chatWith('model');
    fake.setResponder((req) => (isTitleCall(req) ? { text: 'Math helpers overview' } : { text: 'It exports add and subtract.' }));
    await chat.send('what does math.ts export?');
    await sessions.settled();
    assert.deepEqual((await sessions.list()).map((s) => s.title), ['Math helpers overview']);
  });
  it('moveTo another folder: a conversation under way ends with a notice, and the next one is saved with that folder\'s sessions', async () => {
    const other = mkdtempSync(join(tmpdir(), 'opendev-chat-other-folder-'));
    const sessions = new ChatSessions(store, workspace, { titles: () => 'first-prompt', onProblem: (t) => warnings.push(t) });
    const roots: string[] = [];
    const chat = new ChatController(
      async () => {
        roots.push(sessions.workingDir);
        return { agent: await createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: sessions.workingDir, home }) };
      },
      { slash: builtinSlashPort(), workingDir: workspace, sessions },
    );
    fake.enqueue({ text: 'In the first folder.' }, { text: 'In the other folder.' });
    await chat.send('hello');
    const first = sessions.currentId!;
    await sessions.settled();
    assert.equal(chat.started, true);

    chat.moveTo(other, 'New chat in other.');
    assert.deepEqual(chat.transcript().map((e) => e.kind), ['notice'], 'the conversation left the chat; the notice says why');
    assert.equal(chat.started, false);
    await chat.send('hello there');
    await sessions.settled();
    assert.deepEqual(roots, [workspace, other], 'the second agent was built for the other folder');
    assert.notEqual(sessions.currentId, first);
    assert.deepEqual((await store.list(other)).map((m) => m.id), [sessions.currentId]);
    assert.ok((await store.list(workspace)).some((m) => m.id === first), 'the first conversation stays in its own folder\'s history');
    await chat.send('/sessions');
    const listing = chat.transcript().at(-1);
    assert.doesNotMatch(listing?.kind === 'notice' ? listing.text : '', new RegExp(first), '/sessions lists the chat folder\'s sessions');
    chat.dispose();
  });
});
