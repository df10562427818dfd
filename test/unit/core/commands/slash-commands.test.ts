import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThinkingLevel } from '../../../../src/core/config/thinking-level';
import {
  completeSlashCommand,
  createSlashCommands,
  escapedPrompt,
  isSlashCommand,
  parseSlashCommand,
  type CommandAgent,
  type CommandContext,
} from '../../../../src/core/commands/slash-commands';
import type { Message } from '../../../../src/core/messages';
import { SessionStore } from '../../../../src/core/session/session-store';
import type { Todo } from '../../../../src/core/todo';
import type { AgentMode, CostSnapshot } from '../../../../src/core/ui';

/** A stand-in agent with the state commands read and change. */
function fakeAgent(init: { messages?: Message[]; todos?: Todo[]; cost?: CostSnapshot; running?: boolean } = {}) {
  const state = { mode: 'normal' as AgentMode, thinking: 'off' as ThinkingLevel, messages: init.messages ?? [], cleared: 0 };
  const agent: CommandAgent = {
    get mode() {
      return state.mode;
    },
    setMode: (m) => void (state.mode = m),
    get thinkingLevel() {
      return state.thinking;
    },
    setThinkingLevel: (l) => void (state.thinking = l),
    get messages() {
      return state.messages;
    },
    clear: () => {
      state.messages = [];
      state.cleared++;
    },
    todos: () => init.todos ?? [],
    cost: () => init.cost,
    subagentTypes: () => [
      { name: 'Code-Explorer', description: 'Reads code to answer questions.' },
      { name: 'Planner', description: 'Writes plans.' },
    ],
    toolNames: () => ['read_file'],
    running: init.running ?? false,
  };
  return { agent, state };
}

describe('slash commands', () => {
  const commands = createSlashCommands();
  const ctx = (agent: CommandAgent, extra: Partial<CommandContext> = {}): CommandContext => ({ agent, front: 'cli', ...extra });

  it('parses /name args; // escapes a leading slash; plain text is not a command', () => {
    assert.deepEqual(parseSlashCommand('/mode  plan '), { name: 'mode', args: 'plan' });
    assert.deepEqual(parseSlashCommand('/PLAN add a cache to the parser'), { name: 'plan', args: 'add a cache to the parser' });
    assert.deepEqual(parseSlashCommand('/help'), { name: 'help', args: '' });
    assert.equal(isSlashCommand('what is /etc?'), false);
    assert.equal(isSlashCommand('//etc/hosts is empty'), false);
    assert.equal(escapedPrompt('//etc/hosts is empty'), '/etc/hosts is empty');
    assert.equal(escapedPrompt('plain'), 'plain');
  });

  it('completes command names and argument values', () => {
    assert.deepEqual(completeSlashCommand('/th'), ['/thinking']);
    assert.deepEqual(completeSlashCommand('/thinking h'), ['/thinking high']);
    assert.deepEqual(completeSlashCommand('/mode '), ['/mode normal', '/mode plan']);
    assert.ok(completeSlashCommand('/').includes('/exit'));
    assert.equal(completeSlashCommand('/').length, createSlashCommands().list().length);
    assert.deepEqual(completeSlashCommand('/zz'), []);
    assert.deepEqual(completeSlashCommand('hello'), []);
  });

  it('/help lists every command, marking the ones not built yet; /help <cmd> explains one', async () => {
    const { agent } = fakeAgent();
    const help = await commands.run('/help', ctx(agent));
    for (const name of ['help', 'plan', 'mode', 'thinking', 'clear', 'sessions', 'models', 'agents', 'todos', 'cost', 'exit', 'compact', 'undo', 'mcp', 'skills', 'init']) {
      assert.match(help.output, new RegExp(`/${name}\\b`));
    }
    assert.doesNotMatch(help.output, /not available yet/, 'every built-in command is built');
    assert.doesNotMatch(help.output, /\/undo .*not available/);
    assert.doesNotMatch(help.output, /\/plan .*not available/);
    assert.match((await commands.run('/help thinking', ctx(agent))).output, /^\/thinking \[off\|low\|medium\|high\]/);
    assert.equal((await commands.run('/help nope', ctx(agent))).error, 'usage');
  });

  it('/mode shows or sets the mode; /plan sets plan mode and runs its task', async () => {
    const { agent, state } = fakeAgent();
    assert.match((await commands.run('/mode', ctx(agent))).output, /^Mode: normal\./);
    assert.match((await commands.run('/mode plan', ctx(agent))).output, /^Mode: plan\./);
    assert.equal(state.mode, 'plan');
    assert.equal((await commands.run('/mode chaos', ctx(agent))).error, 'usage');
    await commands.run('/mode normal', ctx(agent));
    const plan = await commands.run('/plan add caching', ctx(agent));
    assert.equal(state.mode, 'plan');
    assert.equal(plan.runPrompt, 'add caching');
    assert.equal((await commands.run('/plan', ctx(agent))).runPrompt, undefined);
    const busy = fakeAgent({ running: true });
    assert.equal((await commands.run('/mode plan', ctx(busy.agent))).error, 'usage');
    assert.equal(busy.state.mode, 'normal');
  });

  it('/thinking shows or sets the level and rejects unknown ones', async () => {
    const { agent, state } = fakeAgent();
    assert.match((await commands.run('/thinking', ctx(agent))).output, /^Thinking: off\.\n {2}off:/);
    assert.equal((await commands.run('/thinking HIGH', ctx(agent))).output, 'Thinking: high.');
    assert.equal(state.thinking, 'high');
    const bad = await commands.run('/thinking extreme', ctx(agent));
    assert.equal(bad.error, 'usage');
    assert.match(bad.output, /off, low, medium, high/);
  });

  it('/clear saves the old session, clears the conversation and asks for a new session', async () => {
    const store = new SessionStore({ home: mkdtempSync(join(tmpdir(), 'opendev-cmd-')) });
    const workingDir = mkdtempSync(join(tmpdir(), 'opendev-cmd-project-'));
    const session = await store.create(workingDir);
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', toolCalls: [] },
    ];
    const { agent, state } = fakeAgent({ messages });
    const result = await commands.run('/clear', ctx(agent, { sessions: store, session, workingDir }));
    assert.equal(state.cleared, 1);
    assert.equal(result.newSession, true);
    assert.equal(result.clearScreen, true);
    assert.match(result.output, new RegExp(`saved as session ${session.meta.id}`));
    assert.deepEqual((await store.load(session.meta.id, workingDir))?.messages, messages);
    assert.equal((await commands.run('/clear', ctx(fakeAgent({ running: true }).agent))).error, 'usage');
  });

  it('/sessions lists the project sessions, marking the current one', async () => {
    const store = new SessionStore({ home: mkdtempSync(join(tmpdir(), 'opendev-cmd-')) });
    const workingDir = mkdtempSync(join(tmpdir(), 'opendev-cmd-project-'));
    const { agent } = fakeAgent();
    assert.match((await commands.run('/sessions', ctx(agent, { sessions: store, workingDir }))).output, /No saved sessions/);
    const a = await store.create(workingDir);
    await store.append(a, [{ role: 'user', content: 'Fix the flaky test' }]);
    const out = (await commands.run('/sessions', ctx(agent, { sessions: store, session: a, workingDir }))).output;
    assert.match(out, new RegExp(`\\* ${a.meta.id}\\s+Fix the flaky test\\s+just now\\s+1 msg`));
    assert.equal((await commands.run('/sessions', ctx(agent))).error, 'unavailable');
  });

  it('/models, /agents, /todos and /cost report the agent state', async () => {
    const { agent } = fakeAgent({
      todos: [
        { id: '1', title: 'Read the parser', description: '', status: 'done' },
        { id: '2', title: 'Add the cache', description: '', status: 'doing' },
      ],
      cost: { inputTokens: 12000, cachedTokens: 2000, outputTokens: 345, usd: 0.0421, calls: 3 },
    });
    const models = await commands.run('/models', ctx(agent, { models: [{ role: 'action', provider: 'openai', model: 'gpt-4.1' }] }));
    assert.match(models.output, /action: gpt-4\.1 \(openai\)/);
    assert.match((await commands.run('/agents', ctx(agent))).output, /Code-Explorer\s+Reads code/);
    assert.equal((await commands.run('/todos', ctx(agent))).output, 'Todos (1/2 done):\n  [x] 1. Read the parser\n  [~] 2. Add the cache');
    assert.equal(
      (await commands.run('/cost', ctx(agent))).output,
      'Session cost: 12,000 input tokens (2,000 cached), 345 output tokens, 3 model calls · $0.0421',
    );
    assert.equal((await commands.run('/todos', ctx(fakeAgent().agent))).output, 'No todos.');
    assert.equal((await commands.run('/cost', ctx(fakeAgent().agent))).output, 'Cost tracking is not available.');
  });

  it('/exit asks the front end to leave; a command the host cannot serve says so honestly', async () => {
    const { agent } = fakeAgent();
    assert.equal((await commands.run('/exit', ctx(agent))).exit, true);
    const r = await commands.run('/mcp', ctx(agent)); // an agent without MCP servers
    assert.equal(r.error, 'unavailable');
    assert.match(r.output, /^MCP servers are not available here/);
  });

  it('an unknown command is a usage error that lists the commands and suggests close ones', async () => {
    const r = await commands.run('/thinkin high', ctx(fakeAgent().agent));
    assert.equal(r.error, 'usage');
    assert.match(r.output, /Unknown command \/thinkin\. Did you mean \/thinking\?/);
    assert.match(r.output, /Commands: \/help, \/plan, \/mode, \/thinking/);
  });

  it('hosts can register their own commands', async () => {
    const registry = createSlashCommands().register({
      name: 'hello',
      summary: 'Say hello',
      usage: '/hello',
      run: async () => ({ output: 'hi' }),
    });
    assert.equal((await registry.run('/hello', ctx(fakeAgent().agent))).output, 'hi');
    assert.deepEqual(registry.complete('/hel'), ['/hello', '/help']);
  });
});
