import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { chatSuite, eventually, readmeScreenshot, type Workbench } from '../host';
import { FakeProvider, lastUserText, toolResults, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';

/**
 * Inline diff approval as a user sees it: the edit opens in the diff editor beside math.ts with
 * Accept / Reject CodeLens per change and for all of it, answered by clicking the lenses; the chat
 * card follows, and the finished edit offers its diff again.
 */

const MATH = readFileSync(join(__dirname, '../../../../test/fixtures/workspace/math.ts'), 'utf8');
const PROPOSED = MATH.replace('export const PI = 3.14159;', 'export const PI = Math.PI;').replace(
  'export function subtract(a: number, b: number): number {\n  return a - b;\n}',
  'export function subtract(a: number, b: number): number {\n  return a - b;\n}\n\nexport function multiply(a: number, b: number): number {\n  return a * b;\n}',
);

type Message = { role: string; content?: unknown; tool_calls?: unknown[] };
const isTask = (m: Message) => m.role === 'user' && typeof m.content === 'string' && /^improve math/.test(m.content);
/** The tool calls made so far for the latest "improve math…" task (each test asks once). */
function calls(req: RecordedRequest): number {
  const messages = (req.body?.messages ?? []) as Message[];
  let task = messages.length - 1;
  while (task >= 0 && !isTask(messages[task]!)) task--;
  return task < 0 ? 0 : messages.slice(task).filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
}

function respond(req: RecordedRequest): ScriptedTurn {
  if (!/^improve math/.test(lastUserText(req)) && calls(req) === 0) return { text: `echo: ${lastUserText(req)}` };
  switch (calls(req)) {
    case 0:
      return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] };
    case 1:
      return { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: MATH.trimEnd(), new_content: PROPOSED.trimEnd() } }] };
    default:
      return { text: `Edit result: ${toolResults(req).at(-1)?.content.split('\n')[0] ?? ''}` };
  }
}

describe('inline diff approval (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  let wb: Workbench;
  let chat: Frame;

  // VS Code's default dark theme: the screenshots show the card as most users see it.
  const suite = chatSuite(fake, { shared: true, apiKey: 'sk-e2e-test-key' });
  before(() => {
    ({ wb, chat } = suite);
  });

  it('shows the edit in the diff editor with CodeLens; Accept on change 1 and Reject on change 2 apply exactly change 1', async () => {
    // The user has math.ts open; the diff opens beside it.
    await wb.page.keyboard.press('F1');
    const quickOpen = wb.page.locator('.quick-input-widget .quick-input-box input');
    await quickOpen.waitFor();
    await quickOpen.fill('math.ts'); // without the '>' prefix the palette searches files
    await wb.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'math.ts' }).waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.tab.active', { hasText: 'math.ts' }).waitFor();

    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill('improve math.ts');
    await input.press('Enter');

    const diff = wb.page.locator('.monaco-diff-editor');
    await diff.waitFor();
    const lenses = wb.page.locator('.monaco-diff-editor .editor.modified .codelens-decoration');
    await lenses.filter({ hasText: 'Accept All' }).first().waitFor();
    await lenses.filter({ hasText: '✓ Accept 2' }).first().waitFor();
    // The user's own editor of math.ts marks the lines the edit touches and has the lenses too.
    const own = wb.page.locator('.editor-instance .monaco-editor:not(.original-in-monaco-diff-editor):not(.modified-in-monaco-diff-editor)').first();
    await own.locator('.codelens-decoration', { hasText: 'Show Diff' }).first().waitFor();
    const card = chat.locator('.entry.approval[data-state="pending"]');
    await card.waitFor();
    assert.equal(await card.locator('vscode-button[data-action="allow"]').textContent(), 'Accept All', 'the card answers the same request');
    // The card says what will happen in words; the raw call (the tool's name) is one click away.
    assert.equal(await card.locator('.card-title').textContent(), 'Edit math.ts?');
    assert.equal(await card.locator('.card-head').textContent(), '⚠Approval needed');
    const call = card.locator('details.card-args');
    assert.equal(await call.locator('.tool-name').isVisible(), false, 'the raw call starts closed');
    await call.locator('summary').click();
    assert.equal(await call.locator('.tool-name').textContent(), 'edit_file');
    assert.equal(readFileSync(join(wb.workspace, 'math.ts'), 'utf8'), MATH, 'nothing written before the answer');
    await wb.screenshot('inline-diff-approval');

    // The user closes their editor: the diff gets the width for its two sides (narrow, it shows inline).
    await wb.page.locator('.tab', { hasText: /^math\.ts$/ }).locator('.tab-actions .action-label[aria-label^="Close"]').click();
    await wb.page.locator('.monaco-diff-editor.side-by-side').waitFor();
    await readmeScreenshot(suite.host, wb, 'chat-diff-approval');
    // At this 1400 px window, with the chat beside it, the whole lens row fits: Reject of change 1 is not clipped.
    // The lenses are drawn again when the editor's language service settles: measure one that is drawn.
    const boxes = async () => ({
      modified: await wb.page.locator('.monaco-diff-editor .editor.modified').first().boundingBox(),
      reject1: await lenses.locator('a', { hasText: /^✗ Reject 1$/ }).first().boundingBox(),
    });
    let measured = await boxes();
    assert.ok(await eventually(async () => Boolean((measured = await boxes()).modified && measured.reject1)), 'the lens row and the diff are drawn');
    const { modified, reject1 } = measured;
    assert.ok(modified && reject1 && reject1.x + reject1.width <= modified.x + modified.width, `the lens row fits (${JSON.stringify({ modified, reject1 })})`);
    // CodeLens links are anchors inside the decoration. Change 1 decided there shows in the chat card at once.
    await lenses.locator('a', { hasText: /^✓ Accept 1$/ }).first().click();
    await lenses.filter({ hasText: '✓ Accepted 1' }).first().waitFor();
    await card.locator('section.hunk[data-index="0"][data-verdict="accepted"]').waitFor();
    assert.match((await card.locator('.hunk-progress').textContent()) ?? '', /^1 of 2 changes decided$/);
    await wb.screenshot('inline-diff-approval-one-decided');
    // Change 2 decided in the card shows on the lens; the card's Submit answers with both.
    await card.locator('vscode-button[aria-label="Reject change 2"]').click();
    await lenses.filter({ hasText: '✗ Rejected 2' }).first().waitFor();
    await wb.screenshot('inline-diff-approval-card-and-lens-agree');
    await card.locator('vscode-button[data-action="submit-hunks"]').click();

    await chat.locator('.entry.assistant', { hasText: 'Edit result' }).last().waitFor();
    await diff.waitFor({ state: 'detached' });
    const written = readFileSync(join(wb.workspace, 'math.ts'), 'utf8');
    assert.equal(written, MATH.replace('export const PI = 3.14159;', 'export const PI = Math.PI;'));
    const answered = chat.locator('.entry.approval[data-state="answered"]').last();
    assert.match((await answered.textContent()) ?? '', /Applied change 1 of 2; rejected 2/);
    const result = chat.locator('.entry.tool', { hasText: 'Edited math.ts' }).last();
    assert.match((await result.locator('summary.tool-detail').textContent()) ?? '', /Edited math\.ts · \+1 −1 · 1 of 2 changes rejected/);

    // The finished edit offers its diff again from its card.
    await result.locator('vscode-button[data-action="show-diff"]').click();
    await wb.page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'Math.PI' }).waitFor();
    await wb.page.locator('.monaco-diff-editor .editor.original .view-line', { hasText: '3.14159' }).waitFor();
    assert.equal(await wb.page.locator('.monaco-diff-editor .view-line', { hasText: 'multiply' }).count(), 0, 'the diff shows what was applied');
    await wb.screenshot('inline-diff-approval-show-diff');
  });

  it('the chat card decides the same edit change by change: Reject change 1, Accept change 2 (by keyboard), Submit', async () => {
    writeFileSync(join(wb.workspace, 'math.ts'), MATH);
    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill('improve math.ts, decided in the chat');
    await input.press('Enter');

    const card = chat.locator('.entry.approval[data-state="pending"]');
    await card.waitFor();
    const hunks = card.locator('section.hunk');
    await hunks.nth(1).waitFor();
    assert.equal(await hunks.count(), 2, 'one section per change, as the CodeLens counts them');
    assert.match((await hunks.nth(0).textContent()) ?? '', /Change 1 of 2\s*line 1 · \+1 −1[\s\S]*-export const PI = 3\.14159;\s*\+export const PI = Math\.PI;/);
    assert.match((await hunks.nth(1).textContent()) ?? '', /Change 2 of 2\s*after line 8 · \+4[\s\S]*\+export function multiply/);
    // The same request waits in the diff editor too.
    const proposalTab = wb.page.locator('.tab', { hasText: 'math.ts: current ↔ proposed by OpenDev' });
    await proposalTab.waitFor();
    await wb.page.locator('.monaco-diff-editor .codelens-decoration', { hasText: '✓ Accept 2' }).first().waitFor();
    const submit = card.locator('vscode-button[data-action="submit-hunks"]');
    assert.equal(await submit.getAttribute('disabled'), '', 'Submit waits until every change is decided');
    assert.match((await card.locator('.hunk-progress').textContent()) ?? '', /^0 of 2 changes decided$/);

    // The card as drawn now is marked: the extension's answer to the press draws it anew, unmarked.
    await hunks.nth(0).evaluate((el) => el.setAttribute('data-e2e-drawn-before', ''));
    const reject1 = hunks.nth(0).locator('vscode-button[aria-label="Reject change 1"]');
    await reject1.click();
    assert.equal(await hunks.nth(0).getAttribute('data-verdict'), 'rejected');
    assert.equal(await reject1.getAttribute('aria-pressed'), 'true');
    // The extension confirms: the card comes again with its verdict. Waited for, so it is not redrawn
    // under the keys below (on a busy machine the answer came between two Tabs).
    await card.locator('section.hunk[data-verdict="rejected"]:not([data-e2e-drawn-before])').waitFor();
    // From the keyboard: Tab from Reject change 1 reaches change 2's buttons; Space presses.
    const focusedIn = (el: { ownerDocument: { activeElement: unknown; hasFocus(): boolean } }) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus();
    await reject1.focus();
    assert.ok(await eventually(() => reject1.evaluate(focusedIn)), 'Reject change 1 has the focus');
    const accept2 = hunks.nth(1).locator('vscode-button[aria-label="Accept change 2"]');
    for (let tabs = 0; tabs < 4 && !(await accept2.evaluate(focusedIn)); tabs++) await wb.page.keyboard.press('Tab');
    assert.equal(await accept2.evaluate(focusedIn), true, 'Accept change 2 is reached with Tab');
    await wb.page.keyboard.press('Space');
    assert.equal(await hunks.nth(1).getAttribute('data-verdict'), 'accepted');
    assert.match((await card.locator('.hunk-progress').textContent()) ?? '', /^Apply 1 of 2 changes, reject 1$/);
    assert.equal(await submit.getAttribute('disabled'), null);
    assert.equal(readFileSync(join(wb.workspace, 'math.ts'), 'utf8'), MATH, 'nothing written before Submit');
    await wb.screenshot('chat-per-hunk-approval');
    await card.screenshot({ path: join(__dirname, '../../../../test/e2e/screenshots/chat-per-hunk-card.png') });

    const requestsBefore = fake.requests.length;
    await submit.click();
    await chat.locator('.entry.assistant', { hasText: /^Edit result: .*\(hunk 2\)/ }).waitFor();
    // Answered in the chat: the diff editor and its lenses go.
    await proposalTab.waitFor({ state: 'detached' });
    await wb.page.locator('.codelens-decoration', { hasText: 'Accept All' }).first().waitFor({ state: 'detached' });
    const onlyChange2 = PROPOSED.replace('export const PI = Math.PI;', 'export const PI = 3.14159;');
    assert.equal(readFileSync(join(wb.workspace, 'math.ts'), 'utf8'), onlyChange2, 'exactly change 2 was applied');
    const answered = chat.locator('.entry.approval[data-state="answered"]').last();
    assert.match((await answered.locator('.card-outcome').textContent()) ?? '', /^✓ Applied change 2 of 2; rejected 1$/);

    // The model hears precisely which change was left out.
    const followUp = fake.requests.slice(requestsBefore).find((r) => toolResults(r).length > 0)!;
    const told = toolResults(followUp).at(-1)!.content;
    assert.match(told, /1 of 2 hunks were applied \(hunk 2\)/);
    assert.match(told, /Rejected hunk 1 of 2: original line 1[\s\S]*-export const PI = 3\.14159;\n\+export const PI = Math\.PI;/);
    assert.doesNotMatch(told, /Rejected hunk 2/);
  });
});
