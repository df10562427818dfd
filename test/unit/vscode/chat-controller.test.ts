import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import type { ExtensionToWebview } from '../../../src/shared/protocol';
import { ChatController } from '../../../src/vscode/chat-controller';
import { FakeProvider } from '../../fixtures/fake-provider';

const workspace = join(__dirname, '../../../../test/fixtures/workspace');

describe('ChatController (the chat view model, without VS Code)', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const controller = () =>
    new ChatController(async () => ({
      agent: await createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: workspace }),
    }));

  it('turns a run into user, tool and streamed assistant entries, in order', async () => {
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'It exports add.' });
    const chat = controller();
    const messages: ExtensionToWebview[] = [];
    chat.onMessage((m) => messages.push(m));
    await chat.send('what does math.ts export?');

    assert.deepEqual(
      chat.transcript().map((e) => e.kind),
      ['user', 'tool', 'assistant'],
    );
    const tool = chat.transcript()[1];
    assert.equal(tool?.kind === 'tool' && tool.status, 'ok');
    assert.match(tool?.kind === 'tool' ? tool.summary ?? '' : '', /Read math\.ts/);
    assert.deepEqual(chat.transcript()[2], { kind: 'assistant', id: chat.transcript()[2]?.id, text: 'It exports add.' });
    assert.ok(messages.filter((m) => m.type === 'textDelta').length >= 2);
    assert.deepEqual(messages.filter((m) => m.type === 'busy').map((m) => m.type === 'busy' && m.busy), [true, false]);
  });

  it('shows the problem from the agent source (e.g. no key) as an error entry with its fix', async () => {
    const chat = new ChatController(async () => ({ problem: { kind: 'error', id: '', text: 'No API key is set for OpenAI.', action: 'setApiKey' } }));
    await chat.send('hi');
    await chat.send('hi again');
    const errors = chat.transcript().filter((e) => e.kind === 'error');
    assert.equal(errors.length, 2, 'each attempt gets its own entry');
    assert.notEqual(errors[0]!.id, errors[1]!.id);
    assert.equal(errors[0]!.kind === 'error' && errors[0]!.action, 'setApiKey');
    assert.equal(chat.busy, false);
  });

  it('reports a provider error in the chat and accepts the next message', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 401 } }, { text: 'Welcome back.' });
    const chat = controller();
    await chat.send('hi');
    const error = chat.transcript().at(-1);
    assert.equal(error?.kind, 'error');
    assert.match(error?.kind === 'error' ? error.text : '', /rejected the API key \(401\)/);
    assert.equal(error?.kind === 'error' && error.action, 'setApiKey');
    await chat.send('hi again');
    assert.deepEqual(chat.transcript().at(-1), { kind: 'assistant', id: chat.transcript().at(-1)?.id, text: 'Welcome back.' });
  });

  it('stop() ends a running turn with a notice; newChat() clears the transcript', async () => {
    fake.enqueue({ text: 'slow slow slow slow', chunkDelayMs: 400 });
    const chat = controller();
    const running = chat.send('go');
    await fake.waitForRequests(1);
    chat.stop();
    await running;
    assert.deepEqual(chat.transcript().at(-1), { kind: 'notice', id: chat.transcript().at(-1)?.id, text: 'Stopped.' });
    chat.newChat();
    assert.deepEqual(chat.snapshot(), { type: 'snapshot', entries: [], busy: false });
  });

  it('refuses a second message while one is running, without losing the first', async () => {
    fake.enqueue({ text: 'first answer', chunkDelayMs: 100 });
    const chat = controller();
    const first = chat.send('one');
    await chat.send('two');
    await first;
    const kinds = chat.transcript().map((e) => e.kind);
    assert.deepEqual(kinds, ['user', 'notice', 'assistant']);
  });
});
