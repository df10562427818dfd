import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../src/core/agent/agent';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import type { TurnResult } from '../../../src/core/agent/turn-result';
import { SessionRecorder } from '../../../src/core/session/session-recorder';
import { SessionStore } from '../../../src/core/session/session-store';
import type { UICallback } from '../../../src/core/ui';
import { LineQueue } from '../../../src/terminal-ui/line-source';
import { ReplSession, type ReplAgent, type ReplOptions } from '../../../src/terminal-ui/repl-session';
import { FakeProvider, lastUserText, type ScriptedTurn } from '../../fixtures/fake-provider';
import { waitForScreen } from '../../helpers/terminal-screen';

const workspace = join(__dirname, '../../../../test/fixtures/workspace');

/** A REPL over a scripted line queue, its output captured. */
function harness(agent: ReplAgent | undefined, options: Partial<Pick<ReplOptions, 'typeAhead' | 'recorder' | 'nextAgent' | 'onStatus'>> = {}) {
  const input = new LineQueue();
  let output = '';
  const repl = new ReplSession({ ...(agent ? { agent } : {}), input, io: { write: (t) => (output += t) }, color: false, echoInput: true, ...options });
  const waitFor = (pattern: RegExp, timeoutMs?: number) => waitForScreen(() => output, pattern, timeoutMs);
  return { input, repl, waitFor, output: () => output };
}

describe('ReplSession (terminal-ui) with a real agent and the fake provider', () => {
  const fake = new FakeProvider();
  let agent: Agent;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    agent = await createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      thinkingLevel: 'off',
    });
  });

  const repeated = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ toolCalls: [{ id: `c${i + 1}`, name: 'read_file', arguments: { file_path: 'math.ts' } }] }));

  it('without an agent (no key yet) runs the commands that need no model, and asks the host for one at the first task', async () => {
    const asked: Array<'line' | 'clear'> = [];
    let keySet = false;
    const { input, repl, waitFor, output } = harness(undefined, {
      nextAgent: async (reason, current) => {
        if (current) return undefined; // the agent in place goes on
        asked.push(reason);
        return keySet ? { agent } : undefined;
      },
    });
    const done = repl.run();
    input.push('/help');
    await waitFor(/Commands \(handled without the model\)/);
    assert.deepEqual(asked, [], '/help builds no agent');
    repl.toggleMode(); // plan mode before there is an agent
    input.push('read math.ts');
    await waitFor(/› read math\.ts\n[\s\S]*plan › $/);
    assert.deepEqual(asked, ['line']);
    assert.equal(fake.requests.length, 0);
    keySet = true;
    fake.enqueue({ text: 'Planned.' });
    input.push('read math.ts');
    await waitFor(/Planned\./);
    assert.equal(agent.mode, 'plan', 'the first agent takes the mode chosen before it');
    assert.deepEqual(asked, ['line', 'line'], 'asked at each task while there was none');
    input.push('/exit');
    assert.equal(await done, 0);
    assert.match(output(), /Bye\./);
  });

  it('shows the approval menu for a doom-loop pause and lets the user allow it once more', async () => {
    fake.enqueue(...repeated(4), { text: 'Finished reading.' });
    const { input, repl, waitFor, output } = harness(agent);
    const done = repl.run();
    input.push('read math.ts');
    await waitFor(/1\) allow it once more\s+2\) abort/);
    // Piped: each call prints one line when it ends, in the chat's words (not the tool's name and JSON).
    assert.match(output(), /● Read math\.ts · \d+ lines\n/, 'each tool call ends with its headline');
    assert.doesNotMatch(output(), /● read_file/);
    assert.match(output(), /! The agent repeated read_file/);
    input.push('1');
    await waitFor(/Finished reading\./);
    input.push('/exit');
    assert.equal(await done, 0);
    // Allowed: the 4th call really ran, so the model got the file.
    const fifth = JSON.stringify(fake.requests[4]!.body.messages);
    assert.match(fifth, /"tool_call_id":"c4","content":"[^"]*export const PI/);
  });

  it('"2" aborts the repeated call and the agent is told so', async () => {
    fake.enqueue(...repeated(4), { text: 'OK, another way.' });
    const { input, repl, waitFor } = harness(agent);
    const done = repl.run();
    input.push('read math.ts');
    await waitFor(/choice \[1-2\] › /);
    input.push('2');
    await waitFor(/OK, another way\./);
    input.end();
    assert.equal(await done, 0);
    assert.match(JSON.stringify(fake.requests[4]!.body.messages), /The user stopped the repeated read_file calls/);
  });

  it('Ctrl+C while the menu is open cancels the menu first (deny), then the turn goes on', async () => {
    fake.enqueue(...repeated(4), { text: 'Continuing without it.' });
    const { input, repl, waitFor } = harness(agent);
    const done = repl.run();
    input.push('read math.ts');
    await waitFor(/choice \[1-2\] › /);
    repl.interrupt();
    await waitFor(/\(cancelled\)/);
    await waitFor(/Continuing without it\./);
    input.end();
    assert.equal(await done, 0);
  });

  it('queues a line typed while the agent works into the running turn (inject), echoing "queued"', async () => {
    // The model answers the first request only once the second line is queued: the turn is still running then.
    let queued!: () => void;
    const lineQueued = new Promise<void>((resolve) => (queued = resolve));
    const turns: ScriptedTurn[] = [{ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'Both done.' }];
    fake.setResponder(async () => {
      if (turns.length === 2) await lineQueued;
      return turns.shift() ?? { text: 'done' };
    });
    const { input, repl, waitFor } = harness(agent, { typeAhead: 'inject' });
    const done = repl.run();
    input.push('read math.ts');
    await waitFor(/read math\.ts\n/);
    input.push('also check the tests');
    await waitFor(/queued: also check the tests/);
    queued();
    await waitFor(/Both done\./);
    input.end();
    assert.equal(await done, 0);
    assert.match(JSON.stringify(fake.requests[1]!.body.messages), /also check the tests/);
  });

  it('saves the session after each turn and /clear starts a new one', async () => {
    const store = new SessionStore({ home: mkdtempSync(join(tmpdir(), 'opendev-repl-')) });
    const recorder = new SessionRecorder(store, workspace);
    fake.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    const { input, repl, waitFor } = harness(agent, { recorder });
    const done = repl.run();
    input.push('first question');
    await waitFor(/First answer\./);
    await waitFor(/› $/);
    const firstId = recorder.id;
    assert.match(firstId ?? '', /^[a-z0-9]{8}$/);
    input.push('/clear');
    await waitFor(/New conversation\. The previous conversation is saved as session/);
    input.push('second question');
    await waitFor(/Second answer\./);
    input.push('/sessions');
    await waitFor(/Sessions in this project/);
    input.end();
    await done;
    const sessions = await store.list(workspace);
    assert.equal(sessions.length, 2);
    assert.notEqual(recorder.id, firstId);
    assert.equal(lastUserText(fake.requests[1]!), 'second question');
    assert.equal(fake.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'user').length, 1, 'the cleared conversation is not sent');
  });
});

describe('ReplSession with a stand-in agent', () => {
  function standIn(run: (text: string, ui: UICallback, interrupted: Promise<void>) => Promise<TurnResult>) {
    let stop: () => void = () => {};
    const stand = {
      mode: 'normal' as const,
      setMode() {},
      thinkingLevel: 'off' as const,
      setThinkingLevel() {},
      messages: [],
      clear() {},
      todos: () => [],
      cost: () => undefined,
      subagentTypes: () => [],
      toolNames: () => [],
      running: false,
      prompts: [] as string[],
      inject: () => false,
      interrupt: () => {
        stop();
        return 'interrupted' as const;
      },
      async runTurn(text: string, ui: UICallback) {
        stand.prompts.push(text);
        stand.running = true;
        try {
          return await run(text, ui, new Promise<void>((r) => (stop = r)));
        } finally {
          stand.running = false;
        }
      },
    };
    return stand;
  }
  const usage = { promptTokens: 0, cachedTokens: 0, outputTokens: 0 };

  it('Ctrl+C stops a running turn; twice at the prompt quits', async () => {
    const agent = standIn(async (_t, ui, interrupted) => {
      ui.onTextDelta('working…');
      await interrupted;
      return { status: 'stopped', text: '', usage, iterations: 1 };
    });
    const { input, repl, waitFor, output } = harness(agent);
    const done = repl.run();
    input.push('long task');
    await waitFor(/working…/);
    repl.interrupt();
    await waitFor(/\(stopped\)/);
    await waitFor(/› $/);
    repl.interrupt();
    await waitFor(/press Ctrl\+C again to exit/);
    repl.interrupt();
    assert.equal(await done, 0);
    assert.match(output(), /\(stopping…\)/);
  });

  it('piped input (queue mode) runs lines in order after the turn, and prints a final answer that was not streamed', async () => {
    const agent = standIn(async (text) => ({ status: 'completed', taskStatus: 'success', text: `summary of ${text}`, usage, iterations: 1 }));
    const { input, repl, output } = harness(agent, { typeAhead: 'queue' });
    input.push('one', 'two', '/thinking', 'three');
    input.end();
    assert.equal(await repl.run(), 0);
    assert.deepEqual(agent.prompts, ['one', 'two', 'three']);
    assert.match(output(), /summary of one[\s\S]*summary of two[\s\S]*Thinking: off\.[\s\S]*summary of three/);
  });

  it('reports an unknown command in red text without calling the agent', async () => {
    const agent = standIn(async () => ({ status: 'completed', text: 'x', usage, iterations: 1 }));
    const { input, repl, output } = harness(agent);
    input.push('/nope');
    input.end();
    await repl.run();
    assert.match(output(), /Unknown command \/nope/);
    assert.deepEqual(agent.prompts, []);
  });

  it('the host may put another agent in place before a line runs and after /clear; the status hears of each turn', async () => {
    const answer = (name: string) => async (text: string): Promise<TurnResult> => ({ status: 'completed', text: `${name}: ${text}`, usage, iterations: 1 });
    const first = standIn(answer('first'));
    const rebuilt = standIn(answer('rebuilt'));
    const fresh = standIn(answer('fresh'));
    const asked: string[] = [];
    const statuses: Array<boolean | undefined> = [];
    let settingsChanged = false;
    const { input, repl, waitFor, output } = harness(first, {
      typeAhead: 'queue',
      nextAgent: async (reason, current) => {
        asked.push(`${reason}:${current === first ? 'first' : current === rebuilt ? 'rebuilt' : 'fresh'}`);
        if (reason === 'clear') return { agent: fresh };
        if (!settingsChanged) return undefined;
        settingsChanged = false; // rebuilt once, as a host does after a settings change
        return { agent: rebuilt, models: [{ role: 'action', provider: 'OpenAI', model: 'rebuilt-model' }] };
      },
      onStatus: (change) => statuses.push(change.busy),
    });
    const done = repl.run();
    input.push('one');
    await waitFor(/first: one/);
    settingsChanged = true;
    input.push('two');
    await waitFor(/rebuilt: two/);
    input.push('/models');
    await waitFor(/rebuilt-model/);
    input.push('/clear');
    input.push('three');
    await waitFor(/fresh: three/);
    input.end();
    await done;
    assert.deepEqual([first.prompts, rebuilt.prompts, fresh.prompts], [['one'], ['two'], ['three']]);
    assert.deepEqual(asked, ['line:first', 'line:first', 'line:rebuilt', 'line:rebuilt', 'clear:rebuilt', 'line:fresh']);
    assert.deepEqual(statuses.filter((b) => b !== undefined), [true, false, true, false, true, false], 'busy and idle around each turn');
    assert.doesNotMatch(output(), /Error/);
  });
});
