import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { chatSuite, type Workbench } from '../host';
import { FakeProvider, lastUserText, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';
import { makePng } from '../../helpers/png';

/**
 * The chat input beyond text, driven like a user in the real workbench: `@` completion and the
 * mention chip, a pasted image as vision input, the background-task indicator, and an
 * accessibility audit of the panel (names, keyboard, focus). The fake model (gpt-4.1, which reads
 * images) answers from what it is sent.
 */

// Browser globals used inside frame.evaluate callbacks: this file is typechecked without the DOM lib.
declare const document: any, DataTransfer: any, File: any, ClipboardEvent: any, getComputedStyle: any;

const IMAGE = makePng(64, 48, (x, y) => [x * 4, 80 + y * 3, 200 - x * 2]).toString('base64');

const imageParts = (req: RecordedRequest) =>
  (req.body?.messages ?? []).flatMap((m: { content?: unknown }) => (Array.isArray(m.content) ? m.content.filter((p: { type?: string }) => p.type === 'image_url') : []));

/** Whether a tool has answered since the user's message that starts with `key`. */
function toolRanSince(req: RecordedRequest, key: string): boolean {
  const messages: Array<{ role: string; content?: unknown }> = req.body?.messages ?? [];
  const text = (m: { content?: unknown }) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? '').join('') : '');
  const start = messages.map((m) => m.role === 'user' && text(m).startsWith(key)).lastIndexOf(true);
  return start >= 0 && messages.slice(start).some((m) => m.role === 'tool');
}

function respond(req: RecordedRequest): ScriptedTurn {
  const text = lastUserText(req);
  // The subagent's own conversation starts with its task: it answers slowly, so it is seen running.
  if (text.startsWith('Find where PI is defined')) return { text: 'PI is defined in math.ts, line 1.', chunkDelayMs: 2_500 };
  if (/^explore PI/.test(text)) {
    return toolRanSince(req, 'explore PI') ? { text: 'The explorer found it.' } : { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Code-Explorer', task: 'Find where PI is defined in this workspace and report the file and line.' } }] };
  }
  if (/^start the server/.test(text)) {
    return toolRanSince(req, 'start the server') ? { text: 'The server runs in the background.' } : { toolCalls: [{ name: 'run_command', arguments: { command: 'echo serving; exec sleep 120', background: true } }] };
  }
  const lastUser = [...(req.body?.messages ?? [])].reverse().find((m: { role: string }) => m.role === 'user');
  if (Array.isArray(lastUser?.content) && lastUser.content.some((p: { type?: string }) => p.type === 'image_url')) return { text: 'I see a colour gradient.' };
  if (/<file path="math\.ts">/.test(text)) return { text: 'math.ts exports PI, add and subtract.' };
  return { text: `echo: ${text.split('\n')[0]}` };
}

describe('chat view: @ mentions, images, indicators, accessibility (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  let wb: Workbench;
  let chat: Frame;

  const suite = chatSuite(fake, { shared: true, apiKey: 'sk-e2e-test-key' });
  before(() => {
    ({ wb, chat } = suite);
  });

  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  const options = () => chat.locator('#suggestions [role="option"]');
  async function idle(): Promise<void> {
    await chat.locator('#send').waitFor({ state: 'visible' });
  }

  it('typing @ma lists math.ts; Enter inserts it; the sent message shows the chip and the model receives the file', async () => {
    await input().fill('explain @ma');
    await options().first().filter({ hasText: 'math.ts' }).waitFor();
    assert.equal(await options().first().getAttribute('aria-selected'), 'true');
    assert.equal(await chat.locator('#suggestions').getAttribute('role'), 'listbox');
    assert.equal(await chat.locator('#input').getAttribute('aria-activedescendant'), await options().first().getAttribute('id'));
    await wb.screenshot('mentions');

    await input().press('Enter');
    assert.equal(await input().inputValue(), 'explain @math.ts ');
    assert.equal(await chat.locator('#suggestions').isHidden(), true, 'the list closes once a path is picked');
    await input().press('End');
    await input().pressSequentially('please');
    await input().press('Enter');

    const chip = chat.locator('.entry.user .mention-chip');
    await chip.waitFor();
    assert.equal(await chip.textContent(), '@math.ts');
    assert.equal(await chip.getAttribute('aria-label'), 'Attached file math.ts');
    await chat.locator('.entry.assistant', { hasText: 'math.ts exports PI, add and subtract.' }).waitFor();
    const sent = lastUserText(fake.requests.at(-1)!);
    assert.match(sent, /^explain @math\.ts please\n\n<mentioned_context>[\s\S]*<file path="math\.ts">[\s\S]*export function subtract/);
    await idle();
    await wb.screenshot('mention-sent');
  });

  it('Escape closes the suggestion list without stopping anything; arrows move the highlight', async () => {
    await input().fill('look at @');
    await options().nth(2).waitFor();
    assert.deepEqual(await options().locator('.suggestion-name').allTextContents().then((t) => t.slice(0, 3)), ['problems', 'terminal', 'git']);
    await input().press('ArrowDown');
    assert.equal(await options().nth(1).getAttribute('aria-selected'), 'true');
    assert.equal(await chat.locator('#input').getAttribute('aria-activedescendant'), await options().nth(1).getAttribute('id'));
    await input().press('Escape');
    await chat.locator('#suggestions').waitFor({ state: 'hidden' });
    assert.equal(await input().inputValue(), 'look at @', 'the text stays');
    await input().fill('');
  });

  it('typing / lists every command with its description, and its arguments after the name', async () => {
    await input().fill('/');
    await options().nth(14).waitFor();
    const names = await options().locator('.suggestion-name').allTextContents();
    for (const name of ['compact', 'undo', 'sessions', 'models', 'thinking', 'mcp', 'agents', 'skills', 'init', 'help', 'playbook', 'config', 'plan', 'mode', 'clear']) {
      assert.ok(names.includes(`/${name}`), `/${name} is listed`);
    }
    const thinking = options().filter({ has: chat.locator('.suggestion-name', { hasText: /^\/thinking$/ }) });
    assert.equal(await thinking.locator('.suggestion-hint').textContent(), '[off|low|medium|high]');
    assert.match((await thinking.locator('.suggestion-description').textContent()) ?? '', /reasons before acting/);
    await input().press('ArrowDown');
    await wb.screenshot('slash-commands');
    await input().press('Escape');
    await input().fill('');
  });

  it('pasting an image attaches a thumbnail chip; sending shows it and the request carries an image part', async () => {
    const paste = (name: string) =>
      chat.locator('#input').evaluate(
        (host, { data, name }) => {
          const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], name, { type: 'image/png' }));
          const textarea = (host as any).wrappedElement;
          textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, composed: true, cancelable: true }));
        },
        { data: IMAGE, name },
      );
    await paste('scratch.png');
    await chat.locator('.image-chip').waitFor();
    await chat.locator('.image-chip button[aria-label="Remove image scratch.png"]').click();
    await chat.locator('.image-chip').waitFor({ state: 'detached' });

    await paste('gradient.png');
    const thumb = chat.locator('.image-chip img');
    await thumb.waitFor();
    assert.equal(await thumb.getAttribute('alt'), 'gradient.png');
    assert.match((await thumb.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    await input().fill('what is in this image?');
    await wb.screenshot('image-attached');

    await input().press('Enter');
    await chat.locator('.entry.user img.user-image[alt="gradient.png"]').waitFor();
    assert.equal(await chat.locator('#attachments .image-chip').count(), 0, 'the tray empties on send');
    await chat.locator('.entry.assistant', { hasText: 'I see a colour gradient.' }).waitFor();
    const request = fake.requests.at(-1)!;
    assert.deepEqual(imageParts(request), [{ type: 'image_url', image_url: { url: `data:image/png;base64,${IMAGE}` } }]);
    await idle();
  });

  it('refuses a file that is not an image, in words next to the input', async () => {
    await chat.locator('#input').evaluate((host) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
      (host as any).wrappedElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, composed: true, cancelable: true }));
    });
    const problem = chat.locator('#attach-problem');
    await problem.waitFor({ state: 'visible' });
    assert.match((await problem.textContent()) ?? '', /logo\.svg was not attached: only PNG, JPEG, GIF and WebP images can be\./);
    assert.equal(await chat.locator('.image-chip').count(), 0);
  });

  it('shows a running background task above the input; its button opens the task terminal', async () => {
    await input().fill('start the server');
    await input().press('Enter');
    await chat.locator('.entry.approval[data-state="pending"] vscode-button[data-action="allow"]').click();
    const task = chat.locator('#activity .activity-item[data-task]');
    await task.waitFor();
    assert.match((await chat.locator('#activity .activity-count').textContent()) ?? '', /1 background task running/);
    assert.match((await task.getAttribute('aria-label')) ?? '', /^Background task [0-9a-f]+: echo serving; exec sleep 120\. Open its terminal\.$/);
    await wb.screenshot('activity');
    await task.click();
    await wb.page.locator('.terminal-tabs-entry, .single-terminal-tab, .monaco-workbench .part.panel .title', { hasText: 'OpenDev: echo serving' }).first().waitFor();
    await idle();
  });

  it('shows a running subagent above the input; its button brings its card into view and focus', async () => {
    await input().fill('explore PI');
    await input().press('Enter');
    const subagent = chat.locator('#activity .activity-item[data-subagent]');
    await subagent.waitFor();
    assert.match((await subagent.getAttribute('aria-label')) ?? '', /^Subagent Code-Explorer is working on: Find where PI is defined/);
    await wb.screenshot('subagent-running');
    await subagent.click();
    assert.equal(await chat.evaluate(() => document.activeElement?.classList.contains('subagent')), true, 'the card has the focus');
    await subagent.waitFor({ state: 'detached' });
    await idle();
  });

  it('passes a quick accessibility audit: named controls, the input, keyboard order, visible focus, Enter and Shift+Enter', async () => {
    const audit = await chat.evaluate(() => {
      const visible = (el: any) => el.offsetParent !== null || el.getClientRects().length > 0;
      const unnamed = [...document.querySelectorAll('button, vscode-button, [role="button"], a[href]')]
        .filter(visible)
        .filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim() || el.getAttribute('title')))
        .map((el) => el.outerHTML.slice(0, 120));
      const positiveTabindex = [...document.querySelectorAll('[tabindex]')].filter((el) => Number(el.getAttribute('tabindex')) > 0).map((el) => el.outerHTML.slice(0, 80));
      const imagesWithoutAlt = [...document.querySelectorAll('img')].filter((img) => !img.hasAttribute('alt')).length;
      const host = document.querySelector('#input');
      return {
        unnamed,
        positiveTabindex,
        imagesWithoutAlt,
        inputName: host.getAttribute('aria-label'),
        innerName: host.wrappedElement.getAttribute('aria-label'),
        listbox: document.querySelector('#suggestions')?.getAttribute('role'),
        transcriptRole: document.querySelector('#transcript')?.getAttribute('role'),
      };
    });
    assert.deepEqual(audit.unnamed, [], 'every button has a label');
    assert.deepEqual(audit.positiveTabindex, [], 'the tab order follows the page');
    assert.equal(audit.imagesWithoutAlt, 0);
    assert.equal(audit.inputName, 'Ask OpenDev');
    assert.equal(audit.innerName, 'Ask OpenDev', 'the textarea itself carries the name');
    assert.equal(audit.listbox, 'listbox');
    assert.equal(audit.transcriptRole, 'log');

    // Tab from the input reaches the mode chip, then Send; the chip shows where the focus is.
    await input().focus();
    await input().press('Tab');
    assert.equal(await chat.evaluate(() => document.activeElement?.id), 'mode');
    const outline = await chat.locator('#mode').evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    await chat.locator('#mode').press('Tab');
    assert.equal(await chat.evaluate(() => document.activeElement?.id), 'send');

    // Shift+Enter is a new line; Enter sends.
    const before = await chat.locator('.entry.user').count();
    await input().focus();
    await input().fill('');
    await input().pressSequentially('line one');
    await input().press('Shift+Enter');
    await input().pressSequentially('line two');
    assert.equal(await input().inputValue(), 'line one\nline two');
    assert.equal(await chat.locator('.entry.user').count(), before, 'nothing was sent');
    await input().press('Enter');
    await chat.locator('.entry.user').nth(before).waitFor();
    await chat.locator('.entry.assistant', { hasText: 'echo: line one' }).waitFor();
  });
});
