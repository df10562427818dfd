import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import type { ChatEntryOf, ExtensionToWebview } from '../../../src/shared/protocol';
import { ChatController } from '../../../src/vscode/chat-controller';
import { builtinSlashPort } from '../../../src/vscode/slash-port';
import { FakeProvider } from '../../fixtures/fake-provider';

const workspace = join(__dirname, '../../../../test/fixtures/workspace');

/** Waits for what the chat sends the view (one generous limit for the whole wait, never a short one). */
function nextMessage(chat: ChatController, match: (m: ExtensionToWebview) => boolean, what: string): Promise<ExtensionToWebview> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 60_000);
    const sub = chat.onMessage((m) => {
      if (!match(m)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(m);
    });
  });
}

const retryUpsert = (m: ExtensionToWebview): m is Extract<ExtensionToWebview, { type: 'upsert' }> & { entry: ChatEntryOf<'retry'> } =>
  m.type === 'upsert' && m.entry.kind === 'retry';

/** The chat's provider retries and failed turns, against the fake provider through the real SDK. */
describe('chat: the retry line and Retry on a failed turn', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const controller = () =>
    new ChatController(
      async () => ({
        agent: await createMainAgent({ roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: workspace }),
      }),
      { slash: builtinSlashPort() },
    );

  it('consecutive retries are one line (the same entry updated), removed once a try answers', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 503 } }, { failure: { kind: 'status', status: 503 } }, { text: 'Back again.' });
    const chat = controller();
    const shown: ExtensionToWebview[] = [];
    chat.onMessage((m) => shown.push(m));
    assert.equal((await chat.send('hi'))?.status, 'completed');
    const lines = shown.filter(retryUpsert);
    assert.deepEqual(lines.map((m) => m.entry.attempt), [2, 3]);
    assert.equal(new Set(lines.map((m) => m.entry.id)).size, 1, 'one line for both retries');
    assert.ok(shown.some((m) => m.type === 'remove' && m.id === lines[0]!.entry.id), 'the line went');
    assert.deepEqual(chat.transcript().map((e) => e.kind), ['user', 'assistant']);
  });

  it('"Retry now" cuts a 30 s wait short: the line says so and the answer comes at once', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 30 } }, { text: 'Answered right away.' });
    const chat = controller();
    const started = Date.now();
    const waiting = nextMessage(chat, retryUpsert, 'the retry line');
    const turn = chat.send('hi');
    const line = (await waiting) as Extract<ExtensionToWebview, { type: 'upsert' }>;
    assert.ok(line.entry.kind === 'retry' && line.entry.delayMs === 30_000 && line.entry.waiting);
    const pressed = nextMessage(chat, (m) => retryUpsert(m) && !m.entry.waiting, 'the line no longer waiting');
    assert.equal(chat.retryNow(line.entry.id), true);
    await pressed;
    assert.equal(chat.retryNow(line.entry.id), false, 'a second press does nothing');
    assert.equal((await turn)?.status, 'completed');
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms: it sat out the 30 s wait`);
    assert.equal((chat.transcript().at(-1) as ChatEntryOf<'assistant'>).text, 'Answered right away.');
  });

  it('a failed turn has Retry: the same message is sent again, once in the conversation, and answered', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 400 } });
    const chat = controller();
    assert.equal((await chat.send('add a multiply function'))?.status, 'failed');
    const error = chat.transcript().find((e): e is ChatEntryOf<'error'> => e.kind === 'error');
    assert.equal(error?.retry, true);

    fake.enqueue({ text: 'Done this time.' });
    assert.equal((await chat.retryTurn(error.id))?.status, 'completed');
    const messages = fake.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.equal(messages.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('add a multiply function')).length, 1, 'the prompt is not doubled');
    assert.equal((chat.transcript().find((e) => e.id === error.id) as ChatEntryOf<'error'>).retry, false, 'the card lost its button');
    assert.equal((chat.transcript().at(-1) as ChatEntryOf<'assistant'>).text, 'Done this time.');
    assert.equal(await chat.retryTurn(error.id), undefined, 'only once');
  });
});
