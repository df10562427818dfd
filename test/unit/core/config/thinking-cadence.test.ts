// When the separate thinking call runs, as a user pays for it: every request the provider receives,
// told apart by the purpose the agent gives its call (the observer of createMainAgent).
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import type { MainAgentOptions } from '../../../../src/core/agent/main-agent-options';
import type { CallPurpose } from '../../../../src/core/llm/call-purpose';
import type { UICallback } from '../../../../src/core/ui';
import { FakeProvider, type ScriptedToolCall, type ScriptedTurn } from '../../../fixtures/fake-provider';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');

const read = (file_path: string): ScriptedTurn => ({ toolCalls: [{ name: 'read_file', arguments: { file_path } }] });
const call = (name: string, args: ScriptedToolCall['arguments']): ScriptedTurn => ({ toolCalls: [{ name, arguments: args }] });
const MULTIPLY = 'export function multiply(a: number, b: number): number {\n  return a * b;\n}\n';

const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, requestApproval: async () => ({ action: 'allow' }) };

describe('thinking cadence: which steps make the thinking call', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let workspace: string;
  let purposes: CallPurpose[];
  /** Action calls take `steps` in order; every other call (no tools) is a thinking call here. */
  const script = (steps: ScriptedTurn[]) => fake.setResponder((req) => (Array.isArray(req.body?.tools) && req.body.tools.length > 0 ? steps.shift() ?? { text: 'Done.' } : { text: 'Look at math.ts first.' }));
  const agent = (options: Partial<MainAgentOptions> = {}) =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home: mkdtempSync(join(tmpdir(), 'opendev-cadence-home-')),
      thinkingLevel: 'medium',
      undo: false,
      mcp: false,
      onModelCall: (c) => purposes.push(c.purpose!),
      ...options,
    });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    purposes = [];
    workspace = mkdtempSync(join(tmpdir(), 'opendev-cadence-ws-'));
    cpSync(fixtureWorkspace, workspace, { recursive: true });
  });

  it('by default a message answered in words costs one request: no thinking call', async () => {
    const a = await agent();
    script([{ text: 'Hello! What shall we work on?' }]);
    assert.equal((await a.runTurn('hello', ui)).text, 'Hello! What shall we work on?');
    await a.dispose();
    assert.deepEqual(purposes, ['action']);
    assert.equal(fake.requests.length, 1);
  });

  it('by default a read-then-edit task thinks once, after its first results; the plain steps after it do not', async () => {
    const a = await agent();
    script([read('math.ts'), call('edit_file', { file_path: 'math.ts', old_content: 'export const PI = 3.14159;\n', new_content: `export const PI = 3.14159;\n\n${MULTIPLY}` }), { text: 'Added multiply to math.ts.' }]);
    assert.equal((await a.runTurn('add a multiply function to math.ts', ui)).status, 'completed');
    await a.dispose();
    assert.deepEqual(purposes, ['action', 'thinking', 'action', 'action']);
    assert.equal(fake.requests.length, 4);
    assert.match(readFileSync(join(workspace, 'math.ts'), 'utf8'), /export function multiply/);
    assert.match(JSON.stringify(fake.requests[2]!.body.messages), /Look at math\.ts first\./, 'the trace guides the next action call');
  });

  it('by default a failed step is followed by a thinking call, and a step that went well is not', async () => {
    const a = await agent();
    script([read('math.ts'), read('missing.ts'), read('README.md'), { text: 'There is no missing.ts; math.ts and the README are read.' }]);
    await a.runTurn('read math.ts, missing.ts and the README', ui);
    await a.dispose();
    // read math.ts → plan; missing.ts fails → rethink; README reads fine → the answer without one.
    assert.deepEqual(purposes, ['action', 'thinking', 'action', 'thinking', 'action', 'action']);
  });

  it('by default an agent sent on when it means to finish (a nudge after a failed tool) thinks first', async () => {
    const a = await agent();
    script([read('missing.ts'), { text: 'Done.' }, { text: 'missing.ts does not exist; nothing to read.' }]);
    await a.runTurn('read missing.ts', ui);
    await a.dispose();
    // The failed first round, then the nudge on the answer that ignored it: each is followed by thinking.
    assert.deepEqual(purposes, ['action', 'thinking', 'action', 'thinking', 'action']);
  });

  it('every-step (the paper’s loop, by setting) thinks before every action call; at high with a critique and a refinement', async () => {
    const every = await agent({ thinkingCadence: 'every-step' });
    script([read('math.ts'), { text: 'math.ts exports PI, add and subtract.' }]);
    await every.runTurn('what does math.ts export?', ui);
    await every.dispose();
    assert.deepEqual(purposes, ['thinking', 'action', 'thinking', 'action']);

    purposes = [];
    fake.reset();
    const high = await agent({ thinkingCadence: 'every-step', thinkingLevel: 'high' });
    script([{ text: 'Hello.' }]);
    await high.runTurn('hello', ui);
    await high.dispose();
    assert.deepEqual(purposes, ['thinking', 'critique', 'refinement', 'action']);
  });

  it('at high with the default cadence, the critique runs only where thinking does', async () => {
    const a = await agent({ thinkingLevel: 'high' });
    script([{ text: 'Hello.' }]);
    await a.runTurn('hello', ui);
    script([read('math.ts'), { text: 'It has add.' }]);
    await a.runTurn('does math.ts have add?', ui);
    await a.dispose();
    assert.deepEqual(purposes, ['action', 'action', 'thinking', 'critique', 'refinement', 'action']);
  });
});
