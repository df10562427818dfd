import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_INPUT, chatSuite, eventually, waitTerminal, type E2eHost, type Workbench } from '../host';
import { FakeProvider, lastUserText, toolResults, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';

/**
 * The keyboard habits of an editor user, through the real workbench in Chromium: Ctrl+' focuses the
 * chat from the editor, Ctrl+Shift+' adds the selection, Shift+Tab leaves the chat input (a
 * keyboard user is never trapped in it) unless a suggestion list is open, Alt+M switches plan
 * mode; the review commands are not in the palette while no change waits; and "Explain with
 * OpenDev" in a terminal's context menu sends the selected output.
 */

// Browser globals inside frame.evaluate callbacks (this file is typechecked without the DOM lib).
declare const document: any;

const MATH = readFileSync(join(__dirname, '../../../../test/fixtures/workspace/math.ts'), 'utf8');

/** "review this edit": read math.ts, then propose an edit (which waits for review); anything else is echoed. */
function respond(req: RecordedRequest): ScriptedTurn {
  const task = lastUserText(req);
  const results = toolResults(req);
  if (task !== 'review this edit') return { text: `echo: ${task.split('\n')[0]}` };
  if (results.length === 0) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
  if (results.length === 1) return { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'export const PI = 3.14159;', new_content: 'export const PI = Math.PI;' } }] };
  return { text: 'Review over.' };
}

describe('editor habits: keybindings, focus, menus (end to end)', function () {
  this.timeout(240_000);
  const fake = new FakeProvider({ responder: respond });
  let host: E2eHost;
  let wb: Workbench;
  let chat: Frame;

  const suite = chatSuite(fake, {
    shared: true,
    apiKey: 'sk-e2e-test-key',
    // Explain with OpenDev reads the terminal's selection through the clipboard (the terminal's Copy).
    prepare: (wb) => wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write']),
  });
  before(() => {
    ({ host, wb, chat } = suite);
  });

  const input = () => chat.locator(`${CHAT_INPUT} textarea`);
  /** Whether the chat's input has the keyboard focus (the webview's document too, not only its last active element). */
  const inputFocused = () => chat.evaluate(() => document.hasFocus() && document.activeElement?.id === 'input').catch(() => false);

  async function openMathInEditor(): Promise<void> {
    await host.runCommand(wb.page, 'Go to File');
    await wb.page.keyboard.type('math.ts');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'math.ts' }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.tab.active', { hasText: 'math.ts' }).waitFor();
    assert.ok(await eventually(() => wb.page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor')))), 'the editor has the focus');
  }

  it("Ctrl+' in the editor focuses the chat input; Ctrl+Shift+' puts the editor's selection in it", async () => {
    await openMathInEditor();
    await wb.page.keyboard.press('Control+Home');
    await wb.page.keyboard.press('Shift+End'); // line 1: export const PI = 3.14159;
    await wb.page.keyboard.press("Control+Shift+'");
    assert.ok(await eventually(async () => (await input().inputValue()).includes('export const PI = 3.14159;')), 'the selection reached the chat input');
    assert.match(await input().inputValue(), /`math\.ts` line 1:\n```typescript\nexport const PI = 3\.14159;\n```/);
    await input().fill('');

    await openMathInEditor();
    assert.equal(await inputFocused(), false, 'the editor has the focus');
    await wb.page.keyboard.press("Control+'");
    assert.ok(await eventually(inputFocused), 'the chat input has the focus');
    await wb.screenshot('habits-focus-chat');
  });

  it('Shift+Tab moves the focus out of the chat input, and leaves the mode as it was', async () => {
    await input().click();
    assert.ok(await eventually(inputFocused));
    await input().press('Shift+Tab');
    assert.ok(await eventually(async () => !(await inputFocused())), 'the focus left the input');
    assert.equal(await chat.locator('#mode').getAttribute('data-mode'), 'normal', 'Shift+Tab no longer switches the mode');
    await wb.screenshot('habits-shift-tab-left-input');
  });

  it('with the slash list open, Shift+Tab moves in the list and the input keeps the focus', async () => {
    await input().click();
    await input().fill('/');
    const options = chat.locator('#suggestions [role="option"]');
    await options.first().waitFor();
    await input().press('ArrowDown');
    const second = await options.nth(1).getAttribute('id');
    assert.equal(await chat.locator('#input').getAttribute('aria-activedescendant'), second);
    await input().press('Shift+Tab');
    assert.equal(await chat.locator('#input').getAttribute('aria-activedescendant'), await options.first().getAttribute('id'), 'back up the list');
    assert.equal(await inputFocused(), true, 'the input keeps the focus');
    await input().press('Escape');
    await input().fill('');
  });

  it('Alt+M in the input switches to plan mode and back, typing nothing', async () => {
    await input().click();
    await input().press('Alt+m');
    await chat.locator('#mode[data-mode="plan"]').waitFor();
    await wb.screenshot('habits-alt-m-plan-mode');
    assert.equal(await input().inputValue(), '');
    assert.match((await chat.locator('#mode').getAttribute('title')) ?? '', /Alt\+M/);
    await input().press('Alt+m');
    await chat.locator('#mode[data-mode="normal"]').waitFor();
  });

  /**
   * The palette filtered by `>Proposed Changes` (the two review commands' common words): the titles
   * of the review commands among the rows it lists once it has filtered ([]: none). The
   * palette is first shown to know OpenDev's commands (one that is always there is listed).
   */
  async function reviewCommandsInPalette(): Promise<string[]> {
    const box = wb.page.locator('.quick-input-widget .quick-input-box input');
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await wb.page.keyboard.press('F1');
    await box.fill('>OpenDev: Show Diff of Last Edit');
    await rows.filter({ hasText: 'Show Diff of Last Edit' }).first().waitFor();
    await box.fill('>Proposed Changes');
    // Filtered: the row of the first filter is gone, and the list shows what this one finds (the
    // matches, or VS Code's "similar commands" / "No matching commands" row).
    await rows.filter({ hasText: 'Show Diff of Last Edit' }).first().waitFor({ state: 'detached' });
    await rows.first().waitFor();
    const titles = (await rows.allTextContents()).filter((t) => /Proposed Changes/.test(t)).map((t) => (/(Accept|Reject) All Proposed Changes/.exec(t) ?? [t])[0]);
    return titles;
  }

  it('the review commands are in the palette only while a change waits for review', async () => {
    assert.deepEqual(await reviewCommandsInPalette(), [], 'no review open: neither Accept All nor Reject All is offered');
    await wb.screenshot('habits-no-review-commands');
    await host.closeQuickInput(wb.page);

    // math.ts is open in an editor, as a user reviewing it would have it.
    await openMathInEditor();
    await input().fill('review this edit');
    await input().press('Enter');
    await chat.locator('.entry.approval[data-state="pending"]').waitFor();
    await wb.page.locator('.tab', { hasText: 'math.ts: current ↔ proposed by OpenDev' }).waitFor();
    assert.deepEqual((await reviewCommandsInPalette()).sort(), ['Accept All Proposed Changes', 'Reject All Proposed Changes']);
    await wb.screenshot('habits-review-commands');
    // Reject All from the palette ends the review: the card is answered and the commands go again.
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Reject All Proposed Changes' }).click();
    await chat.locator('.entry.approval[data-state="answered"]', { hasText: '✗ Denied' }).waitFor();
    await chat.locator('#send').waitFor(); // the turn is over (whatever the model said after the refusal)
    assert.equal(readFileSync(join(wb.workspace, 'math.ts'), 'utf8'), MATH, 'rejected: math.ts as it was');
    assert.ok(await eventually(async () => {
      const offered = await reviewCommandsInPalette();
      await host.closeQuickInput(wb.page);
      return offered.length === 0;
    }), 'the review commands left the palette with the review');
    await wb.page.locator('.tab.active', { hasText: /^math\.ts/ }).waitFor();
    const lenses = wb.page.locator('.editor-group-container .codelens-decoration', { hasText: 'OpenDev' });
    assert.ok(await eventually(async () => (await lenses.count()) === 0), 'math.ts shows no review lens once the review is over');
  });
  it('"Explain with OpenDev" in a terminal\'s context menu sends the selected output to the chat', async () => {
    await host.runCommand(wb.page, 'Terminal: Create New Terminal');
    const terminal = wb.page.locator('.terminal-wrapper.active');
    await terminal.waitFor();
    // The output differs from the line typed: what is sent is what the shell printed.
    await terminal.locator('.xterm-helper-textarea').focus();
    await wb.page.keyboard.type('echo explain-$((6*7))-done');
    await wb.page.keyboard.press('Enter');
    await waitTerminal(terminal, /explain-42-done/);
    // Double-click the printed word, as a user selects it, then right-click it. Raw mouse events at its
    // place: the terminal's widget layer lies over the rows and takes a locator's click.
    const printed = terminal.locator('.xterm-rows > div', { hasText: /^explain-42-done\s*$/ });
    await printed.waitFor();
    const row = (await printed.boundingBox())!;
    const x = row.x + 20;
    const y = row.y + row.height / 2;
    await wb.page.mouse.dblclick(x, y);
    await wb.page.mouse.click(x, y, { button: 'right' });
    const item = wb.page.locator('.context-view .monaco-menu .action-item', { hasText: 'Explain with OpenDev' });
    await item.waitFor();
    await wb.screenshot('habits-terminal-menu');

    const before = fake.requests.length;
    await item.click();
    assert.ok(await eventually(async () => fake.requests.length > before), 'the request reached the model');
    const prompt = lastUserText(fake.requests.at(-1)!);
    assert.match(prompt, /^Explain this output from my terminal/);
    assert.match(prompt, /\nexplain-42-done\n/, 'the selected output is in the message');
    assert.doesNotMatch(prompt, /echo explain/, 'only the selection: not the line typed');
    await chat.locator('.entry.user', { hasText: 'explain-42-done' }).waitFor();
    await chat.locator('.entry.assistant', { hasText: 'echo: Explain this output from my terminal' }).waitFor();
    await wb.screenshot('habits-terminal-explained');
    await host.runCommand(wb.page, 'Terminal: Kill All Terminals');
  });
});
