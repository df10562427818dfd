import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { SessionStore } from '../../src/core/session/session-store';
import { join } from 'node:path';
import { FakeProvider, lastUserText, toolResults, type RecordedRequest, type ScriptedTurn } from '../fixtures/fake-provider';
import { longChatMessages, saveLongChat } from '../fixtures/long-chat';
import { eventually, loadE2eHost, type E2eHost, type Workbench, storeApiKey } from './host';

// Browser globals used inside frame.evaluate callbacks: this file is typechecked without the DOM lib.
declare const document: any, window: any;

/**
 * The chat panel's history view and a long chat, as a user drives them in the real workbench:
 * search and resume a saved session (the transcript rebuilt, the next turn in the same session),
 * delete one after confirming, a 2,000-entry session that renders only what is near the viewport,
 * and the panel's state (scroll position, draft, open history view) surviving hide/show.
 */
/** Echoes, except "write two notes": one file per step, then an answer. */
function respond(req: RecordedRequest): ScriptedTurn {
  if (lastUserText(req) !== 'write two notes' && toolResults(req).length === 0) return { text: `echo: ${lastUserText(req)}` };
  const calls: Array<{ role: string; tool_calls?: unknown[] }> = req.body?.messages ?? [];
  const written = calls.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
  if (written === 0) return { toolCalls: [{ name: 'write_file', arguments: { file_path: 'a.txt', content: 'first\n' } }] };
  if (written === 1) return { toolCalls: [{ name: 'write_file', arguments: { file_path: 'b.txt', content: 'second\n' } }] };
  return { text: 'Wrote two notes.' };
}

describe('chat history and long chats (end to end)', function () {
  this.timeout(240_000);
  const fake = new FakeProvider({ responder: respond });
  // The extension host inherits this process's OPENDEV_HOME: sessions saved here are the project's.
  const store = new SessionStore();
  let host: E2eHost;
  let wb: Workbench;
  let chat: Frame;
  const ids: Record<string, string> = {};

  before(async () => {
    assert.ok(process.env.OPENDEV_HOME, 'OPENDEV_HOME is set (test/run.mjs sets it): the test must not touch ~/.opendev');
    await fake.start();
    host = await loadE2eHost();
    wb = await host.openWorkbench({ userSettings: { 'opendev.baseUrl': fake.openaiBaseUrl, 'opendev.thinkingLevel': 'off', 'opendev.approvalLevel': 'auto' } });
    ids.parser = await saveLongChat(store, wb.workspace, [
      { role: 'user', content: 'The JSON parser crashes on empty arrays' },
      { role: 'assistant', content: 'Let me look at the parser.', toolCalls: [{ id: 'call_p1', name: 'read_file', arguments: '{"file_path":"math.ts"}' }] },
      { role: 'tool', toolCallId: 'call_p1', name: 'read_file', content: 'export const PI = 3.14159;', isError: false, summary: '✓ Read math.ts (9 lines)' },
      { role: 'assistant', content: 'The parser needs a guard for `[]`.', toolCalls: [] },
    ], 'Fix the parser');
    ids.release = await saveLongChat(store, wb.workspace, longChatMessages(8), 'Release notes for 1.2');
    ids.long = await saveLongChat(store, wb.workspace, longChatMessages(2000), 'A very long session');
    await storeApiKey(host, wb.page, 'sk-e2e-history-key');
    await host.runCommand(wb.page, 'OpenDev: New Chat');
    chat = await findChat();
  });
  after(async () => {
    await wb?.close();
    await fake.stop();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  const findChat = () => host.findFrame(wb.page, async (f) => (await f.locator('vscode-textarea[aria-label="Ask OpenDev"]').count()) > 0, 60_000);
  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  const search = () => chat.locator('input[aria-label="Search sessions by title or first message"]');
  const rows = () => chat.locator('#history .session');

  /** activeElement, not :focus: the workbench may hold the window's focus (a notification), which :focus follows. */
  const confirmFocused = () => rows().locator('[data-action="confirm-delete"]').evaluate((el) => el === document.activeElement, undefined, { timeout: 1000 }).catch(() => false);
  const focusedElement = () => chat.evaluate(() => {
    const el = document.activeElement;
    return el ? `<${el.tagName.toLowerCase()}${el.id ? ` id=${el.id}` : ''}${el.dataset?.action ? ` data-action=${el.dataset.action}` : ''}>` : 'nothing';
  });

  async function openHistory(): Promise<void> {
    if (!(await search().isVisible())) await chat.locator('#history-open').click();
    await search().waitFor({ state: 'visible' });
    await chat.locator('.history-status', { hasText: /sessions, newest first|match/ }).waitFor();
  }

  it('the history view searches the sessions by title and first message and resumes one, keyboard only', async () => {
    await openHistory();
    assert.equal(await rows().count(), 3);
    assert.equal(await chat.locator('#transcript').isVisible(), false, 'the history view takes the panel’s place');
    assert.equal(await search().evaluate((el) => el === document.activeElement), true, 'the search box has the focus');
    const long = rows().filter({ hasText: 'A very long session' });
    assert.match((await long.textContent()) ?? '', /2000 messages · \$1\.75/);

    await search().fill('EMPTY arrays');
    await rows().filter({ hasText: 'Fix the parser' }).waitFor();
    assert.equal(await rows().count(), 1, 'only the session whose first message matches');
    await wb.screenshot('session-history');

    await search().press('ArrowDown');
    assert.equal(await rows().first().evaluate((el) => el === document.activeElement), true, '↓ moves into the list');
    await rows().first().press('Enter');
    await chat.locator('.entry.notice', { hasText: `Resumed session ${ids.parser}` }).waitFor();
    assert.equal(await chat.locator('#history').isVisible(), false);
    // The transcript is rebuilt from the saved messages: the user's words, a tool card with its summary, the answers.
    assert.equal(await chat.locator('.entry.user').first().textContent(), 'The JSON parser crashes on empty arrays');
    assert.equal(await chat.locator('.entry.tool .tool-headline').textContent(), 'Read math.ts · 9 lines');
    assert.equal(await chat.locator('.entry.tool code.tool-name').textContent(), 'read_file');
    assert.match((await chat.locator('.entry.assistant').last().textContent()) ?? '', /guard for \[\]/);

    await input().fill('and now?');
    await input().press('Enter');
    await chat.locator('.entry.assistant', { hasText: 'echo: and now?' }).waitFor();
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /crashes on empty arrays/, 'the model has the conversation back');
    const deadline = Date.now() + 10_000;
    while ((await store.load(ids.parser!, wb.workspace))?.messages.length !== 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal((await store.load(ids.parser!, wb.workspace))?.messages.length, 6, 'the next turn is saved in the same session');
  });

  it('deleting a session asks first; Cancel keeps it, Delete removes it', async () => {
    await openHistory();
    const release = rows().filter({ hasText: 'Release notes for 1.2' });
    await release.locator('[data-action="delete"]').click();
    const confirm = release.locator('[data-action="confirm-delete"]');
    await confirm.waitFor();
    assert.ok(await eventually(confirmFocused), `the question has the focus, not ${await focusedElement()}`);
    // A list that arrives now (the answer to opening the view, late on a busy machine) keeps the question and its focus.
    const late = (await store.list(wb.workspace)).map((m) => ({ id: m.id, title: m.title, firstPrompt: '', createdAt: m.createdAt, updatedAt: m.updatedAt, messageCount: m.messageCount }));
    await chat.evaluate((items) => window.dispatchEvent(new MessageEvent('message', { data: { type: 'sessions', items } })), late);
    assert.ok(await eventually(confirmFocused), `the question keeps the focus, not ${await focusedElement()}`);
    await release.locator('[data-action="cancel-delete"]').click();
    assert.equal(await release.locator('[data-action="confirm-delete"]').count(), 0);
    assert.ok(await store.load(ids.release!, wb.workspace), 'Cancel deletes nothing');

    await release.focus();
    await release.press('Delete');
    await release.locator('[data-action="confirm-delete"]').click();
    await release.waitFor({ state: 'detached' });
    assert.equal(await store.load(ids.release!, wb.workspace), undefined);
    assert.equal(existsSync(store.projectDir(wb.workspace)), true);
    assert.equal(await rows().filter({ hasText: 'current' }).locator('[data-action="delete"]').count(), 0, 'the open chat cannot be deleted');
    await search().press('Escape'); // back to the chat
    await chat.locator('#transcript').waitFor({ state: 'visible' });
  });

  it('Restore to here on a step’s card asks first, then puts the files back; the card says the step is undone', async () => {
    await host.runCommand(wb.page, 'OpenDev: New Chat');
    await input().fill('write two notes');
    await input().press('Enter');
    await chat.locator('.entry.assistant', { hasText: 'Wrote two notes.' }).waitFor();
    const second = chat.locator('.entry.tool', { hasText: 'b.txt' });
    const restore = second.locator('[data-action="restore"]');
    await restore.waitFor();
    assert.equal(await chat.locator('[data-action="restore"]').count(), 2, 'one action per step that changed files');
    assert.equal(readFileSync(join(wb.workspace, 'b.txt'), 'utf8'), 'second\n');

    await restore.click();
    const confirm = second.locator('[data-action="confirm-restore"]');
    await confirm.waitFor();
    assert.match((await second.locator('.restore-confirm').textContent()) ?? '', /just before step 2\? This step and every later one are undone/);
    await wb.screenshot('restore-to-here');
    await second.locator('[data-action="cancel-restore"]').click();
    assert.equal(existsSync(join(wb.workspace, 'b.txt')), true, 'Cancel restores nothing');

    await restore.click();
    await confirm.click();
    await chat.locator('.entry.notice', { hasText: 'Restored the files to just before step 2.' }).waitFor();
    await second.locator('.restore-undone', { hasText: 'Step 2 undone' }).waitFor();
    assert.equal(existsSync(join(wb.workspace, 'b.txt')), false, 'the file step 2 created is gone');
    assert.equal(readFileSync(join(wb.workspace, 'a.txt'), 'utf8'), 'first\n', 'step 1 stays');
  });

  it('a 2,000-entry session renders only what is near the viewport, scrolls end to end, and keeps the end in view', async () => {
    await openHistory();
    await search().fill('very long');
    await rows().first().click();
    const last = chat.locator('.entry.assistant', { hasText: 'That is all for question 500.' });
    await last.waitFor();
    const rendered = async () => chat.locator('#transcript .entry').count();
    const total = await rendered();
    assert.ok(total <= 120, `at most 120 entries in the DOM, not 2,001 (${total})`);
    await until(async () => inView(last), 'the end of the session in view');

    // To the top, with the keyboard: the first entries are rendered there, the end ones are not.
    const transcript = chat.locator('#transcript');
    await until(async () => {
      await transcript.focus();
      return transcript.evaluate((el) => document.hasFocus() && document.activeElement === el);
    }, 'the transcript has the keyboard focus (not the workbench)');
    await transcript.press('Control+Home');
    const first = chat.locator('.entry.user', { hasText: 'Question 1: what does math.ts do' });
    await until(async () => (await first.count()) === 1 && inView(first), 'the first question rendered and in view');
    assert.equal(await last.count(), 0, 'the end is no longer in the DOM');
    assert.ok((await rendered()) <= 120);

    // The middle, by dragging the scroll position.
    await chat.locator('#transcript').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await until(async () => (await chat.locator('.entry.user', { hasText: /Question 2[45]\d:/ }).count()) > 0, 'questions around 250 rendered');
    assert.ok((await rendered()) <= 120);

    // The input still answers while the long chat is shown, and a new answer brings the end back.
    await input().fill('one more');
    await input().press('Enter');
    const reply = chat.locator('.entry.assistant', { hasText: 'echo: one more' });
    await reply.waitFor();
    await until(async () => inView(reply), 'the new answer in view');
    assert.ok((await rendered()) <= 120);
    await wb.screenshot('long-chat-end');
  });

  it('the panel comes back as it was after hide/show: scroll position, draft, and the history view', async () => {
    await chat.locator('#transcript').evaluate((el) => (el.scrollTop = el.scrollHeight * 0.3));
    // The scroll event is handled, and the window rendered at the new place, before the next frames.
    await chat.evaluate(() => {
      const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number }).requestAnimationFrame;
      return new Promise<void>((resolve) => frame(() => frame(resolve)));
    });
    const anchor = await chat.evaluate(() => {
      const box = document.getElementById('transcript')!.getBoundingClientRect();
      const entry = ([...document.querySelectorAll('#transcript .entry')] as Array<{ dataset: { id: string }; getBoundingClientRect(): { top: number; bottom: number } }>).find((e) => e.getBoundingClientRect().bottom > box.top + 1)!;
      return { id: entry.dataset.id!, offset: Math.round(entry.getBoundingClientRect().top - box.top) };
    });
    await input().fill('a draft I have not sent');
    await chat.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    chat = await findChat();
    await until(async () => (await chat.locator(`#transcript .entry[data-id="${anchor.id}"]`).count()) === 1, 'the entry that was at the top rendered again');
    assert.equal(await chat.evaluate(() => (window as unknown as { marker?: number }).marker), undefined, 'the view was really reloaded');
    const offset = await chat.evaluate((id) => {
      const box = document.getElementById('transcript')!.getBoundingClientRect();
      return Math.round(document.querySelector(`#transcript .entry[data-id="${id}"]`)!.getBoundingClientRect().top - box.top);
    }, anchor.id);
    assert.ok(Math.abs(offset - anchor.offset) <= 4, `the same entry at the same place (${offset} vs ${anchor.offset})`);
    assert.equal(await input().inputValue(), 'a draft I have not sent');
    assert.ok((await chat.locator('#transcript .entry').count()) <= 120);

    await openHistory();
    await search().fill('parser');
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    await host.runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    chat = await findChat();
    await search().waitFor({ state: 'visible' });
    assert.equal(await search().inputValue(), 'parser');
    await rows().filter({ hasText: 'Fix the parser' }).waitFor();
    assert.equal(await rows().count(), 1);
  });

  async function inView(locator: ReturnType<Frame['locator']>): Promise<boolean> {
    return locator.evaluate((el) => {
      const box = document.getElementById('transcript')!.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
  }

  async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
