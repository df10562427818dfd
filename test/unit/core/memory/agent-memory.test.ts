import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { getReminder } from '../../../../src/core/context/reminders';
import { AgentMemory } from '../../../../src/core/memory/agent-memory';
import { playbookEmbedder } from '../../../../src/core/memory/create-agent-memory';
import type { Message } from '../../../../src/core/messages';
import { applyDelta } from '../../../../src/core/memory/playbook/delta';
import { LexicalEmbedder } from '../../../../src/core/memory/playbook/embedding';
import { playbookPath, PlaybookStore } from '../../../../src/core/memory/playbook/playbook-store';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, type ScriptedTurn } from '../../../fixtures/fake-provider';
import { fakeRoles, memoryAgent, requestsOf, requestText, routeByKind, systemText, tempHome, turnServices } from './memory-fixtures';

const json = (value: unknown): ScriptedTurn => ({ text: JSON.stringify(value) });
/** Two tool calls and an answer: five messages by the end of the second iteration. */
const twoEchoesThenDone = (): ScriptedTurn[] => [
  { toolCalls: [{ name: 'echo', arguments: { text: 'first' } }] },
  { toolCalls: [{ name: 'echo', arguments: { text: 'second' } }] },
  { text: 'Done.' },
];
const LESSON = 'Run npm test before finishing.';

describe('AgentMemory: the ACE playbook through the agent (fake provider, real SDK)', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let home: ReturnType<typeof tempHome>;
  let store: PlaybookStore;
  let notes: string[];
  let warnings: string[];
  const newMemory = (extra: Partial<ConstructorParameters<typeof AgentMemory>[0]> = {}) =>
    new AgentMemory({ roles: fakeRoles(fake), store, onNote: (n) => notes.push(n), onWarning: (w) => warnings.push(w), ...extra });
  const seed = (...contents: string[]) => store.update((p) => applyDelta(p, contents.map((content) => ({ type: 'add' as const, section: 'testing', content })), new Date()).playbook);
  const saved = () => JSON.parse(readFileSync(store.path, 'utf8')) as { bullets: Array<{ id: string; content: string; helpful: number; harmful: number }> };

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = tempHome();
    store = new PlaybookStore(playbookPath('/work/project', home.home));
    notes = [];
    warnings = [];
  });
  afterEach(() => home.cleanup());

  it('learns from the conversation: reflector and curator add a bullet, and the next turn has it in its system prompt', async () => {
    const memory = newMemory();
    const agent = memoryAgent(fake, memory, { dispose: () => memory.dispose() });
    routeByKind(fake, {
      agent: [...twoEchoesThenDone(), { text: 'Tests pass.' }],
      reflector: [json({ bullet_tags: [], insights: [{ section: 'testing', content: LESSON }] })],
      curator: [json({ operations: [{ type: 'add', section: 'testing', content: LESSON }] })],
    });
    assert.equal((await agent.runTurn('Fix the failing parser test', silentUI)).status, 'completed');
    assert.equal((await agent.runTurn('Now finish the parser work', silentUI)).status, 'completed');
    await agent.dispose();

    const [reflector] = requestsOf(fake, 'reflector');
    assert.match(requestText(reflector!), /Fix the failing parser test/);
    assert.match(requestText(reflector!), /echo: first/);
    assert.match(requestText(requestsOf(fake, 'curator')[0]!), /Run npm test before finishing\./);
    assert.deepEqual(saved().bullets.map((b) => [b.id, b.content]), [['pb-1', LESSON]]);

    const turns = requestsOf(fake, 'agent');
    assert.doesNotMatch(systemText(turns[0]!), /Run npm test/, 'nothing learned yet in the first turn');
    assert.match(systemText(turns.at(-1)!), /\[pb-1\] Run npm test before finishing\./);
  });

  it('tags the bullets the agent was shown and saves the counters (no curator call without insights)', async () => {
    await seed(LESSON);
    const memory = newMemory();
    const agent = memoryAgent(fake, memory);
    routeByKind(fake, { agent: twoEchoesThenDone(), reflector: [json({ bullet_tags: [{ id: 'pb-1', tag: 'helpful' }], insights: [] })] });
    await agent.runTurn('run the npm test suite', silentUI);
    await memory.settled();

    assert.match(systemText(requestsOf(fake, 'agent')[0]!), /\[pb-1\] Run npm test/);
    assert.match(requestText(requestsOf(fake, 'reflector')[0]!), /- \[pb-1\] Run npm test before finishing\./);
    assert.equal(requestsOf(fake, 'curator').length, 0);
    assert.deepEqual(saved().bullets.map((b) => [b.helpful, b.harmful]), [[1, 0]]);
  });

  it('an invalid reflection is retried with the JSON reminder; the valid retry is applied', async () => {
    await seed(LESSON);
    const memory = newMemory();
    routeByKind(fake, {
      agent: twoEchoesThenDone(),
      reflector: [{ text: 'The run went well overall.' }, json({ bullet_tags: [{ id: 'pb-1', tag: 'harmful' }] })],
    });
    await memoryAgent(fake, memory).runTurn('run the npm test suite', silentUI);
    await memory.settled();

    const [first, retry] = requestsOf(fake, 'reflector');
    assert.ok(first && retry);
    const reminderStart = getReminder('reflector_json_retry', { ERROR: '\u0000' })!.split('\u0000')[0]!;
    const retryMessages = retry.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(retryMessages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(retryMessages[1]!.content, 'The run went well overall.');
    assert.ok(retryMessages[2]!.content.startsWith(reminderStart), retryMessages[2]!.content);
    assert.match(retryMessages[2]!.content, /no JSON object/);
    assert.deepEqual(saved().bullets.map((b) => b.harmful), [1]);
  });

  it('a reflection that stays invalid is given up after two retries: no change, no crash', async () => {
    await seed(LESSON);
    const before = readFileSync(store.path, 'utf8');
    const memory = newMemory();
    const agent = memoryAgent(fake, memory);
    routeByKind(fake, { agent: [...twoEchoesThenDone(), { text: 'Second answer.' }] }, { reflector: { text: '{"bullet_tags": "all of them"}' } });
    assert.equal((await agent.runTurn('run the npm test suite', silentUI)).status, 'completed');
    await memory.settled();

    assert.equal(requestsOf(fake, 'reflector').length, 3);
    assert.equal(requestsOf(fake, 'curator').length, 0);
    assert.equal(readFileSync(store.path, 'utf8'), before);
    assert.match(notes.join('\n'), /reflector: no valid answer/);
    assert.equal((await agent.runTurn('and again', silentUI)).status, 'completed', 'the agent carries on');
  });

  it('when the curator never answers valid JSON, only the reflector tags are applied', async () => {
    await seed(LESSON);
    const memory = newMemory();
    routeByKind(
      fake,
      { agent: twoEchoesThenDone(), reflector: [json({ bullet_tags: [{ id: 'pb-1', tag: 'helpful' }], insights: ['Lint before committing.'] })] },
      { curator: json({ operations: [{ type: 'rename', id: 'pb-1' }] }) },
    );
    await memoryAgent(fake, memory).runTurn('run the npm test suite', silentUI);
    await memory.settled();

    assert.equal(requestsOf(fake, 'curator').length, 3);
    const retry = requestsOf(fake, 'curator')[1]!.body.messages as Array<{ content: string }>;
    assert.ok(retry[2]!.content.startsWith(getReminder('curator_json_retry', { ERROR: '\u0000' })!.split('\u0000')[0]!));
    assert.deepEqual(saved().bullets.map((b) => [b.content, b.helpful]), [[LESSON, 1]]);
  });

  it('a failing reflector model call never reaches the turn', async () => {
    const memory = newMemory();
    routeByKind(fake, { agent: twoEchoesThenDone(), reflector: [{ failure: { kind: 'status', status: 500 } }] });
    const result = await memoryAgent(fake, memory).runTurn('Fix the failing parser test', silentUI);
    await memory.settled();
    assert.equal(result.status, 'completed');
    assert.equal(result.text, 'Done.');
    assert.equal(existsSync(store.path), false);
    assert.match(notes.join('\n'), /reflection failed/);
  });

  it('reflects exactly every 5 new messages, on the messages since the last reflection', async () => {
    routeByKind(fake, {}, { reflector: json({ bullet_tags: [], insights: [] }) });
    const memory = newMemory();
    const history: Message[] = [];
    const reflectedAt: number[] = [];
    for (let i = 1; i <= 12; i++) {
      history.push(i % 2 ? { role: 'user', content: `message ${i}` } : { role: 'assistant', content: `message ${i}`, toolCalls: [] });
      const before = fake.requests.length;
      await memory.afterIteration(history, turnServices());
      await memory.settled();
      if (fake.requests.length > before) reflectedAt.push(history.length);
    }
    assert.deepEqual(reflectedAt, [5, 10]);
    const second = requestText(requestsOf(fake, 'reflector')[1]!);
    assert.match(second, /message 6\b/);
    assert.doesNotMatch(second, /message 5\b/);
  });

  it("dispose() lets a running reflection finish, then the agent's memory stops learning", async () => {
    const memory = newMemory();
    const agent = memoryAgent(fake, memory, { dispose: () => memory.dispose() });
    // The reflector answers only once the test lets it: the reflection is still running when the turn ends.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    routeByKind(fake, {
      agent: twoEchoesThenDone(),
      reflector: [async () => (await answered, json({ bullet_tags: [], insights: [LESSON] }))],
      curator: [json({ operations: [{ type: 'add', section: 'testing', content: LESSON }] })],
    });
    await agent.runTurn('Fix the failing parser test', silentUI);
    assert.equal(existsSync(store.path), false, 'the reflection is still running when the turn ends');
    const disposed = agent.dispose();
    answer();
    await disposed;
    assert.deepEqual(saved().bullets.map((b) => b.content), [LESSON]);

    const requests = fake.requests.length;
    await memory.afterIteration([...Array(10)].map(() => ({ role: 'user' as const, content: 'more' })), turnServices());
    await memory.settled();
    assert.equal(fake.requests.length, requests);
  });
});

describe('AgentMemory: embeddings for the selector', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let home: ReturnType<typeof tempHome>;
  let store: PlaybookStore;
  const DOCKER = 'Build the docker image with make image.';
  const TESTS = 'Run the unit tests with npm run test:unit.';
  const settings = (embeddingModel?: string, provider: 'openai' | 'anthropic' = 'openai') => ({
    action: { provider, model: 'fake-model', apiKey: 'test-key', baseUrl: provider === 'openai' ? fake.openaiBaseUrl : fake.anthropicBaseUrl, embeddingModel },
  });
  /** The bullet ids of an addendum, in order. */
  const order = (addendum: string | undefined) => [...(addendum ?? '').matchAll(/\[(pb-\d+)\]/g)].map((m) => m[1]);

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    home = tempHome();
    store = new PlaybookStore(playbookPath('/work/project', home.home));
    await store.update((p) => applyDelta(p, [{ type: 'add', section: 'build', content: DOCKER }, { type: 'add', section: 'testing', content: TESTS }], new Date()).playbook);
  });
  afterEach(() => home.cleanup());

  it("with an embedding model set, ranks by the provider's embeddings and embeds each bullet once", async () => {
    const memory = new AgentMemory({ roles: fakeRoles(fake), store, embedder: playbookEmbedder(settings('text-embedding-3-small')) });
    assert.deepEqual(order(await memory.promptAddendum('how do I run the unit tests?')), ['pb-2', 'pb-1']);
    assert.deepEqual(order(await memory.promptAddendum('the docker image does not build')), ['pb-1', 'pb-2']);

    assert.equal(fake.embeddingRequests.length, 2);
    assert.equal(fake.embeddingRequests[0].model, 'text-embedding-3-small');
    assert.deepEqual(fake.embeddingRequests[0].input, ['how do I run the unit tests?', DOCKER, TESTS]);
    assert.deepEqual(fake.embeddingRequests[1].input, ['the docker image does not build'], 'bullet vectors come from the cache');
  });

  it('falls back to the local lexical embedding when the endpoint fails, with one warning', async () => {
    fake.embeddingsFailure = 500;
    const warnings: string[] = [];
    const memory = new AgentMemory({ roles: fakeRoles(fake), store, embedder: playbookEmbedder(settings('text-embedding-3-small'), (w) => warnings.push(w)) });
    assert.deepEqual(order(await memory.promptAddendum('how do I run the unit tests?')), ['pb-2', 'pb-1']);
    assert.deepEqual(order(await memory.promptAddendum('the docker image does not build')), ['pb-1', 'pb-2']);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /text-embedding-3-small failed/);
  });

  it('without an embedding model (or on Anthropic) the lexical embedding is used and nothing is sent', async () => {
    assert.ok(playbookEmbedder(settings()) instanceof LexicalEmbedder);
    assert.ok(playbookEmbedder(settings('text-embedding-3-small', 'anthropic')) instanceof LexicalEmbedder);
    const memory = new AgentMemory({ roles: fakeRoles(fake), store });
    assert.deepEqual(order(await memory.promptAddendum('how do I run the unit tests?')), ['pb-2', 'pb-1']);
    assert.equal(fake.embeddingRequests.length, 0);
  });
});
