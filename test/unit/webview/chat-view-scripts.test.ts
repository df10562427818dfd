import * as assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildChatView, sendToView, viewSnapshot, type ChatViewPage } from '../../helpers/chat-view-page';

/**
 * The chat view's scripts as the .vsix ships them (the production build): the view stays small,
 * and highlight.js, its second script, comes only with the first code block, in time to draw a
 * streamed block highlighted once, when it closes; a block drawn before it has arrived is coloured
 * when it does. Run in Chromium under the view's CSP (scripts by nonce only).
 */

// Browser globals inside page callbacks (this file is typechecked without the DOM lib).
declare const window: any, document: any, MutationObserver: any, requestAnimationFrame: any;

const MAX_VIEW_BYTES = 200 * 1024;

describe('the chat view scripts (production build)', function () {
  this.timeout(180_000);
  let chatView: ChatViewPage;
  before(async () => (chatView = await buildChatView()));
  after(() => chatView?.close());
  const highlighterScripts = (page: Page) => page.evaluate(() => document.querySelectorAll('script[src$="webview-highlight.js"]').length as number);

  it('the view script is under 200 KiB; highlight.js is a script of its own', () => {
    const view = statSync(join(chatView.dir, 'webview.js')).size;
    const highlighter = statSync(join(chatView.dir, 'webview-highlight.js')).size;
    assert.ok(view < MAX_VIEW_BYTES, `dist/webview.js is ${(view / 1024).toFixed(1)} KiB`);
    assert.ok(highlighter > 50 * 1024, `highlight.js and its grammars are in webview-highlight.js (${(highlighter / 1024).toFixed(1)} KiB)`);
  });

  it('at the end of a long chat, the keyboard scrolls up and new output no longer pulls the view back down', async () => {
    const page = await chatView.open();
    const entries = Array.from({ length: 400 }, (_, i) => (i % 2 ? { kind: 'assistant', id: `a${i}`, text: `Answer ${i}.` } : { kind: 'user', id: `u${i}`, text: `Question ${i}?` }));
    await sendToView(page, viewSnapshot(entries));
    await page.waitForSelector('.entry.assistant >> text=Answer 399.');
    const distanceFromEnd = () => page.evaluate(() => {
      const t = document.getElementById('transcript');
      return Math.round(t.scrollHeight - t.scrollTop - t.clientHeight) as number;
    });
    await page.waitForFunction(() => {
      const t = document.getElementById('transcript');
      return t.scrollHeight - t.scrollTop - t.clientHeight < 1;
    });
    // The keyboard's scroll is animated: its first steps are a few pixels, well inside "at the end".
    // Wait for it to get past the slack, then for it to come to rest: a view that snapped back to the
    // end would rest at 0 px. (A `scrollend` listener can catch the end of the view's own earlier scroll.)
    await page.locator('#transcript').press('ArrowUp');
    await page.waitForFunction(() => {
      const t = document.getElementById('transcript');
      return t.scrollHeight - t.scrollTop - t.clientHeight >= 20;
    });
    await page.evaluate(() => new Promise<void>((resolve) => {
      const t = document.getElementById('transcript');
      let last = -1;
      let still = 0;
      const frame = () => {
        still = t.scrollTop === last ? still + 1 : 0;
        last = t.scrollTop;
        if (still >= 5) resolve();
        else requestAnimationFrame(frame);
      };
      frame();
    }));
    const up = await distanceFromEnd();
    assert.ok(up >= 20, `ArrowUp moved the view up and it stayed there (${up} px from the end)`);
    await sendToView(page, { type: 'upsert', entry: { kind: 'assistant', id: 'late', text: 'Output that arrives while the user reads.' } });
    await page.waitForSelector('.entry.assistant >> text=while the user reads');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.ok((await distanceFromEnd()) > up, 'the new output did not pull the view to the end');
    await page.close();
  });

  it('a chat without code never loads highlight.js', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([
      { kind: 'user', id: 'u1', text: 'hello' },
      { kind: 'assistant', id: 'a1', text: 'Hello! Plain text, `inline code` and **bold**, but no code block.' },
    ]));
    await page.waitForSelector('.entry.assistant >> text=no code block');
    assert.equal(await highlighterScripts(page), 0);
    assert.equal(await page.evaluate(() => window.opendevHighlighter === undefined), true);
    await page.close();
  });

  it('a code block drawn before highlight.js has arrived is coloured when it does, its text unchanged', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([
      { kind: 'assistant', id: 'a1', text: 'Here:\n\n```ts\nconst answer = 42; // the answer\n```\n\nAnd a block without a language:\n\n```\nplain text\n```\n' },
    ]));
    const ts = page.locator('.code-block[data-language="ts"]');
    await ts.locator('code.hljs.language-ts .hljs-keyword').waitFor();
    assert.deepEqual(await ts.locator('.hljs-keyword').allTextContents(), ['const']);
    assert.deepEqual(await ts.locator('.hljs-number').allTextContents(), ['42']);
    assert.deepEqual(await ts.locator('.hljs-comment').allTextContents(), ['// the answer']);
    assert.equal(await ts.locator('code').textContent(), 'const answer = 42; // the answer');
    const plain = page.locator('.code-block:not([data-language]) code');
    assert.equal(await plain.textContent(), 'plain text');
    assert.equal(await plain.getAttribute('class'), null, 'a block without a language stays plain');
    assert.equal(await highlighterScripts(page), 1, 'loaded once');
    await page.close();
  });

  it('a streaming block loads highlight.js, so the block is drawn highlighted once, when it closes', async () => {
    const page = await chatView.open();
    await page.evaluate(() => {
      window.seenBlocks = [];
      new MutationObserver((records: any[]) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node.nodeType !== 1) continue;
            for (const b of [...(node.matches('.code-block') ? [node] : []), ...node.querySelectorAll('.code-block')]) {
              window.seenBlocks.push({ state: b.dataset.state, highlighted: b.querySelector('[class*="hljs-"]') !== null });
            }
          }
        }
      }).observe(document.getElementById('transcript'), { childList: true, subtree: true });
    });
    await sendToView(page, viewSnapshot([{ kind: 'assistant', id: 'a1', text: 'Streaming:\n\n```python\ndef greet(name):\n' }]));
    await page.waitForSelector('.code-block[data-state="streaming"]');
    await page.waitForFunction(() => window.opendevHighlighter !== undefined);
    await sendToView(page, { type: 'textDelta', id: 'a1', delta: '    return name\n```\n\nDone.' });
    await page.waitForSelector('.entry.assistant >> text=Done.');
    const seen = (await page.evaluate(() => window.seenBlocks)) as Array<{ state: string; highlighted: boolean }>;
    assert.ok(seen.some((b) => b.state === 'streaming' && !b.highlighted), `seen while it streamed, plain: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.filter((b) => b.state === 'closed'), [{ state: 'closed', highlighted: true }], 'drawn once, highlighted, when it closed');
    assert.deepEqual(await page.locator('.code-block[data-language="python"] .hljs-keyword').allTextContents(), ['def', 'return']);
    await page.close();
  });
});
