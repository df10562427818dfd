import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../src/core/agent/agent';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { SessionStore } from '../../../src/core/session/session-store';
import type { ChatEntry } from '../../../src/shared/protocol';
import { ChatController } from '../../../src/vscode/chat-controller';
import { ChatSessions } from '../../../src/vscode/chat-sessions';
import { builtinSlashPort } from '../../../src/vscode/slash-port';
import { FakeProvider, lastUserText } from '../../fixtures/fake-provider';

const fixture = join(__dirname, '../../../../test/fixtures/workspace');

/**
 * The chat's agent over its life (the chat view model, without VS Code): one session id for the
 * saved session, the agent, its hooks and scratch folder, also after /clear and after a settings
 * change, which rebuilds the agent before the next message with the conversation carried over.
 */
describe('the chat’s agent: rebuilt on settings changes, renewed by /clear, one session id throughout', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let workspace: string;
  let store: SessionStore;
  /** What the agent source builds next: the model, or a problem instead of an agent. */
  let settings: { model: string; problem?: ChatEntry };

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = mkdtempSync(join(tmpdir(), 'opendev-chat-agent-'));
    workspace = join(mkdtempSync(join(tmpdir(), 'opendev-chat-agent-ws-')), 'ws');
    cpSync(fixture, workspace, { recursive: true });
    store = new SessionStore({ home });
    settings = { model: 'model-a' };
    // Hooks that log what they are given: SessionStart (its source) and UserPromptSubmit.
    mkdirSync(join(workspace, '.opendev'));
    const log = (event: string) => [{ hooks: [{ type: 'command', command: `d="$OPENDEV_PROJECT_DIR/.hook-inputs"; mkdir -p "$d"; cat > "$d/$(date +%s%N)-${event}.json"` }] }];
    writeFileSync(join(workspace, '.opendev', 'settings.json'), JSON.stringify({ hooks: { SessionStart: log('start'), UserPromptSubmit: log('prompt') } }));
  });

  function chatWith() {
    const built: Agent[] = [];
    const sessions = new ChatSessions(store, workspace, { titles: () => 'first-prompt', onProblem: (t) => assert.fail(t) });
    const chat = new ChatController(
      async (options) => {
        if (settings.problem) return { problem: settings.problem };
        const agent = await createMainAgent({
          roles: { action: { provider: 'openai', model: settings.model, apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
          workspaceRoot: workspace,
          home,
          thinkingLevel: 'off',
          projectTrusted: true, // the test's own hooks
          ...(options?.sessionId ? { sessionId: options.sessionId } : {}),
        });
        built.push(agent);
        return { agent };
      },
      { slash: builtinSlashPort(), workingDir: workspace, sessions },
    );
    return { chat, sessions, built };
  }

  /** The hooks' inputs in the order they ran: [event, session_id, source?]. */
  function hookInputs(): Array<[string, string, string | undefined]> {
    const dir = join(workspace, '.hook-inputs');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .sort()
      .map((f) => {
        const input = JSON.parse(readFileSync(join(dir, f), 'utf8'));
        return [input.hook_event_name, input.session_id, input.source];
      });
  }

  it('after /clear the new conversation is saved under the new agent’s id, and its hooks see that id (SessionStart source "clear")', async () => {
    const { chat, sessions, built } = chatWith();
    fake.enqueue({ text: 'First.' });
    await chat.send('first conversation');
    await sessions.settled();
    const first = sessions.currentId!;
    assert.equal(first, built[0]!.sessionId);

    await chat.send('/clear');
    assert.equal(sessions.currentId, undefined, 'nothing saved yet for the new conversation');
    fake.enqueue({ text: 'Second.' });
    await chat.send('second conversation');
    await sessions.settled();
    const second = sessions.currentId!;
    assert.equal(built.length, 2, 'the new conversation has an agent of its own');
    assert.notEqual(second, first);
    assert.equal(second, built[1]!.sessionId, 'the saved session is the agent’s session');
    assert.equal(chat.agent?.sessionId, second);
    assert.deepEqual((await store.load(second, workspace))?.messages.map((m) => m.content), ['second conversation', 'Second.']);
    assert.deepEqual((await store.load(first, workspace))?.messages.map((m) => m.content), ['first conversation', 'First.'], 'the first one stays saved');
    assert.deepEqual(hookInputs(), [
      ['SessionStart', first, 'startup'],
      ['UserPromptSubmit', first, undefined],
      ['SessionStart', second, 'clear'],
      ['UserPromptSubmit', second, undefined],
    ]);
    assert.equal(lastUserText(fake.requests[1]!), 'second conversation');
    assert.equal(fake.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'user').length, 1, 'the model no longer sees the first conversation');
  });

  it('a settings change rebuilds the agent before the next message: the new model, the same conversation and session', async () => {
    const { chat, sessions, built } = chatWith();
    fake.enqueue({ text: 'Noted: Friday.' });
    await chat.send('the release is on Friday');
    await sessions.settled();
    const id = sessions.currentId!;
    chat.setMode('plan');

    settings.model = 'model-b';
    chat.invalidateAgent();
    assert.equal(built.length, 1, 'nothing is rebuilt before it is needed');
    fake.enqueue({ text: 'On Friday.' });
    await chat.send('when is the release?');
    await sessions.settled();

    assert.equal(built.length, 2);
    assert.equal(fake.requests[1]!.body.model, 'model-b', 'the new settings apply');
    assert.match(JSON.stringify(fake.requests[1]!.body.messages), /the release is on Friday/, 'the conversation was carried over');
    assert.equal(built[1]!.sessionId, id, 'built under the same session id');
    assert.equal(sessions.currentId, id, 'the saved session goes on');
    assert.equal((await store.load(id, workspace))?.messages.length, 4);
    assert.equal(chat.currentMode, 'plan', 'the mode too');
    assert.deepEqual(hookInputs().map(([event, session, source]) => `${event} ${session === id ? 'same' : session} ${source ?? ''}`.trim()), [
      'SessionStart same startup',
      'UserPromptSubmit same',
      'SessionStart same resume',
      'UserPromptSubmit same',
    ]);
  });

  it('a rebuild that cannot be done says why and keeps the conversation for when it can', async () => {
    const { chat, sessions, built } = chatWith();
    fake.enqueue({ text: 'Noted.' });
    await chat.send('remember the number 42');
    settings.problem = { kind: 'setup', id: '', provider: 'anthropic', title: 'Connect OpenDev to Anthropic', text: 'OpenDev needs an API key for Anthropic.' };
    chat.invalidateAgent();
    assert.equal(await chat.send('which number?'), undefined);
    assert.equal(chat.transcript().at(-1)?.kind, 'setup');
    assert.equal(fake.requests.length, 1, 'no request without an agent');

    settings.problem = undefined;
    fake.enqueue({ text: '42.' });
    assert.equal((await chat.send('which number?'))?.status, 'completed');
    assert.equal(built.length, 2);
    assert.match(JSON.stringify(fake.requests[1]!.body.messages), /remember the number 42/);
    await sessions.settled();
    assert.equal(sessions.currentId, built[0]!.sessionId);
  });
});
