import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fakeEncryptedReasoning, toolResults } from '../fixtures/fake-provider';
import { config, fakeProviderSuite, useSettings } from './support';

/**
 * OpenAI's Responses API inside a real VS Code: a reasoning model chosen in the editor's settings goes
 * through POST /v1/responses (the real openai SDK against the fake provider), its reasoning summary
 * shows as thinking in the chat, its reasoning goes back encrypted with the tool result, and
 * `opendev.openai.api` moves it back to Chat Completions without a reload.
 */
describe('OpenAI Responses API in VS Code', () => {
  const suite = fakeProviderSuite({ model: 'o3', 'openai.api': undefined }, { eachTest: true });
  const { fake } = suite;

  it('a task with a tool call through the Responses API, reasoning shown and carried to the next step', async () => {
    fake.enqueue(
      { thinking: 'I will read math.ts.', toolCalls: [{ id: 'call_math', name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { text: 'math.ts exports PI and add.' },
    );
    const result = await suite.api.send('what does math.ts export?');
    assert.equal(result?.status, 'completed');
    assert.deepEqual(fake.requests.map((r) => r.path), ['/v1/responses', '/v1/responses']);
    assert.equal(fake.requests[0]!.headers.authorization, 'Bearer sk-integration', 'the key came from SecretStorage');

    const transcript = suite.api.transcript();
    assert.deepEqual(transcript.map((e) => e.kind), ['user', 'thinking', 'tool', 'assistant']);
    const thinking = transcript[1]!;
    assert.equal(thinking.kind === 'thinking' ? thinking.text : '', 'I will read math.ts.');

    const [result1] = toolResults(fake.requests[1]!);
    assert.equal(result1?.toolCallId, 'call_math');
    assert.match(result1!.content, /export const PI/);
    const input: any[] = fake.requests[1]!.body.input;
    assert.ok(input.some((i) => i.type === 'reasoning' && i.encrypted_content === fakeEncryptedReasoning('I will read math.ts.')), 'the reasoning goes back');
    assert.match(String(fake.requests[0]!.body.prompt_cache_key), /^opendev-[a-z0-9]{8}$/);
  });

  it('opendev.openai.api = chat keeps o3 on Chat Completions, without a reload', async () => {
    await useSettings({ 'openai.api': 'chat' });
    try {
      fake.enqueue({ text: 'ok' });
      const result = await suite.api.send('hi');
      assert.equal(result?.status, 'completed');
      assert.deepEqual(fake.requests.map((r) => [r.path, r.body.model]), [['/v1/chat/completions', 'o3']]);
    } finally {
      await config().update('openai.api', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
