import * as assert from 'node:assert/strict';
import { EpisodicMemory } from '../../../../src/core/memory/episodic-memory';
import type { Message } from '../../../../src/core/messages';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { fakeRoles, kindOf, memoryAgent, requestsOf, requestText, routeByKind, turnServices } from './memory-fixtures';

/** A conversation of plain user/assistant messages; the first one is recognisable. */
function chat(length: number): Message[] {
  return Array.from({ length }, (_, i): Message =>
    i === 0 ? { role: 'user', content: 'FIRST-REQUEST: add a CSV export' } : i % 2 === 0 ? { role: 'user', content: `user message ${i}` } : { role: 'assistant', content: `assistant message ${i}`, toolCalls: [] },
  );
}

/** The agent's query, then `steps` tool-using iterations (assistant call + tool result). */
function toolSession(steps: number): Message[] {
  const history: Message[] = [{ role: 'user', content: 'Fix the failing test in parser.ts' }];
  for (let i = 1; i <= steps; i++) {
    history.push({ role: 'assistant', content: `step ${i}`, toolCalls: [{ id: `c${i}`, name: 'echo', arguments: JSON.stringify({ text: `t${i}` }) }] });
    history.push({ role: 'tool', toolCallId: `c${i}`, name: 'echo', content: `OUTPUT-${i}`, isError: false });
  }
  return history;
}

describe('EpisodicMemory (dual memory for thinking)', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('regenerates the summary exactly every 5 new messages, always from the full history and never from the previous summary', async () => {
    let n = 0;
    fake.setResponder(() => ({ text: `SUMMARY-${++n}` }));
    const memory = new EpisodicMemory(fakeRoles(fake));
    const history = chat(20);
    const regeneratedAt: number[] = [];
    const views = new Map<number, Message[]>();
    for (; history.length <= 42; history.push(...chat(history.length + 1).slice(-1))) {
      const before = fake.requests.length;
      views.set(history.length, await memory.view(history, undefined, turnServices()));
      if (fake.requests.length > before) regeneratedAt.push(history.length);
    }
    assert.deepEqual(regeneratedAt, [20, 25, 30, 35, 40]);
    for (const req of fake.requests) {
      assert.equal(kindOf(req), 'summariser');
      assert.match(requestText(req), /FIRST-REQUEST: add a CSV export/, 'the summariser reads the whole history');
      assert.doesNotMatch(requestText(req), /SUMMARY-/, 'no summary of a summary');
    }
    // Between regenerations the cached summary stands in for the older messages.
    assert.match(views.get(23)![0]!.content, /SUMMARY-1/);
    assert.match(views.get(29)![0]!.content, /SUMMARY-2/);
    assert.match(views.get(40)![0]!.content, /SUMMARY-5/);
  });

  it('the view is the summary, the last 6 exchanges verbatim and the current query', async () => {
    fake.setResponder(() => ({ text: 'The user wants the parser test fixed; echo ran ten times.' }));
    const memory = new EpisodicMemory(fakeRoles(fake));
    const history = toolSession(10);
    const view = await memory.view(history, 'Fix the failing test in parser.ts', turnServices());

    assert.equal(view[0]!.role, 'user');
    assert.match(view[0]!.content, /echo ran ten times/);
    // Six exchanges = the last six assistant calls, each with its tool result.
    assert.deepEqual(view.slice(1, 13), history.slice(-12));
    assert.doesNotMatch(JSON.stringify(view), /OUTPUT-4"/, 'older exchanges are left to the summary');
    const last = view.at(-1)!;
    assert.equal(last.role, 'user');
    assert.match(last.content, /Fix the failing test in parser\.ts/);
    assert.equal(view.length, 14);
  });

  it('a short conversation is passed whole, with no summary call', async () => {
    const memory = new EpisodicMemory(fakeRoles(fake));
    const history = toolSession(3);
    assert.deepEqual(await memory.view(history, 'Fix the failing test in parser.ts', turnServices()), history);
    assert.equal(fake.requests.length, 0);
  });

  it('a failed summary call keeps the previous summary and does not fail', async () => {
    routeByKind(fake, { summariser: [{ text: 'SUMMARY-OK' }, { failure: { kind: 'status', status: 500 } }] });
    const memory = new EpisodicMemory(fakeRoles(fake));
    const history = chat(20);
    await memory.view(history, undefined, turnServices());
    history.push(...chat(25).slice(20));
    const view = await memory.view(history, undefined, turnServices());
    assert.equal(fake.requests.length, 2, 'the regeneration was attempted');
    assert.match(view[0]!.content, /SUMMARY-OK/);
  });

  it('with thinking on, the agent thinks over the dual memory and acts on the full history', async () => {
    const memory = new EpisodicMemory(fakeRoles(fake));
    routeByKind(fake, { summariser: [{ text: 'EPISODE: ten echo calls so far.' }], thinking: [{ text: 'Answer now.' }], agent: [{ text: 'Done.' }] });
    const agent = memoryAgent(fake, { thinkingView: (history, services) => memory.view(history, undefined, services) }, { thinkingLevel: 'low' });
    agent.restore(toolSession(10));
    const result = await agent.runTurn('And now?', silentTurnUI());
    assert.equal(result.status, 'completed');

    const [thinking] = requestsOf(fake, 'thinking');
    assert.match(requestText(thinking!), /EPISODE: ten echo calls so far\./);
    assert.doesNotMatch(requestText(thinking!), /OUTPUT-2\b/);
    const [action] = requestsOf(fake, 'agent');
    assert.match(requestText(action!), /OUTPUT-2\b/, 'the action call still sees everything');
  });
});

function silentTurnUI() {
  return { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };
}
