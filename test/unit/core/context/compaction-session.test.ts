import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { Agent } from '../../../../src/core/agent/agent';
import type { ResolvedRoleModel } from '../../../../src/core/llm/role-resolver';
import { type CompactionEvent, StagedCompactor } from '../../../../src/core/context/compaction/staged-compactor';
import { unknownModelCapabilities } from '../../../../src/core/llm/capabilities/model-capabilities';
import { createProvider } from '../../../../src/core/llm/create-provider';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool } from '../../../../src/core/tools/tool';
import { FakeProvider } from '../../../fixtures/fake-provider';

/** A read-only tool returning a large, realistic file body. */
const bigRead: Tool = (() => {
  const schema = z.object({ path: z.string() });
  const tool: Tool<typeof schema> = {
    name: 'read_file',
    category: 'meta',
    readOnly: true,
    schema,
    async run(args) {
      const lines = Array.from({ length: 120 }, (_, i) => `${String(i + 1).padStart(5)}\texport const v${i} = compute(${i}); // ${args.path}`);
      return { ok: true, output: lines.join('\n'), summary: `✓ Read ${args.path} (120 lines)` };
    },
  };
  return tool;
})();

/** The executor wired to the compactor through `compaction: compactor.hook`, on the fake provider. */
describe('StagedCompactor in a session (fake provider, OpenAI wire)', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());

  it('keeps a 30-call session with large reads under a small window, masking before pruning, with a valid structure', async () => {
    const window = 30_000;
    const events: CompactionEvent[] = [];
    const compactor = new StagedCompactor({ onEvent: (e) => events.push(e) });
    const action: ResolvedRoleModel = {
      provider: createProvider({ provider: 'openai', model: 'fake-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl }),
      model: 'fake-model',
      capabilities: { ...unknownModelCapabilities(), contextWindow: window },
    };
    const registry = new ToolRegistry();
    registry.register(bigRead);
    const agent = new Agent({
      identity: { name: 'main', isSubagent: false },
      workspaceRoot: process.cwd(),
      model: {
        roles: { forRole: () => action },
        systemPrompt: { stable: 'You are a test agent.', dynamic: 'Workspace: /tmp' },
        promptVars: { WORKSPACE_ROOT: process.cwd() },
        maxIterations: 40,
        thinkingLevel: 'off',
      },
      tools: {
        registry,
        todos: { list: () => [], hasOpen: () => false },
      },
      context: { compaction: compactor.hook },
    });
    const calls = 30;
    fake.enqueue(
      ...Array.from({ length: calls }, (_, i) => ({ toolCalls: [{ id: `r${i}`, name: 'read_file', arguments: { path: `src/file${i}.ts` } }] })),
      { text: 'Read them all.' },
    );
    const ui = { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };
    const result = await agent.runTurn('read thirty files', ui);
    assert.equal(result.status, 'completed');

    // Uncompacted, the reads alone would be about twice the window.
    const readTokens = Math.ceil((await bigRead.run({ path: 'src/file0.ts' }, undefined as never)).output.length / 4);
    assert.ok(calls * readTokens > 1.5 * window);
    const sizes = fake.requests.map((r) => Math.ceil(JSON.stringify(r.body).length / 4));
    assert.ok(Math.max(...sizes) < window, `every request under the window: ${sizes.join(', ')}`);
    const stages = events.map((e) => e.stage);
    assert.ok(stages.includes('mask'), stages.join(','));
    const firstMask = stages.indexOf('mask');
    for (const later of ['prune', 'aggressive_mask'] as const) {
      if (stages.includes(later)) assert.ok(stages.indexOf(later) > firstMask, stages.join(','));
    }
    // Every request the provider saw pairs each tool call with its result.
    for (const req of fake.requests) {
      const messages = req.body.messages as Array<{ role: string; tool_calls?: { id: string }[]; tool_call_id?: string }>;
      const called = messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
      const answered = messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
      assert.deepEqual(answered, called);
    }
    const last = fake.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    assert.ok(last.some((m) => m.role === 'tool' && m.content.startsWith('[output of read_file masked: ')));
  });

  it('calibrates the first reading of the next turn by the size the API reported last, and not after /clear', async () => {
    fake.reset();
    const readings: number[] = [];
    const compactor = new StagedCompactor({ onPressure: (info) => readings.push(info.pressure) });
    const action: ResolvedRoleModel = {
      provider: createProvider({ provider: 'openai', model: 'fake-model', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl }),
      model: 'fake-model',
      capabilities: { ...unknownModelCapabilities(), contextWindow: 100_000 },
    };
    const agent = new Agent({
      identity: { name: 'main', isSubagent: false },
      workspaceRoot: process.cwd(),
      model: {
        roles: { forRole: () => action },
        systemPrompt: { stable: 'You are a test agent.', dynamic: '' },
        promptVars: {},
        maxIterations: 5,
        thinkingLevel: 'off',
      },
      tools: {
        registry: new ToolRegistry(),
        todos: { list: () => [], hasOpen: () => false },
      },
      context: { compaction: compactor.hook },
    });
    const ui = { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };
    // A one-call turn: the reported 42,000 tokens (system prompt and tools included) reach the next reading.
    fake.enqueue({ text: 'Hi.', usage: { promptTokens: 42_000 } }, { text: 'Again.' }, { text: 'Fresh.' });
    await agent.runTurn('hello', ui);
    await agent.runTurn('hello again', ui);
    assert.ok(readings[0]! < 0.01, `the very first reading is a local estimate: ${readings[0]}`);
    assert.ok(readings[1]! >= 0.42, `the next turn starts from the reported size: ${readings[1]}`);
    agent.clear();
    await agent.runTurn('new topic', ui);
    assert.ok(readings[2]! < 0.01, `after /clear the old report no longer applies: ${readings[2]}`);
  });
});
