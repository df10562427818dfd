import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CapabilityCatalog } from '../../../../src/core/llm/capabilities/catalog';
import { CUSTOM_MODEL_LABEL, describeCapabilities, modelChoices, tokens } from '../../../../src/vscode/setup/model-choices';

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
});
