import * as l10n from '@vscode/l10n';
import type { ChatEntryOf } from '../src/shared/protocol';
import { button, h } from './dom';
import type { RenderContext } from './entries';

/**
 * The one line for a provider call being retried: "Provider unavailable — retrying in 4 s (attempt 2
 * of 6)", counted down live, with "Retry now". The wait is counted from when this view first saw
 * that attempt (the extension's clock may be on another machine), so re-rendering the line, or
 * hiding and showing the view, does not restart it.
 */

type RetryEntry = ChatEntryOf<'retry'>;

/** When each attempt's wait ends, by `id:attempt`, in this view's clock. */
const deadlines = new Map<string, number>();

export function renderRetryLine(entry: RetryEntry, ctx: RenderContext): HTMLElement {
  const key = `${entry.id}:${entry.attempt}`;
  if (!deadlines.has(key)) deadlines.set(key, Date.now() + entry.delayMs);
  const deadline = deadlines.get(key)!;
  const status = h('span', { class: 'retry-status' });
  const reason = h('span', { class: 'retry-reason', text: entry.reason, attrs: { title: l10n.t('Why the provider call failed') } });
  const now = button(l10n.t('Retry now'), 'retry-now', () => ctx.post({ type: 'retryNow', id: entry.id }), {
    secondary: true,
    title: l10n.t('Skip the wait: try the provider again now'),
  });
  const el = h('article', { attrs: { role: 'status', 'aria-live': 'polite' } }, h('span', { class: 'retry-icon', text: '↻', attrs: { 'aria-hidden': 'true' } }), status, reason, now);
  const tick = (): boolean => {
    const left = Math.ceil((deadline - Date.now()) / 1000);
    const waiting = entry.waiting && left > 0;
    status.textContent = waiting
      ? l10n.t('Provider unavailable — retrying in {0} s (attempt {1} of {2})', left, entry.attempt, entry.maxAttempts)
      : l10n.t('Provider unavailable — retrying now (attempt {0} of {1})', entry.attempt, entry.maxAttempts);
    now.hidden = !waiting;
    return waiting;
  };
  if (tick()) {
    // Ticks until the wait is over (at most the capped wait), whether or not the line is on screen
    // just now: the windowed transcript may detach and re-attach this very element.
    const timer = setInterval(() => {
      if (!tick()) clearInterval(timer);
    }, 250);
  }
  return el;
}
