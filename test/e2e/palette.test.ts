import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { loadE2eHost, type E2eHost, type Workbench } from './host';
import { FakeProvider, lastUserText } from '../fixtures/fake-provider';

/**
 * Provider setup, the status bar item and the editor's palette actions as a user meets them in the
 * real workbench: the provider question before the key, the key's shape check, the status bar's
 * click, Add Selection to Chat into the input, Explain Selection from the editor's context menu
 * (the editor keeps the focus), and the walkthrough.
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
    for (let attempt = 0; ; attempt++) {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget .quick-input-box input').fill(`>${title}`);
      try {
        await row.waitFor({ timeout: 3000 });
        break;
      } catch (err) {
        await page.keyboard.press('Escape');
        if (attempt > 10) throw err;
      }
    }
    await page.keyboard.press('Enter');
  }

  async function openMath(): Promise<void> {
    await wb.page.keyboard.press('Control+P');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('math.ts');
    await wb.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'math.ts' }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.monaco-editor .view-line', { hasText: 'export const PI' }).waitFor({ timeout: 10_000 });
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

  before(async () => {
    await fake.start();
    host = await loadE2eHost();
    wb = await host.openWorkbench({ userSettings: { 'opendev.baseUrl': fake.openaiBaseUrl, 'opendev.thinkingLevel': 'off' } });
  });
  after(async () => {
    await wb?.close();
    await fake.stop();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  it('Set API Key from the palette asks for the provider first, then checks the key before saving it', async () => {
    await palette(wb.page, 'OpenDev: Set API Key');
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await rows.first().filter({ hasText: 'OpenAI' }).waitFor({ timeout: 20_000 });
    assert.equal(await rows.count(), 3, 'OpenAI, Anthropic, OpenAI-compatible server');
    assert.match((await rows.first().textContent()) ?? '', /OpenAI.*current · no key yet/);
    await wb.screenshot('setup-provider-pick');
    await wb.page.keyboard.press('Enter');

    const box = wb.page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ timeout: 10_000 });
    await box.fill('Bearer sk-pasted-with-its-header');
    await wb.page.locator('.quick-input-widget', { hasText: 'without "Bearer "' }).waitFor({ timeout: 10_000 });
    await wb.screenshot('setup-key-refused');
    await box.press('Enter');
    assert.equal(await box.isVisible(), true, 'a key that cannot be one is not accepted');
    await box.fill('sk-typed-in-the-e2e-test');
    await box.press('Enter');
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('the status bar shows the model and the mode; a click opens the chat with the input focused', async () => {
    const item = wb.page.locator('.statusbar-item', { hasText: 'gpt-4.1 · normal' });
    await item.waitFor({ timeout: 30_000 });
    await item.hover();
    await wb.page.locator('.monaco-hover, .workbench-hover', { hasText: 'Provider: OpenAI' }).first().waitFor({ timeout: 10_000 });
    await wb.screenshot('status-bar-tooltip');
    await item.click();
    chat = await host.findFrame(wb.page, async (f) => (await f.locator('vscode-textarea[aria-label="Ask OpenDev"]').count()) > 0, 60_000);
    for (let i = 0; i < 40 && !(await inputFocused()); i++) await wb.page.waitForTimeout(250);
    assert.equal(await inputFocused(), true, 'the chat input has the focus');
  });

  it('Add Selection to Chat puts the selected code, with its file and line, in the chat input', async () => {
    await openMath();
    await selectLines(1, 1);
    await palette(wb.page, 'OpenDev: Add Selection to Chat');
    for (let i = 0; i < 80 && !(await chatInput().inputValue()).includes('export const PI'); i++) await wb.page.waitForTimeout(250);
    assert.match(await chatInput().inputValue(), /^`math\.ts` line 1:\n```typescript\nexport const PI = 3\.14159;\n```\n$/);
    for (let i = 0; i < 40 && !(await inputFocused()); i++) await wb.page.waitForTimeout(250);
    assert.equal(await inputFocused(), true, 'the user goes on typing their question');
    assert.equal(fake.requests.length, 0, 'nothing is sent');
    await wb.screenshot('palette-add-selection');
    await chatInput().fill('');
  });

  it('Explain Selection from the editor context menu sends the code and the editor keeps the focus', async () => {
    await openMath();
    await selectLines(3, 5);
    await wb.page.locator('.monaco-editor .view-line', { hasText: 'return a + b' }).click({ button: 'right' });
    const entry = wb.page.locator('.monaco-menu .action-item', { hasText: 'Explain Selection' });
    await entry.waitFor({ timeout: 10_000 });
    assert.equal(await wb.page.locator('.monaco-menu .action-item', { hasText: 'Add Selection to Chat' }).count(), 1);
    await wb.screenshot('palette-context-menu');
    await entry.click();

    await chat.locator('.entry.assistant', { hasText: /echo: Explain this code from math\.ts \(lines 3-5\)/ }).waitFor({ timeout: 30_000 });
    assert.equal(await chatInput().inputValue(), '', 'sent, not put in the input');
    await chat.locator('#send').waitFor({ state: 'visible', timeout: 20_000 }).catch(async (err) => {
      await wb.screenshot('debug-busy');
      throw new Error(`still busy after the answer; requests: ${JSON.stringify(fake.requests.map((r) => lastUserText(r).slice(0, 80)))}`, { cause: err });
    });
    assert.ok(lastUserText(fake.requests.at(-1)!).includes('export function add(a: number, b: number): number {'));
    assert.equal(await wb.page.locator('.monaco-editor.focused').count(), 1, 'the editor has the focus');
    await wb.screenshot('palette-explain-selection');
  });

  it('the walkthrough walks through key, model and chat', async () => {
    await palette(wb.page, 'Welcome: Open Walkthrough...');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with OpenDev' }).click({ timeout: 20_000 });
    for (const step of ['Connect a model provider', 'Pick a model', 'Open the chat and ask']) {
      await wb.page.locator('.getting-started-step', { hasText: step }).first().waitFor({ timeout: 20_000 });
    }
    // The step's markdown from media/walkthrough/ renders beside it (in a webview of its own).
    await host.findFrame(wb.page, async (f) => (await f.locator('h1', { hasText: 'Connect a model provider' }).count()) > 0, 30_000);
    await wb.screenshot('walkthrough');
  });
});
