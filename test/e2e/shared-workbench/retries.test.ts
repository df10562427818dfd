import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { chatSuite, type Workbench } from '../host';
import { isActionCall, textOf } from '../scenarios';
import { FakeProvider, lastUserText, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';

/**
 * A provider that is down, as a user meets it in the chat: consecutive retries are one line that
 * counts its wait down and offers "Retry now" (which really cuts the wait short), the line goes when
 * the answer comes; a turn that fails for good ends in an error card whose Retry sends it again.
 */

// Browser globals inside evaluate callbacks (this file is typechecked without the DOM lib).
declare const document: any;

const FLAKY = 'flaky provider';
const DOWN = 'provider down';
/** How many action calls each prompt has had (the fake decides its answer by it). */
const seen = new Map<string, number>();

function respond(req: RecordedRequest): ScriptedTurn {
  if (!isActionCall(req)) return { text: 'Noted.' };
  const prompt = lastUserText(req);
  const n = (seen.get(prompt) ?? 0) + 1;
  seen.set(prompt, n);
  if (prompt === FLAKY) {
    // Two long waits in a row: only "Retry now" makes this quick.
    if (n <= 2) return { failure: { kind: 'status', status: 503, retryAfterSeconds: 30 } };
    return { text: 'Recovered after two retries.' };
  }
  if (prompt === DOWN) {
    // A 400 is not retried: the turn fails at once.
    if (n === 1) return { failure: { kind: 'status', status: 400, body: { error: { message: 'the provider refused the request', type: 'invalid_request_error' } } } };
    return { text: 'Works on the second try.' };
  }
  return { text: `echo: ${prompt}` };
}

describe('provider retries and failed turns in the chat (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: respond });
  let wb: Workbench;
  let chat: Frame;
  const suite = chatSuite(fake, { shared: true, apiKey: 'sk-e2e-retries' });
  before(() => {
    ({ wb, chat } = suite);
  });

  const input = () => chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
  const secondsLeft = async (line: ReturnType<Frame['locator']>) => Number(/retrying in (\d+) s/.exec((await line.locator('.retry-status').textContent()) ?? '')?.[1] ?? NaN);

  it('consecutive retries are one line with a live countdown; Retry now cuts each wait short; the answer replaces the line', async () => {
    const started = Date.now();
    await input().fill(FLAKY);
    await input().press('Enter');
    const line = chat.locator('.entry.retry');
    await line.locator('.retry-status', { hasText: /Provider unavailable — retrying in \d+ s \(attempt 2 of \d+\)/ }).waitFor();
    const first = await secondsLeft(line);
    assert.ok(first > 20 && first <= 30, `a 30 s wait is shown (${first} s)`);
    // The countdown moves on its own.
    await chat.waitForFunction((start) => {
      const text = document.querySelector('.entry.retry .retry-status')?.textContent ?? '';
      const left = Number(/retrying in (\d+) s/.exec(text)?.[1]);
      return left < start;
    }, first);
    assert.match((await line.textContent()) ?? '', /service unavailable|server error \(503\)/i);
    await wb.screenshot('chat-retry-line');

    await line.locator('vscode-button[data-action="retry-now"]').click();
    await line.locator('.retry-status', { hasText: /attempt 3 of \d+/ }).waitFor();
    assert.equal(await chat.locator('.entry.retry').count(), 1, 'the second retry updates the same line');
    await line.locator('vscode-button[data-action="retry-now"]').click();

    await chat.locator('.entry.assistant', { hasText: 'Recovered after two retries.' }).waitFor();
    assert.equal(await chat.locator('.entry.retry').count(), 0, 'the line is gone once the answer came');
    assert.equal(await chat.locator('.entry.notice', { hasText: /Retrying/ }).count(), 0, 'no retry cards');
    assert.ok(Date.now() - started < 50_000, `Retry now skipped the two 30 s waits (took ${Date.now() - started} ms)`);
    assert.equal(seen.get(FLAKY), 3);
  });

  it('a failed turn ends in an error card with Retry, which sends the message again and gets the answer', async () => {
    await input().fill(DOWN);
    await input().press('Enter');
    const card = chat.locator('.entry.error', { hasText: /refused the request|400/ }).last();
    await card.waitFor();
    const retry = card.locator('vscode-button[data-action="retry-turn"]');
    await retry.waitFor();
    await chat.locator('#send').waitFor({ state: 'visible' });
    await wb.screenshot('chat-error-card-retry');
    const before = fake.requests.length;

    await retry.click();
    await chat.locator('.entry.assistant', { hasText: 'Works on the second try.' }).waitFor();
    assert.equal(await retry.count(), 0, 'the card has no Retry once used');
    const resent = fake.requests.slice(before).find(isActionCall)!;
    const prompts = (resent.body.messages as Array<{ role: string; content?: unknown }>).filter((m) => m.role === 'user' && textOf(m).includes(DOWN));
    assert.equal(prompts.length, 1, 'the message is in the conversation once');
  });
});
