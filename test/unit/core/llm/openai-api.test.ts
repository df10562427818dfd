import * as assert from 'node:assert/strict';
import { chooseOpenAiApi, openAiApiTraits } from '../../../../src/core/llm/capabilities/openai-api';

describe('which OpenAI API a model prefers', () => {
  it('reasoning models (o-series, gpt-5, codex) prefer the Responses API and reason', () => {
    for (const model of ['o1', 'o3', 'o3-mini', 'o4-mini', 'O3', 'gpt-5', 'gpt-5-mini', 'gpt-5.1', 'gpt-5-codex', 'codex-mini-latest', 'openai/gpt-5', 'ft:o4-mini:org::abc']) {
      assert.deepEqual(openAiApiTraits(model), { prefersResponses: true, reasoning: true }, model);
    }
  });

  it('the gpt-5 chat snapshots prefer Responses but take no reasoning options; the rest stay on Chat Completions', () => {
    assert.deepEqual(openAiApiTraits('gpt-5-chat-latest'), { prefersResponses: true, reasoning: false });
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-nano', 'llama3.1', 'omni-moderation-latest']) {
      assert.deepEqual(openAiApiTraits(model), { prefersResponses: false, reasoning: false }, model);
    }
  });

  it('auto (or unset) follows the model; chat and responses override it', () => {
    assert.equal(chooseOpenAiApi(undefined, 'o3'), 'responses');
    assert.equal(chooseOpenAiApi('auto', 'gpt-4o'), 'chat');
    assert.equal(chooseOpenAiApi('chat', 'gpt-5'), 'chat');
    assert.equal(chooseOpenAiApi('responses', 'gpt-4o'), 'responses');
  });
});
