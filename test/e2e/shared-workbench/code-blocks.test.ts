import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { chatSuite, type Workbench } from '../host';
import { FakeProvider, lastUserText } from '../../fixtures/fake-provider';

/**
 * Code blocks in the chat's answers: highlighted with the theme's colours once each block has
 * arrived whole (plain while it streams, and never drawn again once highlighted), with a Copy
 * button that puts the code itself (not the markup) on the clipboard.
 */

const TS_CODE = ['export function greet(name: string): string {', '  // say hello', '  const count = 42;', '  return `Hello, ${name}! (${count})`;', '}'].join('\n');
const PY_CODE = ['def greet(name: str) -> str:', '    return f"Hello, {name}!"'].join('\n');
// The fake model streams this in three deltas: the first ends inside the ts block, the second inside the python fence.
const ANSWER = ['Here is a greeting helper:', '', '```ts', TS_CODE, '```', '', 'The same in Python:', '', '```python', PY_CODE, '```', '', 'Both return a greeting.'].join('\n');

// Browser globals inside frame.evaluate callbacks (this file is typechecked without the DOM lib).
declare const document: any, window: any, navigator: any, MutationObserver: any;

interface SeenBlock {
  state: string;
  language: string;
  highlighted: boolean;
}

describe('chat code blocks (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({
    responder: (req) => (/greeting/.test(lastUserText(req)) ? { text: ANSWER, chunkDelayMs: 1_200 } : { text: `echo: ${lastUserText(req)}` }),
  });
  let wb: Workbench;
  let chat: Frame;

  const suite = chatSuite(fake, {
    // The shared workbench has VS Code's default dark theme, the one most users see the colours in.
    shared: true,
    apiKey: 'sk-e2e-test-key',
    // The test reads the clipboard back, as a paste would.
    prepare: (wb) => wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write']),
  });
  before(() => {
    ({ wb, chat } = suite);
  });

  it('highlights a streamed ts block once it is closed, without redrawing it as the answer goes on', async () => {
    // Every code block the view adds, with its state and whether it has highlighted tokens.
    await chat.evaluate(() => {
      const seen: SeenBlock[] = [];
      window.seenBlocks = seen;
      new MutationObserver((records: any[]) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node.nodeType !== 1) continue;
            const blocks = [...(node.matches('.code-block') ? [node] : []), ...node.querySelectorAll('.code-block')];
            for (const b of blocks) seen.push({ state: b.dataset.state, language: b.dataset.language ?? '', highlighted: b.querySelector('[class*="hljs-"]') !== null });
          }
        }
      }).observe(document.getElementById('transcript'), { childList: true, subtree: true });
    });
    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill('write a greeting helper');
    await input.press('Enter');

    const answer = chat.locator('.entry.assistant', { hasText: 'Both return a greeting.' });
    await answer.waitFor();
    const ts = answer.locator('.code-block[data-language="ts"]');
    assert.equal(await ts.getAttribute('data-state'), 'closed');
    assert.equal(await ts.locator('code').getAttribute('class'), 'hljs language-ts');
    // Tokens as highlight.js classes them, coloured by the theme.
    assert.deepEqual(await ts.locator('.hljs-keyword').allTextContents(), ['export', 'function', 'const', 'return']);
    assert.deepEqual(await ts.locator('.hljs-title.function_').allTextContents(), ['greet']);
    assert.deepEqual(await ts.locator('.hljs-comment').allTextContents(), ['// say hello']);
    assert.deepEqual(await ts.locator('.hljs-number').allTextContents(), ['42']);
    assert.equal(await ts.locator('code').textContent(), TS_CODE, 'the code reads exactly as sent');
    const colours = await ts.evaluate((el: any) => {
      const of = (selector: string) => window.getComputedStyle(el.querySelector(selector)).color;
      return { keyword: of('.hljs-keyword'), string: of('.hljs-string'), comment: of('.hljs-comment'), plain: window.getComputedStyle(el.querySelector('code')).color };
    });
    assert.equal(new Set(Object.values(colours)).size, 4, `keywords, strings, comments and plain code each have their colour: ${JSON.stringify(colours)}`);
    assert.equal(await answer.locator('.code-block[data-language="python"] .hljs-keyword').first().textContent(), 'def');

    const seen = (await chat.evaluate(() => window.seenBlocks)) as SeenBlock[];
    assert.ok(seen.some((b) => b.state === 'streaming'), `the blocks were seen while they streamed: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.filter((b) => b.state === 'streaming' && b.highlighted), [], 'no highlighting while a block grows');
    assert.deepEqual(
      seen.filter((b) => b.state === 'closed').map((b) => [b.language, b.highlighted]),
      [
        ['ts', true],
        ['python', true],
      ],
      'each block is drawn highlighted exactly once, when it closes',
    );

    await wb.screenshot('chat-code-blocks');
    await ts.screenshot({ path: join(__dirname, '../../../../test/e2e/screenshots/chat-code-block-close-up.png') });
  });

  it('Copy (mouse or keyboard) puts the raw code on the clipboard and says "Copied"', async () => {
    const answer = chat.locator('.entry.assistant', { hasText: 'Both return a greeting.' });
    const copyTs = answer.locator('.code-block[data-language="ts"] button[aria-label="Copy code"]');
    await copyTs.click();
    await answer.locator('.code-block[data-language="ts"] button.code-copy', { hasText: 'Copied' }).waitFor();
    assert.equal(await chat.evaluate(() => navigator.clipboard.readText()), TS_CODE);
    // The feedback goes after a moment; the button is ready again.
    await answer.locator('.code-block[data-language="ts"] button[aria-label="Copy code"]', { hasText: 'Copy' }).waitFor();

    // From the keyboard: Tab from the first Copy button reaches the next one; Enter copies.
    // Where the webview's clipboard is refused, the extension copies instead.
    await chat.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new Error('refused'));
    });
    const copyPy = answer.locator('.code-block[data-language="python"] button.code-copy');
    await copyTs.focus();
    // On the way: the ts block's code itself, when it is wide enough to scroll (a scroller takes the focus, to scroll by keys).
    let tabs = 0;
    while (!(await copyPy.evaluate((el: any) => el === document.activeElement)) && tabs < 3) {
      await wb.page.keyboard.press('Tab');
      tabs++;
    }
    assert.equal(await copyPy.evaluate((el: any) => el === document.activeElement), true, 'the next Copy button is reached with Tab');
    await wb.page.keyboard.press('Enter');
    await answer.locator('.code-block[data-language="python"] button.code-copy', { hasText: 'Copied' }).waitFor();
    await wb.page.waitForFunction(async (expected: string) => (await navigator.clipboard.readText()) === expected, PY_CODE);
  });
});
