import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatEntry } from '../../src/shared/protocol';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { FakeProvider, lastUserText } from '../fixtures/fake-provider';
import { keystrokes, waitForScreen } from '../helpers/terminal-screen';
import { clearSettings, config, fakeProviderSuite, until, useSettings } from './support';

const kinds = (api: OpenDevApi) => api.transcript().map((e) => e.kind).join(',');
const text = (entry: ChatEntry | undefined) => (entry && 'text' in entry ? String(entry.text) : '');

/**
 * A first run in a real VS Code: no key in Secret Storage yet. The chat opens on the setup card, a
 * question asked meanwhile runs once the key is saved (set through the Set API Key command the card's
 * button runs), the commands that need no model work without a key in the chat and the agent terminal,
 * and an OpenAI-compatible provider without its address is told, naming the setting.
 */
describe('first run in VS Code', () => {
  const suite = fakeProviderSuite({}, { eachTest: true });
  const { fake } = suite;
  let api: OpenDevApi;
  before(() => (api = suite.api));
  beforeEach(async () => {
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', ''); // forget the key
    api.newChat();
  });
  after(() => vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration'));

  it('shows the setup card as the empty chat, and runs the waiting question once the key is saved', async () => {
    await until(() => kinds(api) === 'setup', 'the empty chat to show the setup card');
    assert.match(text(api.transcript()[0]), /needs an API key for OpenAI/);

    assert.equal(await api.send('what does math.ts export?'), undefined);
    assert.equal(kinds(api), 'user,setup', 'one card, under the question that waits for it');
    assert.match(text(api.transcript()[1]), /Your message is sent as soon as this is done\./);
    assert.equal(fake.requests.length, 0);

    fake.enqueue({ text: 'It exports PI, add and subtract.' });
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    await until(() => kinds(api) === 'user,assistant', 'the waiting question to be answered, the card gone');
    assert.equal(text(api.transcript()[1]), 'It exports PI, add and subtract.');
    assert.equal(lastUserText(fake.requests[0]!), 'what does math.ts export?');
    assert.equal(fake.requests[0]!.headers.authorization, 'Bearer sk-integration');
  });

  it('runs /help without a key, in the chat and in the agent terminal', async () => {
    await until(() => kinds(api) === 'setup', 'the setup card');
    await api.send('/help');
    const help = api.transcript().at(-1);
    assert.equal(help?.kind === 'notice' && help.command, '/help');
    assert.match(text(help), /Commands \(handled without the model\)/);

    const id = await vscode.commands.executeCommand<string | undefined>('opendev.openTerminal');
    assert.ok(id, 'the command opened a terminal');
    try {
      const screen = () => api.agentTerminals.screen(id);
      await waitForScreen(screen, /needs an API key for OpenAI[\s\S]*› $/);
      for (const key of keystrokes('/help\r')) api.agentTerminals.input(id, key);
      await waitForScreen(screen, /Commands \(handled without the model\)[\s\S]*› $/);
      assert.equal(fake.requests.length, 0);
    } finally {
      api.agentTerminals.terminal(id)?.dispose();
      await api.agentTerminals.closed(id);
    }
  });

  it('offers a local model server that answers on its port, and one click makes it the provider with its model', async () => {
    // The probed addresses are a test seam (OPENDEV_LOCAL_SERVERS): the "Ollama" here is a second fake on a free port.
    const ollama = new FakeProvider();
    await ollama.start();
    ollama.servedModels = ['all-minilm', 'llama3.1:8b'];
    ollama.ollama = { 'all-minilm': { capabilities: ['embedding'] }, 'llama3.1:8b': { contextLength: 131_072 } };
    process.env.OPENDEV_LOCAL_SERVERS = `Ollama=${ollama.openaiBaseUrl}`;
    try {
      api.newChat();
      const offersOf = (e: ChatEntry | undefined) => (e?.kind === 'setup' ? (e.offers ?? []) : []);
      await until(() => offersOf(api.transcript()[0]).length > 0, 'the setup card to offer the local server');
      const [offer] = offersOf(api.transcript()[0]);
      assert.equal(offer!.label, 'Use Ollama (llama3.1:8b)', 'the model that calls tools, not the embedding one');
      assert.match(offer!.detail, new RegExp(`answers at ${ollama.openaiBaseUrl.replace(/[.]/g, '\\.')}`));
      assert.match(text(api.transcript()[0]), /needs an API key for OpenAI/, 'the key setup is still there');

      // The card's button, as the webview sends it.
      api.fromView({ type: 'action', action: 'useOffer', offer: offer!.id });
      await until(() => config().get('provider') === 'openai-compatible' && config().get('baseUrl') === ollama.openaiBaseUrl && config().get('model') === 'llama3.1:8b', 'the offer to set provider, address and model');
      await until(() => kinds(api) === '', 'the setup card to go');
      ollama.enqueue({ text: 'Hello from the local model.' });
      await api.send('hello');
      assert.equal(text(api.transcript().at(-1)), 'Hello from the local model.');
      assert.equal(ollama.requests[0]?.body.model, 'llama3.1:8b');
      assert.equal(fake.requests.length, 0);
    } finally {
      delete process.env.OPENDEV_LOCAL_SERVERS;
      await useSettings({ provider: 'openai', baseUrl: fake.openaiBaseUrl });
      await clearSettings(['model']);
      await ollama.stop();
    }
  });

  it('names opendev.baseUrl when an OpenAI-compatible provider has no address, and sends nothing', async () => {
    await clearSettings(['baseUrl']);
    await useSettings({ provider: 'openai-compatible' });
    api.newChat();
    await until(() => /opendev\.baseUrl/.test(text(api.transcript()[0])), 'the empty chat to say the address is missing');
    assert.equal(api.transcript()[0]?.kind, 'error');
    await api.send('hello');
    assert.equal(kinds(api), 'user,error');
    assert.equal(fake.requests.length, 0);
  });
});
