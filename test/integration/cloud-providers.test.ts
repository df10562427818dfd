import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatEntry } from '../../src/shared/protocol';
import { toolResults } from '../fixtures/fake-provider';
import { clearSettings, fakeProviderSuite, until, useSettings } from './support';

const text = (entry: ChatEntry | undefined) => (entry && 'text' in entry ? String(entry.text) : '');

/**
 * A cloud provider chosen in a real VS Code: Azure OpenAI in the settings (its endpoint, deployment
 * and API version) and its key stored through Set API Key (Secret Storage), a whole turn with a tool
 * call against the fake provider speaking Azure's URL shape and header.
 */
describe('cloud providers in VS Code', () => {
  const AZURE = ['azure.deployment', 'azure.apiVersion', 'model'];
  const suite = fakeProviderSuite();
  const { fake } = suite;
  after(async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'azure-openai', '');
    await clearSettings(AZURE);
  });

  it('Azure OpenAI: the setup card asks for its key; once stored, a turn goes to /openai/deployments/<name>/… with the api-key header', async () => {
    const { api } = suite;
    await vscode.commands.executeCommand('opendev.setApiKey', 'azure-openai', '');
    await useSettings({ provider: 'azure-openai', baseUrl: fake.cloudEndpoint, model: 'gpt-4.1', 'azure.deployment': 'opendev-gpt', 'azure.apiVersion': '2025-04-01-preview' });
    api.newChat();
    await until(() => /needs an API key for Azure OpenAI/.test(text(api.transcript()[0])), 'the setup card for Azure OpenAI');
    assert.equal(fake.requests.length, 0);

    await vscode.commands.executeCommand('opendev.setApiKey', 'azure-openai', 'azure-integration-key-1');
    api.newChat();
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'math.ts exports `PI`, `add` and `subtract`.' });
    const result = await api.send('what does math.ts export?');

    assert.equal(result?.status, 'completed');
    assert.deepEqual(api.transcript().map((e) => e.kind), ['user', 'tool', 'assistant']);
    assert.equal(text(api.transcript()[2]), 'math.ts exports `PI`, `add` and `subtract`.');
    assert.equal(fake.requests.length, 2);
    for (const sent of fake.requests) {
      assert.equal(sent.cloud, 'azure');
      assert.equal(sent.path, '/openai/deployments/opendev-gpt/chat/completions?api-version=2025-04-01-preview');
      assert.equal(sent.headers['api-key'], 'azure-integration-key-1', 'the key came from Secret Storage');
      assert.equal(sent.headers.authorization, undefined);
    }
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /export function subtract/);
  });
});
