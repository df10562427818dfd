import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/core/config/sandbox-settings';
import type { ThinkingCadence } from '../../../src/core/config/thinking-cadence';
import type { ThinkingLevel } from '../../../src/core/config/thinking-level';
import type { ChatEntry, ChatEntryOf, ExtensionToWebview } from '../../../src/shared/protocol';
import { ChatController, type ChatControllerOptions } from '../../../src/vscode/chat-controller';
import { builtinSlashPort } from '../../../src/vscode/slash-port';
import { ChatSessions } from '../../../src/vscode/chat-sessions';
import { SessionStore } from '../../../src/core/session/session-store';
import { FakeProvider, lastUserText, toolResults, type ScriptedTurn } from '../../fixtures/fake-provider';

const workspace = join(__dirname, '../../../../test/fixtures/workspace');

/** Polls until `find` returns something (the agent runs on its own; the test plays the user). */
async function until<T>(find: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function pending<K extends 'approval' | 'question' | 'plan'>(chat: ChatController, kind: K): ChatEntryOf<K> | undefined {
  return chat.transcript().find((e): e is ChatEntryOf<K> => e.kind === kind && e.state === 'pending');
}

function entry(chat: ChatController, id: string): ChatEntry | undefined {
  return chat.transcript().find((e) => e.id === id);
}

const read: ScriptedTurn = { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
const questions = {
  questions: [
    {
      header: 'Database',
      question: 'Which database should I use?',
      options: [
        { label: 'Postgres', description: 'A server database' },
        { label: 'SQLite', description: 'A single file' },
      ],
      multiSelect: false,
    },
    {
      header: 'Extras',
      question: 'What else should I add?',
      options: [
        { label: 'Docker', description: 'A compose file' },
        { label: 'CI', description: 'A workflow' },
      ],
      multiSelect: true,
    },
  ],
};
const askUser: ScriptedTurn = { toolCalls: [{ name: 'ask_user', arguments: questions }] };

const PLAN = `# Add multiply

## Goal
A multiply function.

## Context
math.ts has add and subtract.

## Files to modify
- math.ts

## Files to create
None

## Implementation steps
1. Add multiply to math.ts
2. Export it

## Verification
Call it.

## Risks
None
`;

describe('ChatController (the chat view model, without VS Code)', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const controller = (options: ChatControllerOptions & { agentThinking?: ThinkingLevel; thinkingCadence?: ThinkingCadence; workspaceRoot?: string } = {}) =>
    new ChatController(
      async () => ({
        agent: await createMainAgent({
          roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
          workspaceRoot: options.workspaceRoot ?? workspace,
          thinkingLevel: options.agentThinking,
          thinkingCadence: options.thinkingCadence,
        }),
      }),
      { slash: builtinSlashPort(), ...options },
    );

  it('turns a run into user, tool and streamed assistant entries, in order', async () => {
    fake.enqueue(read, { text: 'It exports add.' });
    const chat = controller();
    const messages: ExtensionToWebview[] = [];
    chat.onMessage((m) => messages.push(m));
    await chat.send('what does math.ts export?');

    assert.deepEqual(
      chat.transcript().map((e) => e.kind),
      ['user', 'tool', 'assistant'],
    );
    const tool = chat.transcript()[1];
    assert.equal(tool?.kind === 'tool' && tool.status, 'ok');
    assert.match(tool?.kind === 'tool' ? tool.summary ?? '' : '', /Read math\.ts/);
    assert.match(tool?.kind === 'tool' ? tool.output ?? '' : '', /export function add/, 'the card expands to the full output');
    assert.deepEqual(chat.transcript()[2], { kind: 'assistant', id: chat.transcript()[2]?.id, text: 'It exports add.' });
    assert.ok(messages.filter((m) => m.type === 'textDelta').length >= 2);
    assert.deepEqual(messages.filter((m) => m.type === 'busy').map((m) => m.type === 'busy' && m.busy), [true, false]);
  });

  it('shows the problem from the agent source (e.g. no key) as one error entry with its fix, after the latest message', async () => {
    const chat = new ChatController(async () => ({ problem: { kind: 'error', id: '', text: 'No API key is set for OpenAI.', action: 'setApiKey' } }));
    await chat.send('hi');
    await chat.send('hi again');
    assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'user', 'error'], 'the card moves, it is not repeated');
    const error = chat.transcript()[2]!;
    assert.equal(error.kind === 'error' && error.action, 'setApiKey');
    assert.match(error.kind === 'error' ? error.text : '', /^No API key is set for OpenAI\. Your message is sent as soon as this is done\.$/);
    assert.equal(chat.busy, false);
  });

  describe('first run: no provider configured yet', () => {
    const card: ChatEntry = { kind: 'setup', id: '', provider: 'openai', title: 'Connect OpenDev to OpenAI', text: 'OpenDev needs an API key for OpenAI.' };
    /** A chat whose agent source and setup check follow `keys.saved`, as the editor's read Secret Storage. */
    const firstRun = () => {
      const keys = { saved: false, builds: 0 };
      const chat = new ChatController(
        async () => {
          keys.builds++;
          if (!keys.saved) return { problem: card };
          return { agent: await createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: workspace }) };
        },
        { slash: builtinSlashPort(), setupCheck: async () => (keys.saved ? undefined : card) },
      );
      return { chat, keys };
    };

    it('the empty chat is the setup card, before any question, without building an agent', async () => {
      const { chat, keys } = firstRun();
      await chat.checkSetup();
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['setup']);
      assert.equal(keys.builds, 0);
      // New Chat: the card again, not an empty chat that fails at the first message.
      chat.newChat();
      await chat.checkSetup();
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['setup']);
      keys.saved = true;
      chat.invalidateAgent();
      await chat.checkSetup();
      assert.deepEqual(chat.transcript(), [], 'the key is saved: the card goes');
      chat.dispose();
    });

    it('a question sent before the key waits under one card, and runs once the key is saved', async () => {
      const { chat, keys } = firstRun();
      await chat.checkSetup();
      await chat.send('what does math.ts export?');
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'setup'], 'the empty state card moved under the question');
      assert.equal(fake.requests.length, 0);
      fake.enqueue({ text: 'It exports add.' });
      const busy = new Promise<void>((resolve) => chat.onMessage((m) => m.type === 'busy' && !m.busy && resolve()));
      keys.saved = true;
      chat.invalidateAgent(); // what saving a key does
      await busy;
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'assistant'], 'the card is gone and the question was not typed again');
      assert.equal(lastUserText(fake.requests[0]!), 'what does math.ts export?');
      chat.dispose();
    });

    it('runs the commands that need no model without a key, and says what is missing for the others', async () => {
      const { chat, keys } = firstRun();
      await chat.send('/help');
      const help = chat.transcript().at(-1);
      assert.equal(help?.kind === 'notice' && help.command, '/help');
      assert.match(help?.kind === 'notice' ? help.text : '', /Commands \(handled without the model\)/);
      assert.equal(keys.builds, 0, 'no agent was built for /help');
      await chat.send('/mode plan');
      assert.equal(chat.transcript().at(-1)?.kind, 'setup');
      assert.equal(keys.builds, 1);
      chat.dispose();
    });
  });

  it('reports a provider error in the chat and accepts the next message', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 401 } }, { text: 'Welcome back.' });
    const chat = controller();
    await chat.send('hi');
    const error = chat.transcript().at(-1);
    assert.equal(error?.kind, 'error');
    assert.match(error?.kind === 'error' ? error.text : '', /rejected the API key \(401\)/);
    assert.equal(error?.kind === 'error' && error.action, 'setApiKey');
    await chat.send('hi again');
    assert.deepEqual(chat.transcript().at(-1), { kind: 'assistant', id: chat.transcript().at(-1)?.id, text: 'Welcome back.' });
  });

  it('stop() ends a running turn with a notice; newChat() clears the transcript and the live state and counts the conversation up', async () => {
    fake.enqueue({ text: 'slow slow slow slow', chunkDelayMs: 400 });
    const chat = controller();
    const running = chat.send('go');
    await fake.waitForRequests(1);
    chat.stop();
    await running;
    assert.deepEqual(chat.transcript().at(-1), { kind: 'notice', id: chat.transcript().at(-1)?.id, text: 'Stopped.' });
    chat.setMode('plan');
    assert.equal((chat.snapshot() as { conversation: number }).conversation, 0);
    chat.newChat();
    // The view marks which conversation it shows, so what was typed for the old one is not mistaken for the new.
    assert.deepEqual(chat.snapshot(), { type: 'snapshot', conversation: 1, entries: [], busy: false, todos: [], mode: 'plan', thinkingLevel: 'off' });
  });

  it('tells the view whether commands run sandboxed once the agent exists, in the snapshot too, and keeps it over New Chat', async () => {
    fake.enqueue({ text: 'Hello.' });
    const chat = new ChatController(async () => ({
      agent: await createMainAgent({
        roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
        workspaceRoot: workspace,
        sandbox: { ...DEFAULT_SANDBOX_SETTINGS, enabled: false },
      }),
    }));
    const messages: ExtensionToWebview[] = [];
    chat.onMessage((m) => messages.push(m));
    const first = chat.snapshot();
    assert.equal(first.type === 'snapshot' && first.sandbox, undefined, 'nothing before there is an agent');
    await chat.send('hi');
    const said = await until(() => messages.find((m) => m.type === 'sandbox'), 'the sandbox message');
    assert.equal(said.type === 'sandbox' && said.state, 'unsandboxed');
    assert.match(said.type === 'sandbox' ? said.detail ?? '' : '', /opendev\.sandbox\.enabled is off/);
    chat.newChat();
    const snapshot = chat.snapshot();
    assert.equal(snapshot.type === 'snapshot' && snapshot.sandbox?.state, 'unsandboxed');
    chat.dispose();
  });

  // Thinking before every step (the paper's loop, by setting), so that a greeting shows it too.
  describe('thinking', () => {
    it('shows the thinking phase as a trace entry before the answer (thinking on: a no-tools call first)', async () => {
      fake.enqueue({ text: 'The user greets me; a short greeting is enough.' }, { text: 'Hello!' });
      const chat = controller({ agentThinking: 'low', thinkingCadence: 'every-step' });
      await chat.send('hi');
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'thinking', 'assistant']);
      const trace = chat.transcript()[1] as ChatEntryOf<'thinking'>;
      assert.equal(trace.phase, 'thinking');
      assert.equal(trace.text, 'The user greets me; a short greeting is enough.');
      assert.equal(fake.requests[0]!.body.tools, undefined, 'the thinking call has no tools');
      assert.ok(fake.requests[1]!.body.tools.length > 0, 'the action call has them');
      const snapshot = chat.snapshot();
      assert.equal(snapshot.type === 'snapshot' && snapshot.thinkingLevel, 'low');
    });

    it('the thinking-level setting reaches the agent, and a change applies mid-conversation', async () => {
      const chat = controller({ thinkingLevel: 'low', thinkingCadence: 'every-step' });
      const states: ExtensionToWebview[] = [];
      chat.onMessage((m) => m.type === 'agentState' && states.push(m));
      fake.enqueue({ text: 'Greet back.' }, { text: 'Hello!' });
      await chat.send('hi');
      assert.equal(fake.requests.length, 2, 'low: a thinking call, then the action');

      chat.setThinkingLevel('off');
      assert.deepEqual(states.at(-1), { type: 'agentState', mode: 'normal', thinkingLevel: 'off' });
      fake.enqueue({ text: 'Bye!' });
      await chat.send('bye');
      assert.equal(fake.requests.length, 3, 'off: the action call only');
      assert.ok(JSON.stringify(fake.requests[2]!.body.messages).includes('"hi"'), 'the same conversation went on');
    });

    it('streams native reasoning into a reasoning entry', async () => {
      fake.enqueue({ thinking: 'Let me think about math.', text: 'Done.' });
      const chat = controller();
      await chat.send('think');
      const reasoning = chat.transcript().find((e): e is ChatEntryOf<'thinking'> => e.kind === 'thinking');
      assert.equal(reasoning?.phase, 'reasoning');
      assert.equal(reasoning?.text, 'Let me think about math.');
    });
  });

  describe('notices, cost and retries', () => {
    it('shows a retry as its line while it waits; the answer takes its place', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 0 } }, { text: 'Made it.' });
      const chat = controller();
      const shown: ExtensionToWebview[] = [];
      chat.onMessage((m) => shown.push(m));
      const result = await chat.send('hi');
      assert.equal(result?.status, 'completed');
      const line = shown.find((m) => m.type === 'upsert' && m.entry.kind === 'retry');
      assert.ok(line?.type === 'upsert' && line.entry.kind === 'retry');
      assert.deepEqual({ ...line.entry, id: '' }, { kind: 'retry', id: '', attempt: 2, maxAttempts: 4, delayMs: 0, reason: 'rate limited (429)', waiting: true });
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'assistant'], 'the retry line is gone once a try answered');
      assert.equal((chat.transcript().at(-1) as ChatEntryOf<'assistant'>).text, 'Made it.');
    });

    it('sends the tokens (and cost) of the chat to the footer', async () => {
      fake.enqueue({ text: 'ok', usage: { promptTokens: 1200, cachedTokens: 200, outputTokens: 30 } });
      const chat = controller();
      const costs: ExtensionToWebview[] = [];
      chat.onMessage((m) => m.type === 'cost' && costs.push(m));
      await chat.send('hi');
      const last = costs.at(-1);
      assert.ok(last?.type === 'cost');
      assert.equal(last.cost.inputTokens, 1200);
      assert.equal(last.cost.cachedTokens, 200);
      assert.equal(last.cost.outputTokens, 30);
      assert.equal(last.cost.calls, 1);
      const snapshot = chat.snapshot();
      assert.equal(snapshot.type === 'snapshot' && snapshot.cost?.outputTokens, 30);
    });
  });

  describe('approval cards', () => {
    it('a doom-loop approval is answered from the view; answers that do not fit the card are refused', async () => {
      fake.enqueue(read, read, read, read, { text: 'Done reading.' });
      const chat = controller();
      const turn = chat.send('read math.ts');
      const card = await until(() => pending(chat, 'approval'), 'the approval card');
      assert.equal(card.request.kind, 'doom_loop');
      assert.equal(card.request.toolName, 'read_file');
      const warning = chat.transcript().find((e): e is ChatEntryOf<'notice'> => e.kind === 'notice' && e.level === 'warning');
      assert.match(warning?.text ?? '', /repeated read_file/);

      assert.equal(chat.answer({ type: 'answerApproval', id: 'e999', decision: { action: 'allow' } }).ok, false, 'unknown id');
      assert.equal(chat.answer({ type: 'answerPlan', id: card.id, decision: { action: 'approve' } }).ok, false, 'wrong kind of answer');
      assert.equal(chat.answer({ type: 'answerApproval', id: card.id, decision: { action: 'edit', command: 'ls' } }).ok, false, 'nothing to edit');
      assert.equal(pending(chat, 'approval')?.id, card.id, 'still waiting');

      assert.deepEqual(chat.answer({ type: 'answerApproval', id: card.id, decision: { action: 'allow' } }), { ok: true });
      assert.equal(chat.answer({ type: 'answerApproval', id: card.id, decision: { action: 'allow' } }).ok, false, 'answered once only');
      const result = await turn;
      assert.equal(result?.status, 'completed');
      assert.deepEqual(entry(chat, card.id), { ...card, state: 'answered', decision: { action: 'allow' } });
      assert.equal(fake.requests.length, 5);
      assert.match(toolResults(fake.requests[4]!)[0]!.content, /export const PI/, 'the allowed call ran');
    });

    it('Deny with feedback skips the repeated call', async () => {
      fake.enqueue(read, read, read, read, { text: 'I will stop reading.' });
      const chat = controller();
      const turn = chat.send('read math.ts');
      const card = await until(() => pending(chat, 'approval'), 'the approval card');
      chat.answer({ type: 'answerApproval', id: card.id, decision: { action: 'deny', feedback: 'enough' } });
      await turn;
      assert.deepEqual((entry(chat, card.id) as ChatEntryOf<'approval'>).decision, { action: 'deny', feedback: 'enough' });
      assert.ok(chat.transcript().some((e) => e.kind === 'notice' && /Stopped the repeated read_file/.test(e.text)));
    });
  });

  describe('ask_user survey', () => {
    it('is answered from the view and the answer reaches the model', async () => {
      fake.enqueue(askUser, { text: 'SQLite it is.' });
      const chat = controller();
      const turn = chat.send('set up a database');
      const card = await until(() => pending(chat, 'question'), 'the survey card');
      assert.deepEqual(card.questions.map((q) => q.header), ['Database', 'Extras']);
      assert.deepEqual(card.questions[0]!.options.map((o) => o.label), ['Postgres', 'SQLite', 'Other'], '"Other" is always offered');

      const refuse = (answers: Array<{ header: string; selected: string[]; other?: string }>) =>
        assert.equal(chat.answer({ type: 'answerQuestions', id: card.id, answers: { answers } }).ok, false, JSON.stringify(answers));
      refuse([{ header: 'Database', selected: ['SQLite'] }]);
      refuse([{ header: 'Database', selected: ['SQLite', 'Postgres'] }, { header: 'Extras', selected: [] }]);
      refuse([{ header: 'Database', selected: ['MySQL'] }, { header: 'Extras', selected: [] }]);
      refuse([{ header: 'Database', selected: ['Other'] }, { header: 'Extras', selected: [] }]);

      const answers = [
        { header: 'Database', selected: ['SQLite'] },
        { header: 'Extras', selected: ['Docker', 'Other'], other: 'a Makefile' },
      ];
      assert.deepEqual(chat.answer({ type: 'answerQuestions', id: card.id, answers: { answers } }), { ok: true });
      await turn;
      const result = toolResults(fake.requests[1]!)[0]!.content;
      assert.match(result, /Which database should I use\?\n\s+→ SQLite/);
      assert.match(result, /Docker, Other: "a Makefile"/);
      assert.deepEqual((entry(chat, card.id) as ChatEntryOf<'question'>).answers, { answers });
      assert.equal((entry(chat, card.id) as ChatEntryOf<'question'>).state, 'answered');
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'question', 'assistant'], 'the card stands in for the ask_user tool card');
    });

    it('Skip tells the model the user declined', async () => {
      fake.enqueue(askUser, { text: 'Assuming Postgres.' });
      const chat = controller();
      const turn = chat.send('set up a database');
      const card = await until(() => pending(chat, 'question'), 'the survey card');
      chat.answer({ type: 'answerQuestions', id: card.id, answers: null });
      await turn;
      assert.match(toolResults(fake.requests[1]!)[0]!.content, /declined to answer/);
      const shown = entry(chat, card.id) as ChatEntryOf<'question'>;
      assert.equal(shown.state, 'answered');
      assert.equal(shown.answers, undefined);
    });

    it('Stop cancels the open card first (the agent goes on); a second Stop ends the turn', async () => {
      fake.enqueue(askUser, { text: 'I will assume Postgres and go on slowly.', chunkDelayMs: 300 });
      const chat = controller();
      const turn = chat.send('set up a database');
      const card = await until(() => pending(chat, 'question'), 'the survey card');

      chat.stop();
      await until(() => (entry(chat, card.id) as ChatEntryOf<'question'>).state === 'cancelled' || undefined, 'the cancelled card');
      assert.ok(chat.transcript().some((e) => e.kind === 'notice' && /Cancelled the open request/.test(e.text)));
      assert.equal(chat.answer({ type: 'answerQuestions', id: card.id, answers: null }).ok, false, 'a cancelled card takes no answer');

      await fake.waitForRequests(2);
      assert.match(toolResults(fake.requests[1]!)[0]!.content, /declined to answer/);
      chat.stop();
      const result = await turn;
      assert.equal(result?.status, 'stopped');
      assert.equal(chat.transcript().at(-1)?.kind === 'notice' && (chat.transcript().at(-1) as ChatEntryOf<'notice'>).text, 'Stopped.');
    });
  });

  describe('plan review', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'opendev-plan-'));
      mkdirSync(join(root, '.opendev', 'plans'), { recursive: true });
      writeFileSync(join(root, '.opendev', 'plans', 'multiply.md'), PLAN);
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    const present: ScriptedTurn = { toolCalls: [{ name: 'present_plan', arguments: { plan_file_path: '.opendev/plans/multiply.md' } }] };

    it('Request changes sends the feedback to the model', async () => {
      fake.enqueue(present, { text: 'I will revise the plan.' });
      const chat = controller({ workspaceRoot: root });
      const turn = chat.send('add multiply');
      const card = await until(() => pending(chat, 'plan'), 'the plan card');
      assert.equal(card.content, PLAN);
      assert.match(card.path, /multiply\.md$/);
      chat.answer({ type: 'answerPlan', id: card.id, decision: { action: 'modify', feedback: 'Also add divide.' } });
      await turn;
      assert.match(toolResults(fake.requests[1]!)[0]!.content, /Also add divide\./);
      assert.deepEqual((entry(chat, card.id) as ChatEntryOf<'plan'>).decision, { action: 'modify', feedback: 'Also add divide.' });
      assert.equal(chat.transcript().filter((e) => e.kind === 'tool').length, 0, 'the card stands in for the present_plan tool card');
    });

    it('Approve & auto-approve turns the steps into the live todo list and leaves plan mode', async () => {
      fake.enqueue(present, { text: 'Starting.' });
      const chat = controller({ workspaceRoot: root });
      chat.setMode('plan');
      const todos: ExtensionToWebview[] = [];
      chat.onMessage((m) => m.type === 'todos' && todos.push(m));
      const turn = chat.send('add multiply');
      const card = await until(() => pending(chat, 'plan'), 'the plan card');
      chat.answer({ type: 'answerPlan', id: card.id, decision: { action: 'approve_auto' } });
      await turn;
      const last = todos.at(-1);
      assert.ok(last?.type === 'todos');
      assert.deepEqual(last.todos.map((t) => [t.title, t.status]), [
        ['Add multiply to math.ts', 'todo'],
        ['Export it', 'todo'],
      ]);
      assert.equal(chat.currentMode, 'normal');
      const snapshot = chat.snapshot();
      assert.equal(snapshot.type === 'snapshot' && snapshot.todos.length, 2);
    });
  });

  it('shows a subagent as a running card, then its status and summary', async () => {
    fake.enqueue(
      { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'Find where add is defined.' } }] },
      { text: 'add is defined in math.ts, line 3.' },
      { text: 'It is in math.ts.' },
    );
    const chat = controller();
    const seen: ChatEntryOf<'subagent'>[] = [];
    chat.onMessage((m) => m.type === 'upsert' && m.entry.kind === 'subagent' && seen.push(m.entry));
    await chat.send('where is add?');
    assert.deepEqual(seen.map((e) => e.status), ['running', 'completed']);
    assert.equal(seen[0]!.id, seen[1]!.id, 'one card, updated in place');
    assert.equal(seen[1]!.type, 'Code-Explorer');
    assert.equal(seen[1]!.task, 'Find where add is defined.');
    assert.match(seen[1]!.summary ?? '', /math\.ts, line 3/);
  });

  describe('follow-ups while the agent works', () => {
    it('queues a message typed while running and the agent reads it at its next step', async () => {
      fake.enqueue({ text: 'first answer, in slow pieces', chunkDelayMs: 200 }, { text: 'And the follow-up.' });
      const chat = controller();
      const turn = chat.send('one');
      await fake.waitForRequests(1);
      assert.equal(await chat.send('two'), undefined, 'a follow-up does not start a turn of its own');
      const queued = chat.transcript().find((e): e is ChatEntryOf<'user'> => e.kind === 'user' && e.text === 'two');
      assert.equal(queued?.queued, true);
      await turn;
      assert.equal(fake.requests.length, 2);
      assert.match(lastUserText(fake.requests[1]!), /two/);
      assert.equal((entry(chat, queued!.id) as ChatEntryOf<'user'>).queued, undefined, 'no longer queued once the turn is over');
      const answers = chat.transcript().filter((e) => e.kind === 'assistant').map((e) => (e as ChatEntryOf<'assistant'>).text);
      assert.deepEqual(answers, ['first answer, in slow pieces', 'And the follow-up.'], 'each model call has its own message');
    });

    it('a message sent once a stopped turn is over, while the chat still saves it, gets an answer of its own', async () => {
      fake.enqueue({ text: 'slow slow slow slow', chunkDelayMs: 400 });
      fake.setResponder(() => ({ text: 'pong' }));
      let release!: () => void;
      const saving = new Promise<void>((resolve) => (release = resolve));
      let saves = 0;
      // The end of the turn's full save holds until the test lets it go.
      const store = new SessionStore({ home: mkdtempSync(join(tmpdir(), 'opendev-chat-saving-')) });
      const sync = store.sync.bind(store);
      store.sync = async (...args) => {
        if (saves++ === 0) await saving;
        return sync(...args);
      };
      const sessions = new ChatSessions(store, workspace, { titles: () => 'first-prompt', onProblem: (t) => assert.fail(t) });
      const chat = controller({ sessions });
      const first = chat.send('go');
      await fake.waitForRequests(1);
      chat.stop();
      await until(() => chat.transcript().find((e) => e.kind === 'notice' && e.text === 'Stopped.'), 'the Stopped. notice');
      const next = chat.send('ping');
      release();
      await Promise.all([first, next]);
      assert.equal(fake.requests.length, 2, 'ping was sent to the model');
      assert.match(lastUserText(fake.requests[1]!), /ping/);
      assert.deepEqual(chat.transcript().at(-1), { kind: 'assistant', id: chat.transcript().at(-1)?.id, text: 'pong' });
      assert.equal(chat.busy, false);
    });

    it('says so when the follow-up queue is full', async () => {
      fake.enqueue({ text: 'slow answer', chunkDelayMs: 300 });
      fake.setResponder(() => ({ text: 'ok' }));
      const chat = controller();
      const turn = chat.send('go');
      await fake.waitForRequests(1);
      for (let i = 1; i <= 11; i++) await chat.send(`follow-up ${i}`);
      assert.equal(chat.transcript().filter((e) => e.kind === 'user' && e.queued).length, 10);
      assert.ok(chat.transcript().some((e) => e.kind === 'notice' && /queue is full/.test(e.text)));
      await turn;
    });
  });

  describe('slash commands', () => {
    it('run through the shared registry without a model request', async () => {
      const chat = controller();
      await chat.send('/help');
      await chat.send('/mode plan');
      assert.equal(fake.requests.length, 0);
      const [help, mode] = chat.transcript() as Array<ChatEntryOf<'notice'>>;
      assert.equal(help?.command, '/help');
      assert.match(help?.text ?? '', /\/plan \[task\]/);
      assert.equal(mode?.command, '/mode plan');
      assert.equal(chat.currentMode, 'plan');

      await chat.send('/nonsense');
      const unknown = chat.transcript().at(-1) as ChatEntryOf<'notice'>;
      assert.equal(unknown.level, 'warning');
      assert.match(unknown.text, /Unknown command \/nonsense/);
      assert.equal(fake.requests.length, 0);
    });

    it('/plan <task> switches to plan mode and runs the task', async () => {
      fake.enqueue({ text: 'Exploring first.' });
      const chat = controller();
      const states: ExtensionToWebview[] = [];
      chat.onMessage((m) => m.type === 'agentState' && states.push(m));
      await chat.send('/plan add a multiply function');
      assert.equal(fake.requests.length, 1);
      assert.match(lastUserText(fake.requests[0]!), /^add a multiply function/);
      assert.ok(states.some((m) => m.type === 'agentState' && m.mode === 'plan'));
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['notice', 'user', 'assistant']);
    });

    it('completes command names, refuses conversation changes while running, and // escapes a slash', async () => {
      const chat = controller();
      assert.ok(chat.complete('/p').some((c) => c.name === '/plan' && /plan mode/i.test(c.description)));
      assert.deepEqual(chat.complete('/thinking h').map((c) => c.name), ['/thinking high']);

      fake.enqueue({ text: 'slow', chunkDelayMs: 300 }, { text: 'A path.' });
      const turn = chat.send('go');
      await fake.waitForRequests(1);
      await chat.send('/clear');
      assert.match((chat.transcript().at(-1) as ChatEntryOf<'notice'>).text, /\/clear cannot run while OpenDev is working/);
      await chat.send('/todos'); // safe while running
      assert.match((chat.transcript().at(-1) as ChatEntryOf<'notice'>).text, /No todos/);
      await turn;
      await chat.send('//etc/hosts is odd');
      assert.equal(lastUserText(fake.requests.at(-1)!), '/etc/hosts is odd');
    });

    it('/clear empties the transcript and the conversation', async () => {
      fake.enqueue({ text: 'Hi.' }, { text: 'Fresh.' });
      const chat = controller();
      await chat.send('hello');
      await chat.send('/clear');
      assert.deepEqual(chat.transcript().map((e) => e.kind), ['notice']);
      await chat.send('again');
      assert.equal(fake.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'user').length, 1);
    });
  });

  it('switches modes from the view (Shift+Tab) and keeps the mode for the next agent', async () => {
    const chat = controller();
    const states: ExtensionToWebview[] = [];
    chat.onMessage((m) => m.type === 'agentState' && states.push(m));
    assert.equal(chat.toggleMode(), 'plan');
    assert.deepEqual(states.at(-1), { type: 'agentState', mode: 'plan', thinkingLevel: 'off' });
    fake.enqueue({ text: 'Planning.' });
    await chat.send('look around');
    assert.match(lastUserText(fake.requests[0]!), /look around[\s\S]+plan/i, 'the agent runs in plan mode');
    assert.equal(chat.toggleMode(), 'normal');
  });
});
