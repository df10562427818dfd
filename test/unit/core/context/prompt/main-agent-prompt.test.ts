import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../../src/core/agent/create-agent';
import type { ThinkingCadence } from '../../../../../src/core/config/thinking-cadence';
import type { ThinkingLevel } from '../../../../../src/core/config/thinking-level';
import { silentUI } from '../../../../../src/core/ui';
import { FakeProvider, type RecordedRequest } from '../../../../fixtures/fake-provider';

/** What the main agent really sends: the composed system prompt, through each official SDK. */
describe('the main agent sends the composed system prompt', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-prompt-'));
    writeFileSync(join(workspace, 'OPENDEV.md'), 'Use pnpm, never npm.\n');
  });

  async function oneTurn(provider: 'openai' | 'anthropic', thinkingLevel: ThinkingLevel = 'off', thinkingCadence?: ThinkingCadence): Promise<RecordedRequest[]> {
    const agent = await createMainAgent({
      roles: { action: { provider, model: 'fake-model', apiKey: 'k', baseUrl: provider === 'openai' ? fake.openaiBaseUrl : fake.anthropicBaseUrl } },
      workspaceRoot: workspace,
      home: join(workspace, '.home'),
      sessionId: 'feedbeef',
      thinkingLevel,
      thinkingCadence,
    });
    try {
      const result = await agent.runTurn('hello', silentUI);
      assert.equal(result.status, 'completed');
    } finally {
      agent.dispose();
    }
    return fake.requests;
  }

  it('OpenAI: one system message with the sections, the environment, the session and OPENDEV.md', async () => {
    fake.enqueue({ text: 'Hi.' });
    const [request] = await oneTurn('openai');
    const system: string = request!.body.messages.find((m: { role: string }) => m.role === 'system').content;
    assert.match(system, /^You are OpenDev/);
    assert.match(system, /## Read before you edit\nRead a file before changing it/);
    assert.match(system, /## Tool calls\nCall tools only through function calling/, 'the OpenAI section');
    assert.match(system, /Workspace root: `[^`]+`\nPlatform: /);
    assert.match(system, /Session feedbeef\. .*scratch[\\/]feedbeef/s);
    assert.match(system, /<instructions source="OPENDEV.md">\nUse pnpm, never npm\.\n<\/instructions>/);
  });

  it('Anthropic: the cached block holds the stable sections; OPENDEV.md and the session follow uncached', async () => {
    mkdirSync(join(workspace, '.git'));
    fake.enqueue({ text: 'Hi.' });
    const [request] = await oneTurn('anthropic');
    const [stable, dynamic] = request!.body.system as Array<{ text: string; cache_control?: unknown }>;
    assert.deepEqual(stable!.cache_control, { type: 'ephemeral' });
    assert.match(stable!.text, /## Git\n/, 'the workspace is now a git repository');
    assert.match(stable!.text, /reads your text as it streams/, 'the Anthropic section');
    assert.doesNotMatch(stable!.text, /pnpm|feedbeef/);
    assert.equal(dynamic!.cache_control, undefined);
    assert.match(dynamic!.text, /Use pnpm, never npm\./);
    assert.match(dynamic!.text, /Session feedbeef\./);
  });

  it('the thinking phase gets the composed thinking sections with its word limit', async () => {
    fake.enqueue({ text: 'The user greets; answer briefly.' }, { text: 'Hi.' });
    // Thinking before every step (the paper's loop, by setting), so that a greeting thinks too.
    const [thinking] = await oneTurn('openai', 'low', 'every-step');
    const system: string = thinking!.body.messages.find((m: { role: string }) => m.role === 'system').content;
    assert.match(system, /^You are the reasoning step/);
    assert.match(system, /spawn_subagent \(types: Code-Explorer, Planner,/);
    assert.match(system, /at most 60 words/);
  });
});
