import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { expandMentions } from '../../../src/core/mentions/mention-expander';
import { workspaceMentionSources } from '../../../src/core/mentions/workspace-mention-sources';
import type { BackgroundTaskView, ExtensionToWebview, ImageUpload } from '../../../src/shared/protocol';
import type { BackgroundTaskPort, MentionPort } from '../../../src/vscode/chat-input';
import { ChatController } from '../../../src/vscode/chat-controller';
import { builtinSlashPort } from '../../../src/vscode/slash-port';
import { FakeProvider, lastUserText } from '../../fixtures/fake-provider';
import { makePng, pngAttachment } from '../../helpers/png';

const fixture = join(__dirname, '../../../../test/fixtures/workspace');
const THUMB = `data:image/png;base64,${makePng(4, 4, () => [9, 9, 9]).toString('base64')}`;

/** The chat's input beyond text: @ mentions, images, the background-task indicator, slash hints. */
describe('ChatController: mentions, images and indicators', () => {
  const fake = new FakeProvider();
  let root: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    root = mkdtempSync(join(tmpdir(), 'opendev-chat-input-'));
    copyFileSync(join(fixture, 'math.ts'), join(root, 'math.ts'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const mentions = (): MentionPort => ({
    complete: async (query) => (query === 'ma' ? [{ target: 'math.ts', kind: 'file' }] : []),
    expand: (text) => expandMentions(text, workspaceMentionSources(root)),
  });
  const chatWith = (model: string, extra: { tasks?: BackgroundTaskPort } = {}) =>
    new ChatController(
      async () => ({ agent: await createMainAgent({ roles: { action: { provider: 'openai', model, apiKey: 'k', baseUrl: fake.openaiBaseUrl } }, workspaceRoot: root, thinkingLevel: 'off' }) }),
      { slash: builtinSlashPort(), mentions: mentions(), ...extra },
    );
  const upload = (): ImageUpload => ({ image: pngAttachment('bug.png'), thumbnail: THUMB });

  it('a mentioned file and a pasted image reach the model; the transcript shows the text with its chips and thumbnail', async () => {
    fake.enqueue({ text: 'The chart plots PI.' });
    const chat = chatWith('gpt-4.1'); // reads images (built-in catalogue)
    await chat.send('how does @math.ts relate to this chart?', [upload()]);

    const user = chat.transcript()[0];
    assert.equal(user?.kind, 'user');
    assert.equal(user?.kind === 'user' && user.text, 'how does @math.ts relate to this chart?', 'the text as typed, without the context');
    assert.deepEqual(user?.kind === 'user' && user.mentions, [{ target: 'math.ts', kind: 'file', ok: true }]);
    assert.deepEqual(user?.kind === 'user' && user.images, [{ name: 'bug.png', thumbnail: THUMB }]);

    const sent = fake.requests[0]!.body.messages.at(-1);
    assert.match(lastUserText(fake.requests[0]!), /^how does @math\.ts relate to this chart\?\n\n<mentioned_context>[\s\S]*<file path="math\.ts">[\s\S]*export function subtract/);
    assert.equal(sent.content.filter((p: { type: string }) => p.type === 'image_url').length, 1);
  });

  it('refuses an image the model cannot read, without calling it, and says what to change', async () => {
    const chat = chatWith('fake-model');
    const result = await chat.send('what is this?', [upload()]);
    assert.equal(result, undefined);
    assert.equal(fake.requests.length, 0);
    const error = chat.transcript().at(-1);
    assert.equal(error?.kind, 'error');
    assert.match(error?.kind === 'error' ? error.text : '', /The message was not sent: fake-model cannot read images and no vision model is configured\. Choose a model that reads images/);
    assert.equal(error?.kind === 'error' && error.action, 'openSettings');
    assert.equal(chat.busy, false);
  });

  it('a follow-up typed while the agent works carries its mention context; an image cannot join and the user is told', async () => {
    fake.enqueue({ text: 'slow answer', chunkDelayMs: 300 }, { text: 'done' });
    const chat = chatWith('gpt-4.1');
    const running = chat.send('start');
    await fake.waitForRequests(1);
    await chat.send('also @math.ts', [upload()]);
    await running;
    const warning = chat.transcript().find((e) => e.kind === 'notice' && /Images cannot join a running task/.test(e.text));
    assert.ok(warning, 'the image is refused in words');
    assert.match(JSON.stringify(fake.requests[1]!.body.messages), /also @math\.ts[\s\S]*<file path=\\"math\.ts\\">/);
  });

  it('answers @ completions through the protocol', async () => {
    const chat = chatWith('gpt-4.1');
    const sent: ExtensionToWebview[] = [];
    chat.onMessage((m) => sent.push(m));
    await chat.sendMentionCompletions('ma');
    assert.deepEqual(sent, [{ type: 'mentionCompletions', query: 'ma', items: [{ target: 'math.ts', kind: 'file' }] }]);
  });

  it('lists every slash command with its description, and its arguments as a hint', () => {
    const chat = chatWith('gpt-4.1');
    const all = chat.complete('/');
    for (const name of ['compact', 'undo', 'sessions', 'models', 'thinking', 'mcp', 'agents', 'skills', 'init', 'help', 'playbook', 'config', 'plan', 'mode', 'clear']) {
      const item = all.find((c) => c.name === `/${name}`);
      assert.ok(item, `/${name} is offered`);
      assert.ok(item.description.length > 5, `/${name} has a description`);
    }
    assert.equal(all.find((c) => c.name === '/thinking')?.hint, '[off|low|medium|high]');
    assert.equal(all.find((c) => c.name === '/compact')?.hint, '[instructions]');
    assert.equal(all.find((c) => c.name === '/clear')?.hint, undefined, 'no arguments, no hint');
    assert.deepEqual(chat.complete('/thinking h'), [{ name: '/thinking high', description: 'Show or set how much the agent reasons before acting' }]);
  });

  it('keeps the view told about running background tasks, and opens a task when asked', () => {
    let tasks: BackgroundTaskView[] = [];
    const listeners = new Set<() => void>();
    const opened: string[] = [];
    const port: BackgroundTaskPort = {
      running: () => tasks,
      onDidChange: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
      open: (id) => opened.push(id),
    };
    const chat = chatWith('gpt-4.1', { tasks: port });
    const sent: ExtensionToWebview[] = [];
    chat.onMessage((m) => sent.push(m));
    tasks = [{ id: 'a1b2c3d', command: 'npm run dev' }];
    for (const l of listeners) l();
    assert.deepEqual(sent, [{ type: 'tasks', tasks }]);
    const snapshot = chat.snapshot();
    assert.deepEqual(snapshot.type === 'snapshot' && snapshot.tasks, tasks);
    chat.openTask('a1b2c3d');
    assert.deepEqual(opened, ['a1b2c3d']);
  });
});
