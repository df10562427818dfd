import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { eventually, runUntilPicked, storeApiKey, workbenchSuite, type E2eHost, type Workbench } from './host';
import { FakeProvider, lastUserText } from '../fixtures/fake-provider';

/**
 * Provider setup, the status bar item and the editor's palette actions as a user meets them in the
 * real workbench: the provider question before the key, the key's shape check, the status bar's
 * click, Add Selection to Chat into the input, Explain Selection from the editor's context menu
 * (the editor keeps the focus).
 */
describe('palette actions, status bar and setup (end to end)', function () {
  this.timeout(240_000);
  const fake = new FakeProvider({ responder: (req) => ({ text: `echo: ${lastUserText(req).split('\n')[0]}` }) });
  let host: E2eHost;
  let wb: Workbench;
  let chat: Frame;

  /** Runs a palette command that opens a prompt of its own (host.runCommand waits for the palette to close). */
  async function palette(page: Page, title: string): Promise<void> {
    const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
    // A palette that does not list the command yet (or closes under us) is asked again, within one overall limit.
    for (const deadline = Date.now() + 60_000; ; ) {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget .quick-input-box input').fill(`>${title}`);
      try {
        await row.waitFor({ timeout: 3000 });
        break;
      } catch (err) {
        await page.keyboard.press('Escape');
        if (Date.now() > deadline) throw err;
      }
    }
    await page.keyboard.press('Enter');
  }

  async function openMath(): Promise<void> {
    await wb.page.keyboard.press('Control+P');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('math.ts');
    await wb.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'math.ts' }).waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.monaco-editor .view-line', { hasText: 'export const PI' }).waitFor();
  }

  /** Selects whole lines `from`..`to` (1-based) of the active editor with the keyboard. */
  async function selectLines(from: number, to: number): Promise<void> {
    await wb.page.locator('.monaco-editor .view-line', { hasText: 'export const PI' }).click();
    await wb.page.keyboard.press('Control+Home');
    for (let i = 1; i < from; i++) await wb.page.keyboard.press('ArrowDown');
    for (let i = from; i < to; i++) await wb.page.keyboard.press('Shift+ArrowDown');
    await wb.page.keyboard.press('Shift+End');
  }

  const chatInput = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  // Expressions evaluated in the webview (strings: the test build has no DOM types).
  const inputFocused = () => chat.evaluate<boolean>("document.hasFocus() && document.activeElement?.id === 'input'");

  const suite = workbenchSuite(fake);
  before(() => {
    ({ host, wb } = suite);
  });

  it('Set API Key from the palette asks for the provider first, then checks the key before saving it', async () => {
    await palette(wb.page, 'OpenDev: Set API Key');
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await rows.first().filter({ hasText: 'OpenAI' }).waitFor();
    assert.equal(await rows.count(), 8, 'OpenAI, Anthropic, OpenAI-compatible server, Azure OpenAI, Amazon Bedrock, Google Vertex AI, Gemini, OpenRouter');
    assert.match((await rows.nth(4).textContent()) ?? '', /Amazon Bedrock.*no key \(optional here\)/, 'Bedrock signs with AWS credentials: a key is optional');
    assert.match((await rows.first().textContent()) ?? '', /OpenAI.*current · no key yet/);
    await wb.screenshot('setup-provider-pick');
    await wb.page.keyboard.press('Enter');

    const box = wb.page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor();
    await box.fill('Bearer sk-pasted-with-its-header');
    await wb.page.locator('.quick-input-widget', { hasText: 'without "Bearer "' }).waitFor();
    await wb.screenshot('setup-key-refused');
    await box.press('Enter');
    assert.equal(await box.isVisible(), true, 'a key that cannot be one is not accepted');
    await box.fill('sk-typed-in-the-e2e-test');
    await box.press('Enter');
    await box.waitFor({ state: 'hidden' });
  });

  it('the status bar shows the model and the mode; a click opens the chat with the input focused', async () => {
    const item = wb.page.locator('.statusbar-item', { hasText: 'gpt-4.1 · normal' });
    await item.waitFor();
    await item.hover();
    await wb.page.locator('.monaco-hover, .workbench-hover', { hasText: 'Provider: OpenAI' }).first().waitFor();
    await wb.screenshot('status-bar-tooltip');
    await item.click();
    chat = await host.findFrame(wb.page, async (f) => (await f.locator('vscode-textarea[aria-label="Ask OpenDev"]').count()) > 0, 60_000);
    await eventually(inputFocused);
    assert.equal(await inputFocused(), true, 'the chat input has the focus');
  });

  it('Add Selection to Chat puts the selected code, with its file and line, in the chat input', async () => {
    await openMath();
    await selectLines(1, 1);
    await palette(wb.page, 'OpenDev: Add Selection to OpenDev Chat');
    await eventually(async () => (await chatInput().inputValue()).includes('export const PI'));
    assert.match(await chatInput().inputValue(), /^`math\.ts` line 1:\n```typescript\nexport const PI = 3\.14159;\n```\n$/);
    await eventually(inputFocused);
    assert.equal(await inputFocused(), true, 'the user goes on typing their question');
    assert.equal(fake.requests.length, 0, 'nothing is sent');
    await wb.screenshot('palette-add-selection');
    await chatInput().fill('');
  });

  it('Explain Selection from the editor context menu sends the code and the editor keeps the focus', async () => {
    await openMath();
    await selectLines(3, 5);
    await wb.page.locator('.monaco-editor .view-line', { hasText: 'return a + b' }).click({ button: 'right' });
    const entry = wb.page.locator('.monaco-menu .action-item', { hasText: 'Explain Selection with OpenDev' });
    await entry.waitFor();
    // Named for OpenDev: VS Code's own chat puts an "Add Selection to Chat" in the same menu.
    assert.equal(await wb.page.locator('.monaco-menu .action-item', { hasText: 'Add Selection to OpenDev Chat' }).count(), 1);
    await wb.screenshot('palette-context-menu');
    await entry.click();

    await chat.locator('.entry.assistant', { hasText: /echo: Explain this code from math\.ts \(lines 3-5\)/ }).waitFor();
    assert.equal(await chatInput().inputValue(), '', 'sent, not put in the input');
    await chat.locator('#send').waitFor({ state: 'visible' }).catch(async (err) => {
      await wb.screenshot('debug-busy');
      throw new Error(`still busy after the answer; requests: ${JSON.stringify(fake.requests.map((r) => lastUserText(r).slice(0, 80)))}`, { cause: err });
    });
    assert.ok(lastUserText(fake.requests.at(-1)!).includes('export function add(a: number, b: number): number {'));
    assert.equal(await wb.page.locator('.monaco-editor.focused').count(), 1, 'the editor has the focus');
    await wb.screenshot('palette-explain-selection');
  });
});

/**
 * The first-run walkthrough in a fresh workbench: each step ticks off when the user does what it
 * describes (VS Code offers extensions no way to read a step's state, so it is read on screen).
 */
describe('the walkthrough (end to end)', function () {
  this.timeout(240_000);
  const fake = new FakeProvider({ responder: (req) => ({ text: `echo: ${lastUserText(req)}` }) });
  const suite = workbenchSuite(fake);
  let host: E2eHost;
  let wb: Workbench;
  before(() => {
    ({ host, wb } = suite);
  });

  const step = (title: string) => wb.page.locator('.getting-started-step', { hasText: title }).first();
  const ticked = async (title: string) => (await step(title).locator('.codicon-getting-started-step-checked').count()) > 0;
  async function waitTicked(title: string): Promise<void> {
    await eventually(() => ticked(title));
    assert.equal(await ticked(title), true, `"${title}" is ticked off`);
  }

  it('ticks off each step as it is done: a key, a model, a first message in the chat', async () => {
    // The walkthrough joins the list once VS Code has read the extension's manifest: ask again until it is there.
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with OpenDev' });
    for (const deadline = Date.now() + 60_000; ; ) {
      await host.runCommand(wb.page, 'Welcome: Open Walkthrough...');
      if (await row.waitFor({ timeout: 3000 }).then(() => true, () => false)) break;
      await wb.page.keyboard.press('Escape');
      if (Date.now() > deadline) throw new Error('the walkthrough is not listed');
    }
    await row.click();
    for (const title of ['Connect a model provider', 'Pick a model', 'Open the chat and ask']) {
      await step(title).waitFor();
      assert.equal(await ticked(title), false, `"${title}" starts unticked`);
    }
    // The step's markdown from media/walkthrough/ renders beside it (in a webview of its own).
    await host.findFrame(wb.page, async (f) => (await f.locator('h1', { hasText: 'Connect a model provider' }).count()) > 0);
    await wb.screenshot('walkthrough');

    await storeApiKey(host, wb.page, 'sk-walkthrough-key');
    await waitTicked('Connect a model provider');
    assert.equal(await ticked('Pick a model'), false);

    // The walkthrough reacts to the tick by focusing its step, which closes a quick pick.
    await runUntilPicked(host, wb.page, 'OpenDev: Select Model', 'gpt-4.1');
    await wb.page.keyboard.press('Enter'); // the current model, the provider's default
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await waitTicked('Pick a model');

    // The status bar item opens the chat beside the walkthrough, which stays in the editor area.
    await wb.page.locator('.statusbar-item', { hasText: 'gpt-4.1 · normal' }).click();
    const chat = await host.findFrame(wb.page, async (f) => (await f.locator('vscode-textarea[aria-label="Ask OpenDev"]').count()) > 0, 60_000);
    await wb.page.waitForTimeout(1000);
    assert.equal(await ticked('Open the chat and ask'), false, 'opening the chat is not asking yet');
    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill('hello walkthrough');
    await input.press('Enter');
    await chat.locator('.entry.assistant', { hasText: 'echo: hello walkthrough' }).waitFor();
    await waitTicked('Open the chat and ask');
    await wb.screenshot('walkthrough-done');
  });
});
