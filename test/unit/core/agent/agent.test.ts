import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import type { ProviderKind } from '../../../../src/core/config/provider-settings';
import type { ToolResult } from '../../../../src/core/tools/tool';
import type { UICallback } from '../../../../src/core/ui';
import { FakeProvider, toolResults } from '../../../fixtures/fake-provider';

const fixtureWorkspace = join(__dirname, '../../../../../test/fixtures/workspace');

/** Records what a front end would see. */
function recordingUI() {
  const seen = { deltas: [] as string[], tools: [] as Array<{ name: string; args: string; result?: ToolResult }> };
  const ui: UICallback = {
    onTextDelta: (d) => seen.deltas.push(d),
    onToolStart: (c) => seen.tools.push({ name: c.name, args: c.args }),
    onToolEnd: (c, result) => {
      const t = seen.tools.find((x) => x.name === c.name && !x.result);
      if (t) t.result = result;
    },
  };
  return { ui, seen };
}

for (const provider of ['openai', 'anthropic'] as ProviderKind[]) {
  describe(`Agent through the real ${provider} SDK`, () => {
    const fake = new FakeProvider();
    let workspace: string;
    const agent = () =>
      createMainAgent({
        roles: { action: { provider, model: 'fake-model', apiKey: 'test-key', baseUrl: provider === 'openai' ? fake.openaiBaseUrl : fake.anthropicBaseUrl } },
        workspaceRoot: workspace,
      });

    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => {
      fake.reset();
      workspace = mkdtempSync(join(tmpdir(), 'opendev-agent-'));
      cpSync(fixtureWorkspace, workspace, { recursive: true });
    });

    it('answers "what does math.ts export?" by reading the file, streaming the answer', async () => {
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
        { text: 'math.ts exports `PI`, `add` and `subtract`.' },
      );
      const { ui, seen } = recordingUI();
      const result = await (await agent()).runTurn('what does math.ts export?', ui, new AbortController().signal);

      assert.equal(result.status, 'completed');
      assert.equal(result.text, 'math.ts exports `PI`, `add` and `subtract`.');
      assert.ok(seen.deltas.length >= 2, 'the answer streams in several deltas');
      assert.equal(seen.tools[0]?.name, 'read_file');
      assert.equal(seen.tools[0]?.result?.ok, true);

      assert.equal(fake.requests.length, 2);
      const first = fake.requests[0]!.body;
      assert.ok(first.tools.some((t: { name?: string; function?: { name: string } }) => (t.name ?? t.function?.name) === 'read_file'));
      const [result1] = toolResults(fake.requests[1]!);
      assert.match(result1!.content, /export function add/);
      assert.ok(result.usage.promptTokens > 0);
    });

    it('gives the model a fixable error for malformed tool arguments, then finishes', async () => {
      fake.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: '{"file_path": "math.ts"' }] },
        { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
        { text: 'Fixed it.' },
      );
      const result = await (await agent()).runTurn('read math.ts', recordingUI().ui, new AbortController().signal);
      assert.equal(result.status, 'completed');
      assert.equal(result.text, 'Fixed it.');
      // The error result is followed by the error-recovery reminder, so it is no longer the last message.
      assert.match(JSON.stringify(fake.requests[1]!.body.messages), /not valid JSON.*Your last tool call failed \(read_file\)/);
      assert.match(toolResults(fake.requests[2]!)[0]!.content, /export function add/);
    });

    it('reports a provider failure clearly and stays usable for the next message', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 400, body: undefined } });
      const a = await agent();
      const failed = await a.runTurn('hello', recordingUI().ui, new AbortController().signal);
      assert.equal(failed.status, 'failed');
      if (failed.status === 'failed') {
        assert.equal(failed.error.kind, 'bad_request');
        assert.match(failed.error.message, /refused the request \(400\)/);
      }
      fake.enqueue({ text: 'Hello again.' });
      const ok = await a.runTurn('hello?', recordingUI().ui, new AbortController().signal);
      assert.equal(ok.status, 'completed');
      assert.equal(ok.text, 'Hello again.');
    });

    it('stops mid-stream when the user presses Stop', async () => {
      fake.enqueue({ text: 'a long answer that takes a while to arrive', chunkDelayMs: 300 });
      const controller = new AbortController();
      const { ui, seen } = recordingUI();
      const running = (await agent()).runTurn('tell me a story', ui, controller.signal);
      await fake.waitForRequests(1);
      setTimeout(() => controller.abort(), 350);
      const result = await running;
      assert.equal(result.status, 'stopped');
      assert.ok(seen.deltas.join('').length < 'a long answer that takes a while to arrive'.length);
    });
  });
}
