import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { toolResults } from '../fixtures/fake-provider';
import { activateOpenDev, config, fakeProviderSuite } from './support';

/**
 * The thin slice inside a real VS Code: settings, SecretStorage and the workspace folder are the
 * editor's own; the model is the fake provider on 127.0.0.1 reached through the real openai SDK.
 */
describe('chat in VS Code', () => {
  // Thinking off: one model call per message (the default, medium, adds a thinking call before each
  // action). The tests change settings, so they are written again before each.
  const suite = fakeProviderSuite({ model: undefined }, { eachTest: true });
  const { fake } = suite;
  let api: OpenDevApi;
  before(() => (api = suite.api));

  it('answers "what does math.ts export?" by reading the workspace file through read_file', async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { text: 'math.ts exports `PI`, `add` and `subtract`.' },
    );
    const result = await api.send('what does math.ts export?');

    assert.equal(result?.status, 'completed');
    assert.deepEqual(api.transcript().map((e) => e.kind), ['user', 'tool', 'assistant']);
    const answer = api.transcript()[2];
    assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'math.ts exports `PI`, `add` and `subtract`.');
    // The tool really read the workspace folder VS Code opened.
    const [toolResult] = toolResults(fake.requests[1]!);
    assert.match(toolResult!.content, /export function subtract/);
    assert.equal(fake.requests[0]!.headers.authorization, 'Bearer sk-integration', 'the key came from SecretStorage');
    assert.equal(fake.requests[0]!.body.model, 'gpt-4.1', 'the default model of the provider');
  });

  it('edits a workspace file through edit_file after reading it, and the editor sees the change', async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'math.ts');
    const before = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
    // Approval cards are answered in the webview (e2e); here the edit itself is under test.
    await config().update('approvalLevel', 'auto', vscode.ConfigurationTarget.Global);
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'export const PI = 3.14159;', new_content: 'export const PI = Math.PI;' } }] },
      { text: 'PI now uses Math.PI.' },
    );
    try {
      const result = await api.send('use Math.PI');
      assert.equal(result?.status, 'completed');
      const after = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
      assert.equal(after, before.replace('export const PI = 3.14159;', 'export const PI = Math.PI;'));
      const doc = await vscode.workspace.openTextDocument(file);
      assert.match(doc.getText(), /export const PI = Math\.PI;/);
      const editCard = api.transcript().find((e) => e.kind === 'tool' && e.name === 'edit_file');
      assert.equal(editCard?.kind === 'tool' && editCard.status, 'ok');
    } finally {
      await vscode.workspace.fs.writeFile(file, Buffer.from(before));
      await config().update('approvalLevel', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('uses opendev.model when set, without a reload', async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    await config().update('model', 'my-model', vscode.ConfigurationTarget.Global);
    fake.enqueue({ text: 'ok' });
    await api.send('hi');
    await config().update('model', undefined, vscode.ConfigurationTarget.Global);
    assert.equal(fake.requests[0]!.body.model, 'my-model');
  });

  it('without a key shows a setup card saying which command to run, and makes no request', async () => {
    await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await api.send('hello');
    const last = api.transcript().at(-1);
    assert.equal(last?.kind, 'setup', 'a setup card, not an error');
    assert.equal(last?.kind === 'setup' && last.provider, 'anthropic');
    assert.match(last?.kind === 'setup' ? last.text : '', /needs an API key for Anthropic[\s\S]*"OpenDev: Set API Key"/);
    assert.equal(fake.requests.length, 0);
  });

  it('reports an unreachable provider in the chat and stays usable', async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    await config().update('baseUrl', 'http://127.0.0.1:9/v1', vscode.ConfigurationTarget.Global);
    const failed = await api.send('hello');
    assert.equal(failed?.status, 'failed');
    const error = api.transcript().at(-1);
    assert.match(error?.kind === 'error' ? error.text : '', /Cannot reach OpenAI at http:\/\/127\.0\.0\.1:9\/v1/);

    await config().update('baseUrl', fake.openaiBaseUrl, vscode.ConfigurationTarget.Global);
    fake.enqueue({ text: 'Back online.' });
    const ok = await api.send('hello again');
    assert.equal(ok?.status, 'completed');
  });

  it('a bad base URL setting is reported, not thrown', async () => {
    await config().update('baseUrl', 'not a url', vscode.ConfigurationTarget.Global);
    await api.send('hello');
    const last = api.transcript().at(-1);
    assert.match(last?.kind === 'error' ? last.text : '', /opendev\.baseUrl is invalid/);
  });

  it('Stop ends a running answer', async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    fake.enqueue({ text: 'a slow answer in pieces', chunkDelayMs: 500 });
    const running = api.send('go');
    await fake.waitForRequests(1);
    await vscode.commands.executeCommand('opendev.stop');
    const result = await running;
    assert.equal(result?.status, 'stopped');
    assert.equal(api.transcript().at(-1)?.kind, 'notice');
  });
});

describe('manifest in VS Code', () => {
  it('registers every palette command; Open OpenDev Terminal opens an agent tab; Undo and Compact answer in the chat instead of failing', async () => {
    const api = await activateOpenDev();
    const all = await vscode.commands.getCommands(true);
    for (const id of ['newChat', 'openTerminal', 'stop', 'undo', 'setApiKey', 'selectModel', 'showSessions', 'compact', 'switchMode', 'openPlaybook']) {
      assert.ok(all.includes(`opendev.${id}`), `opendev.${id} is registered`);
    }
    // Open OpenDev Terminal opens an agent tab (agent-terminal.test.ts drives it); closed again here.
    // (Show Sessions waits on its picker: tests/integration/sessions.)
    const terminalId = await vscode.commands.executeCommand<string>('opendev.openTerminal');
    assert.ok(api.agentTerminals.terminal(terminalId));
    api.agentTerminals.terminal(terminalId)!.dispose();
    await api.agentTerminals.closed(terminalId);
    // Undo and Compact answer in the chat (what they did, or what to set up first), never by failing.
    api.newChat();
    await vscode.commands.executeCommand('opendev.undo');
    await vscode.commands.executeCommand('opendev.compact');
    assert.ok(api.transcript().filter((e) => e.kind !== 'user').length >= 2, JSON.stringify(api.transcript()));
  });

  it('contributes the opendev.* settings with their defaults', () => {
    const c = vscode.workspace.getConfiguration('opendev');
    assert.equal(c.inspect('provider')?.defaultValue, 'openai');
    assert.equal(c.inspect('approvalLevel')?.defaultValue, 'semi-auto');
    assert.equal(c.inspect('thinkingLevel')?.defaultValue, 'medium');
    assert.equal(c.inspect('model')?.defaultValue, '');
    assert.equal(c.inspect('baseUrl')?.defaultValue, '');
  });
});
