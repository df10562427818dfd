import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../../src/core/agent/agent';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { AgentSession, type AgentChange, type Ready } from '../../../../src/core/session/agent-session';
import { SessionStore } from '../../../../src/core/session/session-store';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider } from '../../../fixtures/fake-provider';

const workspace = join(__dirname, '../../../../../test/fixtures/workspace');

/**
 * The one conversation lifecycle every front end uses: built on first use, rebuilt for new settings
 * with the conversation carried, renewed after /clear, resumed, saved as it goes, and ended.
 */
describe('AgentSession', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let store: SessionStore;
  /** What the builder does next: the model to build with, or a problem. */
  let settings: { model: string; problem?: string; gate?: Promise<void> };
  let built: Agent[];
  let disposed: Set<Agent>;
  let changes: AgentChange[];

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    store = new SessionStore({ home: mkdtempSync(join(tmpdir(), 'opendev-agent-session-')) });
    settings = { model: 'model-a' };
    built = [];
    disposed = new Set();
    changes = [];
  });

  function session(): AgentSession<string> {
    return new AgentSession<string>({
      build: async ({ sessionId }) => {
        await settings.gate;
        if (settings.problem) return { problem: settings.problem };
        const agent = await createMainAgent({
          roles: { action: { provider: 'openai', model: settings.model, apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
          workspaceRoot: workspace,
          home: mkdtempSync(join(tmpdir(), 'opendev-agent-session-home-')),
          thinkingLevel: 'off',
          ...(sessionId ? { sessionId } : {}),
        });
        const dispose = agent.dispose.bind(agent);
        agent.dispose = () => (disposed.add(agent), dispose());
        built.push(agent);
        return { agent, models: [{ role: 'action', provider: 'OpenAI', model: settings.model }] };
      },
      saving: { store, workingDir: workspace, titles: () => 'first-prompt', onProblem: (text) => assert.fail(text) },
      onAgent: (_agent, change) => changes.push(change),
    });
  }

  const agentOf = (ready: Ready<string>): Agent => {
    assert.ok('agent' in ready, `an agent, not ${JSON.stringify(ready)}`);
    return ready.agent;
  };

  async function turn(s: AgentSession<string>, text: string, answer: string): Promise<void> {
    fake.enqueue({ text: answer });
    await agentOf(await s.ready()).runTurn(text, silentUI);
    await s.save();
  }

  it('builds once for callers that ask together, and the conversation is saved under the agent’s session id', async () => {
    const s = session();
    const [a, b] = await Promise.all([s.ready(), s.ready()]);
    assert.equal(agentOf(a), agentOf(b));
    assert.equal(built.length, 1);
    await turn(s, 'hello', 'Hi.');
    await s.settled();
    assert.equal(s.id, built[0]!.sessionId);
    assert.deepEqual((await store.load(s.id!, workspace))?.messages.map((m) => m.content), ['hello', 'Hi.']);
    assert.deepEqual(changes, ['started']);
  });

  it('new settings: the next ready() rebuilds, carrying conversation, mode and session; a failed rebuild keeps the agent and says why', async () => {
    const s = session();
    await turn(s, 'the release is on Friday', 'Noted.');
    const first = s.agent!;
    s.setMode('plan');
    settings.model = 'model-b';
    s.invalidate((agent) => agent !== first); // still holds for another agent: not for this one
    assert.equal(s.stale, true);
    settings.problem = 'no key for model-b';
    const failed = await s.ready();
    assert.deepEqual(failed, { problem: 'no key for model-b', current: first });
    assert.equal(s.agent, first, 'nothing lost');

    settings.problem = undefined;
    const rebuilt = agentOf(await s.ready());
    assert.notEqual(rebuilt, first);
    assert.ok(disposed.has(first), 'the old agent goes once the new one is in place');
    assert.equal(rebuilt.sessionId, first.sessionId);
    assert.equal(rebuilt.mode, 'plan');
    assert.deepEqual(s.models?.map((m) => m.model), ['model-b']);
    await turn(s, 'when?', 'Friday.');
    assert.equal(fake.requests.at(-1)!.body.model, 'model-b');
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /the release is on Friday/);
    await s.settled();
    assert.equal((await store.load(s.id!, workspace))?.messages.length, 4, 'one saved session goes on');
    assert.deepEqual(changes, ['started', 'rebuilt']);
  });

  it('renew() after /clear: a fresh agent and saved session, mode and thinking level kept; when it cannot be built the agent in place goes on', async () => {
    const s = session();
    await turn(s, 'first conversation', 'First.');
    await s.settled();
    const firstId = s.id;
    const first = s.agent!;
    s.setMode('plan');
    first.setThinkingLevel('high'); // /thinking high
    first.clear(); // what /clear does before the front end renews

    settings.problem = 'offline';
    assert.deepEqual(await s.renew(), { problem: 'offline', current: first });
    assert.equal(s.agent, first);
    settings.problem = undefined;

    const fresh = agentOf(await s.renew());
    assert.notEqual(fresh.sessionId, first.sessionId);
    assert.ok(disposed.has(first));
    assert.deepEqual([fresh.mode, fresh.thinkingLevel], ['plan', 'high']);
    assert.equal(s.id, undefined, 'nothing saved yet for the new conversation');
    await turn(s, 'second conversation', 'Second.');
    await s.settled();
    assert.equal(s.id, fresh.sessionId);
    assert.notEqual(s.id, firstId);
    assert.deepEqual((await store.load(firstId!, workspace))?.messages.map((m) => m.content), ['first conversation', 'First.'], 'the first one stays saved');
    assert.deepEqual(changes, ['started', 'renewed']);
  });

  it('drop() while an agent is being built: the late agent is disposed, and the next ready() starts a new session', async () => {
    const s = session();
    let open!: () => void;
    settings.gate = new Promise((resolve) => (open = resolve));
    const pending = s.ready();
    s.drop();
    open();
    assert.deepEqual(await pending, { superseded: true });
    assert.equal(s.agent, undefined);
    assert.ok(disposed.has(built[0]!));
    agentOf(await s.ready());
    assert.equal(built.length, 2);
  });

  it('resume() continues a saved session: its id, its conversation, and the saving writes on in it', async () => {
    const earlier = session();
    await turn(earlier, 'remember 42', 'Noted.');
    await earlier.dispose();
    const id = built[0]!.sessionId!;

    const s = session();
    const agent = agentOf(await s.resume((await store.load(id, workspace))!));
    assert.equal(agent.sessionId, id);
    assert.equal(s.id, id);
    assert.deepEqual(agent.messages.map((m) => m.content), ['remember 42', 'Noted.']);
    await turn(s, 'which number?', '42.');
    await s.settled();
    assert.equal((await store.load(id, workspace))?.messages.length, 4);
    assert.deepEqual(changes, ['started', 'resumed']);
  });

  it('dispose() stops the agent and saves the conversation as it stands; nothing is built after it', async () => {
    const s = session();
    fake.enqueue({ text: 'slow answer that the user stops', chunkDelayMs: 300 });
    const agent = agentOf(await s.ready());
    const running = agent.runTurn('go', silentUI);
    await fake.waitForRequests(1);
    await s.dispose();
    assert.equal((await running).status, 'stopped');
    assert.ok(disposed.has(agent));
    const saved = await store.load(built[0]!.sessionId!, workspace);
    assert.equal(saved?.messages[0]?.content, 'go', 'the last save has the conversation');
    assert.deepEqual(await s.ready(), { superseded: true });
    assert.equal(built.length, 1);
  });
});
