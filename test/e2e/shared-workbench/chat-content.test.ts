import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { chatSuite, type Workbench } from '../host';
import { isActionCall, scenarioOf } from '../scenarios';
import { FakeProvider, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';
import { makePng } from '../../helpers/png';

/**
 * What the chat view shows and takes beyond plain text, driven like a user: a tool card with a
 * long output (folded to its summary line, opened by click or keyboard), an image dropped on the
 * input (a chip, then vision input for the model), and the view's Content-Security-Policy (nonce
 * scripts only, nothing remote).
 */

// Browser globals inside evaluate callbacks (this file is typechecked without the DOM lib).
declare const document: any, window: any, DataTransfer: any, DragEvent: any, File: any;

const LONG = Array.from({ length: 150 }, (_, i) => `line ${i + 1} of the long notes`).join('\n');
/** An answer far taller than the view (about 3,000 px in the side bar). */
const TALL_ANSWER = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join('\n\n');
const IMAGE = makePng(40, 30, (x, y) => [200 - x * 4, y * 6, 120]).toString('base64');

function respond(req: RecordedRequest): ScriptedTurn {
  if (!isActionCall(req)) return { text: 'Noted.' };
  const lastUser = (req.body.messages as Array<{ role: string; content?: unknown }>).filter((m) => m.role === 'user').at(-1);
  if (Array.isArray(lastUser?.content) && lastUser.content.some((p: { type?: string }) => p.type === 'image_url')) return { text: 'I see a dropped picture.' };
  if (typeof lastUser?.content === 'string' && lastUser.content.includes('write a long answer')) return { text: TALL_ANSWER };
  const { key, calls } = scenarioOf(req, ['show the long notes']);
  if (key && calls.length === 0) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'long.txt' } }] };
  return { text: key ? 'The notes have 150 lines.' : 'echo' };
}

describe('chat view: long tool output, dropped images, CSP (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  let wb: Workbench;
  let chat: Frame;
  const suite = chatSuite(fake, {
    shared: true,
    apiKey: 'sk-e2e-content',
    prepare: (wb) => writeFileSync(join(wb.workspace, 'long.txt'), `${LONG}\n`),
  });
  before(() => {
    ({ wb, chat } = suite);
  });

  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  async function idle(): Promise<void> {
    await chat.locator('#send').waitFor({ state: 'visible' });
  }

  it('a tool card with a long output shows only its summary line; click or Enter/Space opens and closes the full output', async () => {
    await input().fill('show the long notes');
    await input().press('Enter');
    const card = chat.locator('.entry.tool[data-status="ok"]', { hasText: 'Read long.txt' });
    await card.waitFor();
    await chat.locator('.entry.assistant', { hasText: 'The notes have 150 lines.' }).waitFor();
    await idle();
    const summary = card.locator('summary.tool-detail');
    const output = card.locator('pre.tool-output');
    // The card says what happened in words; the raw call (the tool's name, its arguments) is behind it with the output.
    assert.equal((await summary.textContent()) ?? '', '✓Read long.txt · 150 lines');
    assert.equal(await card.locator('details.tool-result').getAttribute('open'), null, 'folded');
    assert.equal(await output.isVisible(), false);
    await wb.screenshot('tool-card-folded');

    await summary.click();
    await output.waitFor({ state: 'visible' });
    const text = (await output.textContent()) ?? '';
    assert.match(text, /line 1 of the long notes/);
    assert.match(text, /line 150 of the long notes/, 'the whole output, to its last line');
    assert.equal(await card.locator('code.tool-name').textContent(), 'read_file');
    assert.match((await card.locator('pre.tool-args').textContent()) ?? '', /"file_path": "long.txt"/);
    await wb.screenshot('tool-card-open');
    await summary.click();
    await output.waitFor({ state: 'hidden' });

    // From the keyboard: the summary line takes the focus; Enter opens, Space closes.
    await summary.focus();
    await summary.press('Enter');
    await output.waitFor({ state: 'visible' });
    await summary.press('Space');
    await output.waitFor({ state: 'hidden' });
  });

  it('an answer taller than the view is shown, its end in view (the windowed transcript renders the entry the view starts in)', async () => {
    await input().fill('write a long answer');
    await input().press('Enter');
    const answer = chat.locator('.entry.assistant', { hasText: 'Paragraph 120 of a long answer.' });
    await answer.waitFor();
    await idle();
    const [box, view] = await Promise.all([answer.boundingBox(), chat.locator('#transcript').boundingBox()]);
    assert.ok(box && view && box.height > 2 * view.height, `the answer is taller than the view (${box?.height} px in ${view?.height} px)`);
    assert.ok(Math.abs(box.y + box.height - (view.y + view.height)) < 60, 'its end is at the bottom of the view');
    await wb.screenshot('tall-answer');
  });

  it('an image dropped on the input becomes a chip, and the next request carries it', async () => {
    const prevented = await chat.locator('#input').evaluate(
      (host, data) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], 'sketch.png', { type: 'image/png' }));
        const target = (host as any).wrappedElement;
        const fire = (type: string) => {
          const event = new DragEvent(type, { dataTransfer: transfer, bubbles: true, composed: true, cancelable: true });
          target.dispatchEvent(event);
          return event.defaultPrevented;
        };
        return { dragenter: fire('dragenter'), dragover: fire('dragover'), drop: fire('drop') };
      },
      IMAGE,
    );
    // Taken at dragenter: otherwise VS Code gives the drag to the workbench, which opens the file instead.
    assert.deepEqual(prevented, { dragenter: true, dragover: true, drop: true });
    const chip = chat.locator('#attachments .image-chip');
    await chip.waitFor();
    assert.equal(await chip.locator('img').getAttribute('alt'), 'sketch.png');
    assert.equal(await chip.locator('.image-name').textContent(), 'sketch.png');
    const blocked = await wb.page.evaluate(() => [...document.querySelectorAll('iframe')].filter((f: any) => f.style.pointerEvents === 'none').length);
    assert.equal(blocked, 0, 'the workbench did not take the drag away from the view');
    await input().fill('what did I drop?');
    await wb.screenshot('image-dropped');

    const requests = fake.requests.length;
    await input().press('Enter');
    await chat.locator('.entry.user img.user-image[alt="sketch.png"]').waitFor();
    await chat.locator('.entry.assistant', { hasText: 'I see a dropped picture.' }).waitFor();
    await idle();
    const sent = fake.requests.slice(requests).find(isActionCall)!;
    const last = (sent.body.messages as Array<{ role: string; content?: unknown }>).filter((m) => m.role === 'user').at(-1)!;
    assert.ok(Array.isArray(last.content), 'the message is sent as parts');
    assert.deepEqual(
      (last.content as Array<{ type: string }>).filter((p) => p.type === 'image_url'),
      [{ type: 'image_url', image_url: { url: `data:image/png;base64,${IMAGE}` } }],
    );
    assert.equal(await chat.locator('#attachments .image-chip').count(), 0, 'the tray empties on send');
  });

  it('the view has a strict Content-Security-Policy: nothing by default, scripts by nonce only, no remote origins', async () => {
    const page = await chat.evaluate(() => ({
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
      scripts: [...document.scripts].map((s: any) => ({ id: s.id, src: s.src, nonce: s.nonce, inline: !s.src })),
      styleNonce: document.querySelector('#app')?.dataset.styleNonce ?? '',
      stylesheet: document.querySelector('link[rel="stylesheet"]')?.href ?? '',
    }));
    const csp: string = page.csp;
    const directives = new Map<string, string[]>(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map((d) => [d[0]!, d.slice(1)]),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    const scriptSources = directives.get('script-src') ?? [];
    assert.equal(scriptSources.length, 1, `script-src has one source: ${scriptSources.join(' ')}`);
    const nonce = /^'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(scriptSources[0]!)?.[1];
    assert.ok(nonce, `script-src is a nonce: ${scriptSources[0]}`);
    assert.equal(page.styleNonce, nonce, 'one nonce for the page');
    // VS Code's own acquireVsCodeApi script is put before the policy by the webview host; every script of ours has the nonce.
    const ours = page.scripts.filter((s: { id: string }) => s.id !== '_vscodeApiScript');
    assert.ok(ours.length >= 1, JSON.stringify(page.scripts));
    assert.deepEqual(ours.filter((s: { nonce: string }) => s.nonce !== nonce), [], 'every script carries the nonce');
    assert.ok(ours.some((s: { src: string }) => /\/dist\/webview\.js$/.test(s.src)));

    // Besides keywords, nonces and data: images, the only origin is the webview's own resource origin (cspSource).
    const cspSource = (directives.get('font-src') ?? []).join(' ');
    assert.ok(cspSource, 'fonts come from the webview resource origin');
    const resourceHost = new URL(page.stylesheet).hostname;
    const hostPatterns = cspSource.split(' ').filter((s) => s !== "'self'").map((s) => new URL(s.replace('*.', 'wildcard.')).hostname.replace(/^wildcard\./, ''));
    assert.ok(hostPatterns.length > 0 && hostPatterns.every((h) => resourceHost.endsWith(`.${h}`)), `cspSource (${cspSource}) is where the view's own files come from (${resourceHost})`);
    for (const [name, sources] of directives) {
      for (const source of sources) {
        const allowed = source === "'none'" || source === `'nonce-${nonce}'` || (name === 'img-src' && source === 'data:') || cspSource.split(' ').includes(source);
        assert.ok(allowed, `${name} allows only the view's own sources, not ${source}`);
      }
    }
    const tokens = csp.split(/[\s;]+/);
    for (const loose of ['*', 'http:', 'https:', "'unsafe-inline'", "'unsafe-eval'"]) assert.ok(!tokens.includes(loose), `no ${loose} source: ${page.csp}`);

    // And it holds: a script without the nonce does not run; a remote image is not fetched.
    const enforced = await chat.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e: any) => violations.push(e.effectiveDirective));
      const script = document.createElement('script');
      script.textContent = 'window.injectedRan = true;';
      document.body.append(script);
      const img = document.createElement('img');
      img.src = 'https://example.com/tracker.png';
      document.body.append(img);
      // The refusals are reported as they happen (the image's when its load is tried): wait for both, within one limit.
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && !(violations.includes('img-src') && violations.includes('script-src-elem')); ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      script.remove();
      img.remove();
      return { ran: window.injectedRan === true, violations };
    });
    assert.equal(enforced.ran, false, 'an injected script without the nonce is refused');
    assert.deepEqual([...enforced.violations].sort(), ['img-src', 'script-src-elem']);
  });
});
