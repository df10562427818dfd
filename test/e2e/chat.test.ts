import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { chatSuite, type E2eHost, type Workbench } from './host';
import { FakeProvider, lastUserText, toolResults } from '../fixtures/fake-provider';

/**
 * The chat view as a user drives it: the real workbench in Chromium, the extension under
 * development, the fake model on 127.0.0.1 behind the real openai SDK.
 */

const ANSWER = 'math.ts exports `PI`, `add` and `subtract`.';
const TABLE_ANSWER = [
  'The exports of [math.ts](math.ts#L7):',
  '',
  '| Name | Line |',
  '|------|-----:|',
  '| `PI` | 1 |',
  '| `add` | `math.ts:3` |',
  '',
  'More at https://example.com/math.',
].join('\n');

describe('chat view (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({
    responder: (req) => {
      if (toolResults(req).length > 0) return { text: ANSWER, chunkDelayMs: 150 };
      if (/math\.ts/.test(lastUserText(req))) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
      if (lastUserText(req) === 'list the exports as a table') return { text: TABLE_ANSWER, chunkDelayMs: 20 };
      if (lastUserText(req) === 'take your time') return { text: 'one two three four five six', chunkDelayMs: 2_000 };
      return { text: `echo: ${lastUserText(req)}` };
    },
  });
  let host: E2eHost;
  let wb: Workbench;
  let chat: Frame;

  // No key stored: the first test sees the setup card. Thinking off (the suite's default): each
  // message is one model call, which the responder above scripts.
  const suite = chatSuite(fake);
  before(() => {
    ({ host, wb, chat } = suite);
  });

  async function ask(text: string): Promise<void> {
    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill(text);
    await input.press('Enter');
  }

  it('opens from the palette with an accessible input; without a key the empty chat is the setup card', async () => {
    await chat.locator('.entry.setup').waitFor();
    assert.equal(await chat.locator('#empty').isVisible(), false, 'the card takes the empty-state hint\'s place');
    assert.equal(await chat.locator('vscode-textarea[aria-label="Ask OpenDev"]').count(), 1);
    await wb.screenshot('chat-empty');
  });

  it('without a key, shows one setup card (not an error) whose button opens the key prompt; the question then runs', async () => {
    await ask('hello');
    const card = chat.locator('.entry.setup');
    await chat.locator('.entry.user', { hasText: 'hello' }).waitFor();
    // The empty chat's card becomes the one the question waits for (not a second one).
    await chat.locator('.entry.setup', { hasText: 'Your message is sent as soon as this is done.' }).waitFor();
    assert.equal(await card.count(), 1);
    assert.match((await card.locator('.setup-title').textContent()) ?? '', /^Connect OpenDev to OpenAI$/);
    assert.match((await card.textContent()) ?? '', /needs an API key for OpenAI[\s\S]*"OpenDev: Set API Key"/);
    assert.equal(await chat.locator('.entry.error').count(), 0, 'no error styling');
    assert.equal(await card.locator('vscode-button[data-action="chooseProvider"]').count(), 1, 'and a way to choose another provider');
    assert.equal(fake.requests.length, 0);
    await wb.screenshot('chat-no-key');

    // The card knows the provider: the key prompt opens directly.
    await card.locator('vscode-button[data-action="setApiKey"]').click();
    const box = wb.page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor();
    await box.fill('sk-typed-by-user');
    await box.press('Enter');
    await box.waitFor({ state: 'hidden' });
    // The question that waited runs without being typed again, and the card is gone.
    await chat.locator('.entry.assistant', { hasText: 'echo: hello' }).waitFor();
    assert.equal(await card.count(), 0);
    assert.equal(lastUserText(fake.requests[0]!), 'hello');
    fake.reset(); // the next test counts its own requests
  });

  it('answers "what does math.ts export?" with a tool card and the streamed answer', async () => {
    await ask('what does math.ts export?');
    await chat.locator('#stop').waitFor({ state: 'visible' });
    assert.equal(await chat.locator('#send').isVisible(), false, 'Send turns into Stop while the agent works');
    const tool = chat.locator('.entry.tool[data-status="ok"]');
    await tool.waitFor();
    // The card says what happened in words; the tool's own name is in the raw detail behind it.
    assert.equal(await tool.locator('.tool-headline').textContent(), 'Read math.ts · 9 lines');
    assert.equal(await tool.locator('code.tool-name').textContent(), 'read_file');
    const answer = chat.locator('.entry.assistant').last();
    await answer.filter({ hasText: 'subtract' }).waitFor();
    assert.equal(await answer.textContent(), ANSWER.replace(/`/g, ''));
    assert.equal(await answer.locator('code').count(), 3, 'inline code is rendered as code');
    await chat.locator('#send').waitFor({ state: 'visible' });
    await wb.screenshot('chat-answer');

    assert.equal(fake.requests[0]!.headers.authorization, 'Bearer sk-typed-by-user', 'the key typed in the prompt was used');
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /export const PI/);
  });

  it('Stop ends a slow answer and the chat takes the next message', async () => {
    await ask('take your time');
    await chat.locator('.entry.assistant', { hasText: 'one' }).waitFor();
    await chat.locator('#stop').click();
    await chat.locator('.entry.notice', { hasText: 'Stopped.' }).waitFor();
    assert.doesNotMatch((await chat.locator('.entry.assistant').last().textContent()) ?? '', /six/);
    await ask('ping');
    await chat.locator('.entry.assistant', { hasText: 'echo: ping' }).waitFor();
  });

  it('draws a table and links in an answer; a workspace link opens the file at its line', async () => {
    await ask('list the exports as a table');
    const answer = chat.locator('.entry.assistant', { hasText: 'More at' });
    await answer.locator('table tbody tr').nth(1).waitFor();
    assert.deepEqual(await answer.locator('th').allTextContents(), ['Name', 'Line']);
    assert.deepEqual(await answer.locator('tbody td').allTextContents(), ['PI', '1', 'add', 'math.ts:3']);
    assert.deepEqual(await answer.locator('a.md-link').allTextContents(), ['math.ts', 'math.ts:3', 'https://example.com/math']);
    await wb.screenshot('chat-table-links');

    await answer.locator('a.md-link', { hasText: 'math.ts:3' }).click();
    await wb.page.locator('.tab.active', { hasText: 'math.ts' }).waitFor();
    await wb.page.locator('.statusbar-item', { hasText: /Ln 3, Col 1/ }).waitFor();
    await answer.locator('a.md-link', { hasText: /^math\.ts$/ }).click();
    await wb.page.locator('.statusbar-item', { hasText: /Ln 7, Col 1/ }).waitFor();
    await wb.screenshot('chat-link-opened');
    await host.runCommand(wb.page, 'View: Close All Editors');
  });

  it('keeps the conversation when the view is hidden and shown again', async () => {
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    chat = await host.findFrame(wb.page, async (f) => (await f.locator('.entry.assistant').count()) > 0);
    assert.match((await chat.locator('.entry.assistant', { hasText: 'subtract' }).textContent()) ?? '', /PI, add and subtract/);
    assert.equal(await chat.locator('.entry.tool').count(), 1);
  });

  it('New Chat clears the transcript', async () => {
    await host.runCommand(wb.page, 'OpenDev: New Chat');
    await chat.locator('.entry').first().waitFor({ state: 'detached' });
    assert.equal(await chat.locator('#empty').isVisible(), true);
  });
});
