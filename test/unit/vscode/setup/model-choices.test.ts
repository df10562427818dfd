import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CapabilityCatalog } from '../../../../src/core/llm/capabilities/catalog';
import { ProviderError } from '../../../../src/core/llm/provider-error';
import { ServerModelDirectory } from '../../../../src/core/llm/server-models/server-model-directory';
import { CUSTOM_MODEL_LABEL, describeCapabilities, modelChoices, serverModelChoices, tokens } from '../../../../src/vscode/setup/model-choices';
import { FakeProvider } from '../../../fixtures/fake-provider';

const catalog = new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home: mkdtempSync(join(tmpdir(), 'opendev-home-')) });

describe('Select Model choices', () => {
  it('lists the provider\'s models with context size and price per million tokens, the current one marked, a custom entry last', () => {
    const rows = modelChoices(catalog.list('openai'), { id: 'gpt-4.1', capabilities: catalog.get('openai', 'gpt-4.1') });
    const gpt41 = rows.find((r) => r.label === 'gpt-4.1')!;
    assert.equal(gpt41.current, true);
    assert.equal(gpt41.description, 'GPT-4.1 · current');
    assert.equal(gpt41.detail, '1M-token context · $2.00 in / $8.00 out per 1M tokens · vision');
    const nano = rows.find((r) => r.label === 'gpt-5-nano')!;
    assert.equal(nano.detail, '400k-token context · $0.05 in / $0.40 out per 1M tokens · vision · reasoning');
    assert.equal(rows.filter((r) => r.current).length, 1);
    assert.deepEqual(rows.at(-1), { label: CUSTOM_MODEL_LABEL, detail: rows.at(-1)!.detail, model: undefined });
  });

  it('a current model the catalogue does not list comes first, saying what is assumed', () => {
    const rows = modelChoices(catalog.list('openai-compatible'), { id: 'llama3.1', capabilities: catalog.get('openai-compatible', 'llama3.1') });
    assert.deepEqual(rows.map((r) => r.label), ['llama3.1', CUSTOM_MODEL_LABEL]);
    assert.match(rows[0]!.detail, /Not in the model catalogue: assumes a 128k-token context \(set opendev\.contextWindow\)/);
  });

  it('formats sizes and cheap prices readably', () => {
    assert.deepEqual([tokens(1_047_576), tokens(200_000), tokens(131_072), tokens(900)], ['1M', '200k', '131k', '900']);
    assert.match(describeCapabilities({ contextWindow: 64_000, maxOutputTokens: 1, vision: false, reasoning: false, toolCalls: true, known: true, pricing: { inputPerMTok: 0.025, outputPerMTok: 0.1 } }), /\$0\.025 in \/ \$0\.10 out/);
    assert.match(describeCapabilities({ contextWindow: 64_000, maxOutputTokens: 1, vision: false, reasoning: false, toolCalls: true, known: true }), /64k-token context · price unknown$/);
  });

  describe('of an OpenAI-compatible server', () => {
    const fake = new FakeProvider();
    before(() => fake.start());
    after(() => fake.stop());

    it('lists the server\'s models with what it says of them, flags the ones without tool calling, then refresh and custom entries', async () => {
      fake.servedModels = ['qwen3:8b', 'gemma3:4b'];
      fake.ollama = { 'qwen3:8b': { arch: 'qwen3', contextLength: 40_960 }, 'gemma3:4b': { arch: 'gemma3', contextLength: 131_072, capabilities: ['completion', 'vision'] } };
      const own = new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home: mkdtempSync(join(tmpdir(), 'opendev-home-')) });
      const listing = await new ServerModelDirectory(own).list({ baseUrl: fake.openaiBaseUrl });
      const rows = serverModelChoices(listing, { id: 'qwen3:8b', capabilities: own.get('openai-compatible', 'qwen3:8b', fake.openaiBaseUrl) });
      assert.deepEqual(rows.map((r) => r.model ?? (r.refresh ? 'refresh' : 'custom')), ['gemma3:4b', 'qwen3:8b', 'refresh', 'custom']);
      const [gemma, qwen] = rows;
      assert.equal(gemma!.noTools, true);
      assert.equal(gemma!.description, '$(warning) no tool calling');
      assert.match(gemma!.detail, /^Cannot call tools: the agent cannot edit files or run commands with it\. 131k-token context \(from the server\) · price unknown · vision$/);
      assert.equal(qwen!.current, true);
      assert.equal(qwen!.noTools, undefined);
      assert.equal(qwen!.detail, '41k-token context (from the server) · price unknown');
      assert.match(rows[2]!.detail, new RegExp(`^Ask ${fake.openaiBaseUrl.replace(/[.]/g, '\\.')} for its models again`));
    });

    it('a server that did not answer is one row that asks again; the current model stays listed', () => {
      const error = new ProviderError('unreachable', 'Cannot reach the model server at http://127.0.0.1:9/v1: connect ECONNREFUSED.');
      const rows = serverModelChoices({ ok: false, baseUrl: 'http://127.0.0.1:9/v1', error }, { id: 'llama3.1', capabilities: catalog.get('openai-compatible', 'llama3.1') });
      assert.deepEqual(rows.map((r) => r.label), ['llama3.1', '$(warning) The server did not answer', CUSTOM_MODEL_LABEL]);
      assert.equal(rows[1]!.refresh, true);
      assert.equal(rows[1]!.detail, 'Cannot reach the model server at http://127.0.0.1:9/v1: connect ECONNREFUSED. Choose this to ask again.');
    });
  });
});
