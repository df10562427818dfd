import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { eventually, loadE2eHost, readmeScreenshot, terminalText, waitTerminal, type E2eHost, type Workbench, storeApiKey } from './host';
import { FakeProvider, lastUserText, toolResults } from '../fixtures/fake-provider';

/**
 * The OpenDev terminal as a user drives it in the real workbench: opened from the command palette,
 * a prompt typed on the keyboard, the streamed answer, and a command approved with the keyboard
 * in its numbered menu. The fake model on 127.0.0.1 answers behind the real openai SDK.
 */
describe('OpenDev terminal (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({
    responder: (req) => {
      const prompt = lastUserText(req);
      if (/run the tests/.test(prompt)) {
        if (toolResults(req).length > 0) return { text: 'All 3 tests passed.', chunkDelayMs: 100 };
        return { toolCalls: [{ name: 'run_command', arguments: { command: 'touch e2e-tests-ran.txt && echo tests-passed' } }] };
      }
      if (/math\.ts/.test(prompt)) return { text: 'math.ts exports PI, add and subtract.', chunkDelayMs: 150 };
      return { text: `echo: ${prompt}` };
    },
  });
  let host: E2eHost;
  let wb: Workbench;
  let terminal: Locator;

  const waitScreen = (pattern: RegExp, timeoutMs?: number) => waitTerminal(terminal, pattern, timeoutMs);

  before(async () => {
    await fake.start();
    host = await loadE2eHost();
    wb = await host.openWorkbench({
      userSettings: {
        'opendev.baseUrl': fake.openaiBaseUrl,
        'opendev.thinkingLevel': 'off',
        // The DOM renderer: the rows are text the test can read (and the screenshot shows the same).
        'terminal.integrated.gpuAcceleration': 'off',
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

  it('opens from the palette; without a key it says how to connect, and the commands that need no model work', async () => {
    await host.runCommand(wb.page, 'OpenDev: Open OpenDev Terminal');
    await terminal.waitFor();
    await waitScreen(/Connect OpenDev to OpenAI.*Type a task, or \/help for commands.*› *$/);

    assert.equal(await wb.page.locator('.part.panel .single-terminal-tab', { hasText: 'OpenDev Agent' }).count(), 1, 'the tab is named "OpenDev Agent"');

    await terminal.click();
    await wb.page.keyboard.type('/help');
    await wb.page.keyboard.press('Enter');
    await waitScreen(/\/exit +Leave .*Start a message with \/\/ to send a leading slash\..*› *$/);

    // The next task builds the agent with the key saved now.
    await storeApiKey(host, wb.page, 'sk-e2e-terminal');
    // Notifications ("the key is saved", VS Code's terminal keybinding tip) would cover the screenshots.
    await host.runCommand(wb.page, 'Notifications: Clear All Notifications');
  });

  it('a prompt typed on the keyboard streams its answer', async () => {
    await terminal.click();
    await wb.page.keyboard.type('what does math.ts export?');
    await wb.page.keyboard.press('Enter');
    await waitScreen(/math\.ts exports PI, add and subtract\..*› *$/);
    assert.equal(lastUserText(fake.requests.at(-1)!), 'what does math.ts export?');
    assert.match(String(fake.requests.at(-1)!.headers.authorization), /sk-e2e-terminal$/);
  });

  it('a command waits in a numbered menu; 1 on the keyboard runs it', async () => {
    await wb.page.keyboard.type('run the tests');
    await wb.page.keyboard.press('Enter');
    await waitScreen(/1\) allow +2\) always allow +3\) deny \[reason\] +4\) edit the command *choice \[1-4\] › *$/);
    // The question in the chat's words, not the tool's name and JSON.
    assert.match(await terminalText(terminal), /⚠ Run touch e2e-tests-ran\.txt && echo tests-passed\?/);
    await wb.screenshot('opendev-terminal-approval');
    assert.equal(existsSync(join(wb.workspace, 'e2e-tests-ran.txt')), false, 'nothing runs before the approval');
    await wb.page.keyboard.type('1');
    await wb.page.keyboard.press('Enter');
    // The call's line says what it did, as the chat's tool card does ("Ran … · exit 0 · 15 ms").
    await waitScreen(/● Ran touch e2e-tests-ran\.txt && echo tests-passed · exit 0 · [\d.]+ (ms|s).*All 3 tests passed\..*› *$/);
    assert.doesNotMatch(await terminalText(terminal), /run_command \{/, 'no raw tool line');
    assert.equal(existsSync(join(wb.workspace, 'e2e-tests-ran.txt')), true);
    await wb.screenshot('opendev-terminal');
    // The README's picture: the terminal given the window, then back to the layout the next test has.
    await host.runCommand(wb.page, 'View: Toggle Maximized Panel');
    assert.ok(await eventually(async () => ((await wb.page.locator('.part.panel').boundingBox())?.height ?? 0) > 600), 'the panel took the window');
    await readmeScreenshot(host, wb, 'agent-terminal');
    await host.runCommand(wb.page, 'View: Toggle Maximized Panel');
  });

  it('Shift+Tab switches to plan mode, shown at the prompt', async () => {
    await wb.page.keyboard.press('Shift+Tab');
    await waitScreen(/plan mode: OpenDev explores.*plan › *$/);
    await wb.page.keyboard.press('Shift+Tab');
    await waitScreen(/normal mode \(Shift\+Tab: plan mode\) *› *$/);
  });
});
