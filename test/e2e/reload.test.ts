import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import { CHAT_INPUT, findChat, loadE2eHost, openChat, storeApiKey, terminalText, waitTerminal, type E2eHost, type Workbench } from './host';
import { FakeProvider, lastUserText } from '../fixtures/fake-provider';

/**
 * Reloading the browser tab of the web VS Code, as a user presses F5: the API key saved before is
 * still there (VS Code's secret storage in the browser seals it with a key half the server mints;
 * test/host/serve-web.mjs serves that route), and an OpenDev Agent terminal that was open comes back
 * and continues its conversation. The fake model on 127.0.0.1 answers behind the real openai SDK.
 */
/** The one limit for a reloaded workbench to activate the extension again. */
const RELOAD_LIMIT_MS = 180_000;

describe('A reload of the browser tab (end to end)', function () {
  this.timeout(600_000);
  const KEY = 'sk-e2e-reload-key';
  const fake = new FakeProvider({
    responder: (req) => {
      const prompt = lastUserText(req);
      // Answers from what the request carries: the word only reaches the model if the conversation did.
      if (/which word/.test(prompt)) {
        const word = /remember the word (\w+)/.exec(JSON.stringify(req.body))?.[1];
        return { text: word ? `The word was ${word}.` : 'No word was given.' };
      }
      if (/remember the word/.test(prompt)) return { text: 'Noted the word.' };
      return { text: `echo: ${prompt}` };
    },
  });
  let host: E2eHost;
  let wb: Workbench;
  let terminal: Locator;

  const screen = () => terminalText(terminal);
  const waitScreen = (pattern: RegExp, timeoutMs?: number) => waitTerminal(terminal, pattern, timeoutMs);
  async function ask(chat: Frame, text: string): Promise<void> {
    const input = chat.locator(`${CHAT_INPUT} textarea`);
    await input.fill(text);
    await input.press('Enter');
  }
  /** F5 in the browser: a new workbench page on the same server, the same browser storage. */
  async function reload(): Promise<void> {
    await wb.page.reload();
    await wb.page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    // The chat view was open, so it comes back once the extension has activated (slow on a busy machine).
    await findChat(host, wb.page, RELOAD_LIMIT_MS);
  }

  before(async () => {
    await fake.start();
    host = await loadE2eHost();
    wb = await host.openWorkbench({
      userSettings: {
        'opendev.baseUrl': fake.openaiBaseUrl,
        'opendev.thinkingLevel': 'off',
        'terminal.integrated.gpuAcceleration': 'off', // DOM rows: text the test can read
      },
    });
    terminal = wb.page.locator('.terminal-wrapper.active');
  });
  after(async () => {
    await wb?.close();
    await fake.stop();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  it('a key saved with Set API Key is still there after the reload: the chat answers without asking for it', async () => {
    await storeApiKey(host, wb.page, KEY);
    let chat = await openChat(host, wb.page);
    await ask(chat, 'before the reload');
    await chat.locator('.entry.assistant', { hasText: 'echo: before the reload' }).waitFor();

    await reload();
    chat = await openChat(host, wb.page);
    assert.equal(await chat.locator('.entry.setup').count(), 0, 'no setup card: the key is known');
    const before = fake.requests.length;
    await ask(chat, 'after the reload');
    await chat.locator('.entry.assistant', { hasText: 'echo: after the reload' }).waitFor();
    assert.equal(await chat.locator('.entry.setup').count(), 0, 'the question was not held for a key');
    const request = fake.requests.slice(before).find((r) => lastUserText(r) === 'after the reload');
    assert.ok(request, 'the question reached the model');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    await wb.screenshot('reload-chat-key-kept');
  });

  it('an open OpenDev Agent terminal comes back after the reload and its conversation goes on', async () => {
    await host.runCommand(wb.page, 'OpenDev: Open OpenDev Terminal');
    await terminal.waitFor();
    await waitScreen(/Type a task, or \/help for commands.*› *$/);
    await terminal.click();
    await wb.page.keyboard.type('remember the word pelican');
    await wb.page.keyboard.press('Enter');
    await waitScreen(/Noted the word\..*› *$/);

    await reload();
    const tab = wb.page.locator('.part.panel .single-terminal-tab, .part.panel .terminal-tabs-entry', { hasText: 'OpenDev Agent' });
    await tab.first().waitFor();
    await terminal.waitFor();
    await waitScreen(/Resumed session \S+ .*\(2 messages\): the conversation goes on\..*› *$/);
    await terminal.click();
    await wb.page.keyboard.type('which word did I ask you to remember?');
    await wb.page.keyboard.press('Enter');
    await waitScreen(/The word was pelican\..*› *$/);
    await wb.screenshot('reload-agent-terminal-resumed');

    // Closed by the user, it stays closed: the next reload brings no tab back.
    await wb.page.keyboard.type('/exit');
    await wb.page.keyboard.press('Enter');
    await tab.first().waitFor({ state: 'detached' });
    await reload();
    // Tabs come back while the extension activates, before its commands run: the one opened now
    // is the only one, and takes the first name.
    await host.runCommand(wb.page, 'OpenDev: Open OpenDev Terminal');
    await waitScreen(/Type a task, or \/help for commands.*› *$/);
    assert.deepEqual(await wb.page.locator('.part.panel .single-terminal-tab, .part.panel .terminal-tabs-entry').allTextContents().then((names) => names.filter((n) => /OpenDev Agent/.test(n)).map((n) => n.trim())), ['OpenDev Agent'], 'a terminal closed with /exit is not reopened');
    assert.doesNotMatch(await screen(), /Resumed session/);
  });
});
