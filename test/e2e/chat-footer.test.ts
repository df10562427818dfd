import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { chatSuite, type Workbench } from './host';
import { isActionCall, scenarioOf } from './scenarios';
import { FakeProvider, lastUserText, type RecordedRequest, type ScriptedTurn, type ScriptedUsage } from '../fixtures/fake-provider';

/**
 * The chat footer as a user reads it: the context meter (how full the model's window is, and what
 * the last reduction freed), the running tokens and cost, and whether commands run in the OS
 * sandbox. The window is set small (opendev.contextWindow) and every model call reports its usage,
 * so each figure is known.
 */

// Browser globals inside evaluate callbacks (this file is typechecked without the DOM lib).
declare const getComputedStyle: any;

const WINDOW = 50_000;
const NOTES = (n: number) => Array.from({ length: 60 }, (_, i) => `notes ${n}, line ${i + 1}: the build takes two minutes, the tests take five more`).join('\n');

/** Each call's usage, as the provider reports it (gpt-4.1: $2 in, $0.5 cached, $8 out per million). */
const USAGE: Record<string, ScriptedUsage[]> = {
  'read the first notes': [
    { promptTokens: 36_000, cachedTokens: 20_000, outputTokens: 200 },
    { promptTokens: 37_000, cachedTokens: 36_000, outputTokens: 100 },
  ],
  'read the second notes': [
    { promptTokens: 37_500, cachedTokens: 37_000, outputTokens: 150 },
    { promptTokens: 39_500, cachedTokens: 38_000, outputTokens: 50 },
  ],
};
const COMPACTION_USAGE: ScriptedUsage = { promptTokens: 6_000, cachedTokens: 0, outputTokens: 400 };

function respond(req: RecordedRequest): ScriptedTurn {
  // The compact model's call (no tools): a summary of the middle of the conversation.
  if (!isActionCall(req)) return { text: '## Goal\nRead the notes.\n## State\nBoth notes files were read; the build takes two minutes.', usage: COMPACTION_USAGE };
  if (lastUserText(req) === 'do commands run sandboxed?') return { text: 'They do.', usage: { promptTokens: 1_000, cachedTokens: 0, outputTokens: 10 } };
  const { key, calls } = scenarioOf(req, Object.keys(USAGE));
  if (!key) return { text: 'echo', usage: { promptTokens: 1_000, cachedTokens: 0, outputTokens: 10 } };
  const usage = USAGE[key]![calls.length]!;
  if (calls.length === 0) return { toolCalls: [{ name: 'read_file', arguments: { file_path: key === 'read the first notes' ? 'notes-1.txt' : 'notes-2.txt' } }], usage };
  return { text: 'The build takes two minutes.', usage };
}

describe('chat footer: context meter, cost and the command sandbox (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  let wb: Workbench;
  let chat: Frame;
  const suite = chatSuite(fake, {
    userSettings: { 'opendev.contextWindow': WINDOW, 'workbench.colorTheme': 'Default Dark Modern' },
    // The suites run with OPENDEV_SANDBOX=0 (for the text rules' tests); this one runs with the
    // sandbox on (bubblewrap is installed on these machines and in CI).
    env: { OPENDEV_SANDBOX: '1' },
    apiKey: 'sk-e2e-footer',
    prepare: (wb) => {
      writeFileSync(join(wb.workspace, 'notes-1.txt'), `${NOTES(1)}\n`);
      writeFileSync(join(wb.workspace, 'notes-2.txt'), `${NOTES(2)}\n`);
    },
  });
  before(() => {
    ({ wb, chat } = suite);
  });

  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  const meter = () => chat.locator('#context');
  const cost = () => chat.locator('#cost');
  async function ask(text: string): Promise<void> {
    await input().fill(text);
    await input().press('Enter');
  }
  async function idle(): Promise<void> {
    await chat.locator('#send').waitFor({ state: 'visible' });
  }
  /** The meter's percentage as shown. */
  async function shownPercent(): Promise<number> {
    const match = /^Context (\d+)%/.exec((await meter().textContent()) ?? '');
    assert.ok(match, `the meter shows a percentage: "${await meter().textContent()}"`);
    return Number(match[1]);
  }

  it('before any model call the footer is empty', async () => {
    assert.equal(await meter().isVisible(), false);
    assert.equal(await cost().isVisible(), false);
  });

  it('after a turn reported at 36k–37k prompt tokens of a 50k window: the pressure in warning colour, and the tokens and cost so far', async () => {
    await ask('read the first notes');
    await chat.locator('.entry.assistant', { hasText: 'The build takes two minutes.' }).waitFor();
    await idle();
    // Measured before the second call: the 36,000 tokens the first reported, plus the notes read since.
    const pct = await shownPercent();
    assert.ok(pct >= 72 && pct < 80, `72–79%: ${pct}%`);
    assert.equal(await meter().textContent(), `Context ${pct}%`, 'nothing reduced yet, so no stage is named');
    assert.equal(await meter().getAttribute('data-level'), 'warn');
    assert.equal(await meter().getAttribute('aria-valuenow'), String(pct));
    assert.match((await meter().getAttribute('title')) ?? '', /^3\d,\d{3} of 50,000 context tokens in use$/);
    assert.notEqual(await meter().evaluate((el) => getComputedStyle(el).color), await cost().evaluate((el) => getComputedStyle(el).color), 'the warning has its own colour');

    // 73,000 in (56,000 cached), 300 out: 17,000 × $2 + 56,000 × $0.5 + 300 × $8 per million.
    assert.equal(await cost().textContent(), '73k in (56k cached) · 300 out · $0.0644');
    assert.equal(await cost().getAttribute('title'), '73,000 input tokens (56,000 cached), 300 output tokens in 2 model calls');
    await wb.screenshot('footer-context-pressure');
  });

  it('/compact: the meter drops and names the stage and the tokens it freed; the cost counts the compaction call', async () => {
    await ask('read the second notes');
    await chat.locator('.entry.assistant', { hasText: 'The build takes two minutes.' }).nth(1).waitFor();
    await idle();
    const before = await shownPercent();
    assert.ok(before >= 72 && before < 80, `still under the first reduction (80%): ${before}%`);

    await ask('/compact');
    await chat.locator('.entry.notice.command-output', { hasText: '/compact' }).waitFor();
    await meter().filter({ hasText: 'full compaction' }).waitFor();
    // The tooltip has the exact figures; the footer rounds the savings to thousands.
    const title = (await meter().getAttribute('title')) ?? '';
    const exact = /^([\d,]+) of 50,000 context tokens in use; last reduction: full compaction freed ([\d,]+) tokens$/.exec(title);
    assert.ok(exact, `the tooltip: "${title}"`);
    const [inUse, freed] = [exact[1]!, exact[2]!].map((n) => Number(n.replace(/,/g, '')));
    assert.ok(freed! > 1_000 && freed! < 10_000, `the notes read first were summarised away: ${freed} tokens`);
    const pct = Math.round((inUse! / WINDOW) * 100);
    assert.ok(pct < before - 20, `the pressure dropped: ${before}% → ${pct}%`);
    assert.equal(await meter().textContent(), `Context ${pct}% · full compaction freed ${Number((freed! / 1000).toFixed(1))}k tokens`);
    assert.equal(await meter().getAttribute('data-level'), 'ok');

    // + 37,500 and 39,500 in (75,000 cached), 200 out, and the compaction's 6,000 in and 400 out.
    assert.equal(await cost().textContent(), '156k in (131k cached) · 900 out · $0.1227');
    assert.match((await cost().getAttribute('title')) ?? '', /in 5 model calls$/);
    await wb.screenshot('footer-after-compaction');
  });

  it('shows "sandboxed" once the chat has an agent, and says what it means on hover', async () => {
    await ask('do commands run sandboxed?');
    await chat.locator('.entry.assistant', { hasText: 'They do.' }).waitFor();
    await idle();
    const footer = chat.locator('#sandbox');
    await footer.filter({ hasNotText: 'sandbox starting' }).waitFor({ state: 'visible' });
    const title = (await footer.getAttribute('title')) ?? '';
    assert.equal(await footer.textContent(), 'sandboxed', `commands must run sandboxed here: ${title}`);
    assert.match(title, /^Commands run in the sandbox/);
    await wb.screenshot('chat-footer-sandboxed');
  });
});
