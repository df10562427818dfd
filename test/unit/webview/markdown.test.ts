import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { buildChatView, sendToView, viewSnapshot, type ChatViewPage } from '../../helpers/chat-view-page';

/**
 * Markdown in the chat view, as the .vsix ships it (the production build, under the view's CSP, in
 * Chromium): tables, task lists, nested lists and links drawn as such; raw HTML and unsafe links
 * shown as text; a click on a link posts the typed `openLink` message; a streamed answer rebuilds only
 * its changed tail.
 */

// Browser globals inside page callbacks (this file is typechecked without the DOM lib).
declare const window: any, document: any;

const ANSWER = [
  'Summary of **the change**:',
  '',
  '| File | Lines | Status |',
  '|:-----|------:|:------:|',
  '| `src/app.ts:12` | 40 | done |',
  '| [docs](docs/guide.md#L3) | 7 | ~~old~~ |',
  '',
  '- [x] parse the input',
  '- [ ] write the docs',
  '  - nested item with [a site](https://example.com/page)',
  '',
  '<img src=x onerror="window.pwned=1"> and [bad](javascript:window.pwned=2) and [file url](file:///etc/passwd)',
].join('\n');

describe('markdown in the chat view (production build)', function () {
  this.timeout(180_000);
  let chatView: ChatViewPage;
  before(async () => (chatView = await buildChatView()));
  after(() => chatView?.close());
  const openLinks = (page: Page) => page.evaluate(() => window.posted.filter((m: any) => m.type === 'openLink')) as Promise<unknown[]>;

  it('draws a table, task and nested lists and links; raw HTML and unsafe links stay text', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([{ kind: 'assistant', id: 'a1', text: ANSWER }]));
    const entry = page.locator('.entry.assistant');
    await entry.locator('table').waitFor();
    assert.deepEqual(await entry.locator('th').allTextContents(), ['File', 'Lines', 'Status']);
    assert.deepEqual(await entry.locator('tbody tr').first().locator('td').allTextContents(), ['src/app.ts:12', '40', 'done']);
    assert.equal(await entry.locator('td.align-right').count(), 2);
    assert.equal(await entry.locator('td del').textContent(), 'old');
    assert.equal(await entry.locator('strong').first().textContent(), 'the change');
    const boxes = entry.locator('li.task > input[type="checkbox"]');
    assert.equal(await boxes.count(), 2);
    assert.deepEqual([await boxes.nth(0).isChecked(), await boxes.nth(1).isChecked()], [true, false]);
    assert.equal(await entry.locator('ul li ul li').textContent(), 'nested item with a site');
    assert.deepEqual(await entry.locator('a.md-link').allTextContents(), ['src/app.ts:12', 'docs', 'a site']);
    assert.equal(await entry.locator('a.md-link-url').getAttribute('href'), 'https://example.com/page');
    assert.equal(await entry.locator('img').count(), 0, 'raw HTML is not markup');
    assert.match((await entry.locator('p').last().textContent()) ?? '', /^<img src=x onerror="window.pwned=1"> and bad and file url$/);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    await page.close();
  });

  it('a click on a link posts openLink with the file and line, or the web address, and never navigates', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([{ kind: 'assistant', id: 'a1', text: ANSWER }]));
    const entry = page.locator('.entry.assistant');
    await entry.locator('table').waitFor();
    await entry.locator('a.md-link', { hasText: 'src/app.ts:12' }).click();
    await entry.locator('a.md-link', { hasText: 'docs' }).click();
    await entry.locator('a.md-link', { hasText: 'a site' }).click();
    await entry.getByText('bad').click();
    assert.deepEqual(await openLinks(page), [
      { type: 'openLink', target: { kind: 'file', path: 'src/app.ts', line: 12 } },
      { type: 'openLink', target: { kind: 'file', path: 'docs/guide.md', line: 3 } },
      { type: 'openLink', target: { kind: 'url', url: 'https://example.com/page' } },
    ]);
    assert.match(page.url(), /index\.html$/, 'the view stayed where it was');
    await page.close();
  });

  it('while an answer streams, complete blocks (the intro, a finished table) keep their nodes; only the tail is rebuilt', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([{ kind: 'assistant', id: 'a1', text: 'Intro **text**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n' }]));
    const entry = page.locator('.entry.assistant');
    await entry.locator('table').waitFor();
    await page.evaluate(() => {
      const entryEl = document.querySelector('.entry.assistant');
      window.firstP = entryEl.querySelector('p');
    });
    await sendToView(page, { type: 'textDelta', id: 'a1', delta: '| 3 | 4 |\n\nAfter the table.' });
    await entry.getByText('After the table.').waitFor();
    assert.deepEqual(await entry.locator('tbody td').allTextContents(), ['1', '2', '3', '4']);
    await page.evaluate(() => {
      window.table = document.querySelector('.entry.assistant table');
    });
    await sendToView(page, { type: 'textDelta', id: 'a1', delta: ' More.' });
    await entry.getByText('After the table. More.').waitFor();
    assert.equal(await page.evaluate(() => window.firstP === document.querySelector('.entry.assistant p')), true, 'the intro kept its node');
    assert.equal(await page.evaluate(() => window.table === document.querySelector('.entry.assistant table')), true, 'the finished table kept its node');
    await page.close();
  });

  it('an answer streamed in small deltas ends drawn exactly as the whole answer drawn at once', async () => {
    const text = [
      '### Plan', '', 'Intro with **bold** and `src/app.ts:3`.', '', '- one', '- two', '', '- three, same list', '',
      '```ts', 'const a = 1;', '', 'const b = 2;', '```', '', '> quoted', '', ANSWER, '', '1. first', '2. second', '', 'The end.',
    ].join('\n');
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([{ kind: 'assistant', id: 'a1', text: '' }, { kind: 'assistant', id: 'a2', text }]));
    await page.locator('.entry.assistant').nth(1).getByText('The end.').waitFor();
    for (let i = 0; i < text.length; i += 7) await sendToView(page, { type: 'textDelta', id: 'a1', delta: text.slice(i, i + 7) });
    await page.locator('.entry.assistant').first().getByText('The end.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.entry.assistant code.hljs').length === 2);
    const [streamed, whole] = (await page.evaluate(() => [...document.querySelectorAll('.entry.assistant')].map((e: any) => e.innerHTML))) as string[];
    assert.equal(streamed, whole);
    await page.close();
  });
});
