import * as l10n from '@vscode/l10n';
import type { ContextView, CostView, TodoView } from '../src/shared/protocol';
import { h } from './dom';
import { renderInline } from './markdown';

const TODO_ICON: Record<TodoView['status'], string> = { doing: '◐', todo: '○', done: '✓' };
const TODO_STATE = (): Record<TodoView['status'], string> => ({ doing: l10n.t('in progress'), todo: l10n.t('to do'), done: l10n.t('done') });

/** The live todo list pinned above the input: doing first, then to do, then done; foldable. */
export function renderTodos(panel: HTMLElement, todos: readonly TodoView[], folded: boolean, onFold: (folded: boolean) => void): void {
  panel.hidden = todos.length === 0;
  if (todos.length === 0) {
    panel.replaceChildren();
    return;
  }
  const done = todos.filter((t) => t.status === 'done').length;
  const doing = todos.find((t) => t.status === 'doing');
  const details = h(
    'details',
    {},
    h(
      'summary',
      {},
      h('span', { class: 'todos-title', text: l10n.t('Todos') }),
      h('span', { class: 'todos-count', text: l10n.t('{0}/{1} done', done, todos.length) }),
      doing && h('span', { class: 'todos-current', text: doing.title.replace(/`/g, '') }),
    ),
    h(
      'ul',
      { class: 'todo-list' },
      ...todos.map((t) =>
        h(
          'li',
          { class: 'todo', data: { status: t.status }, attrs: { title: t.description || t.title, 'aria-label': `${t.title} (${TODO_STATE()[t.status]})` } },
          h('span', { class: 'todo-icon', text: TODO_ICON[t.status], attrs: { 'aria-hidden': 'true' } }),
          title(t.title),
        ),
      ),
    ),
  );
  details.open = !folded;
  details.addEventListener('toggle', () => onFold(!details.open));
  panel.replaceChildren(details);
}

/** "12.3k in (4.1k cached) · 812 out · $0.0123": tokens always, USD when the model's price is known. */
export function formatCost(cost: CostView | undefined): { text: string; title: string } {
  if (!cost || cost.calls === 0) return { text: '', title: '' };
  const cached = cost.cachedTokens > 0 ? l10n.t(' ({0} cached)', compact(cost.cachedTokens)) : '';
  const usd = cost.usd === undefined ? '' : ` · $${cost.usd.toFixed(cost.usd < 1 ? 4 : 2)}`;
  const [input, cachedIn, output] = [cost.inputTokens, cost.cachedTokens, cost.outputTokens].map((n) => n.toLocaleString('en-US'));
  const title =
    (cost.calls === 1
      ? l10n.t('{0} input tokens ({1} cached), {2} output tokens in 1 model call', input!, cachedIn!, output!)
      : l10n.t('{0} input tokens ({1} cached), {2} output tokens in {3} model calls', input!, cachedIn!, output!, cost.calls)) +
    (cost.usd === undefined ? l10n.t('; the price of this model is unknown') : '');
  return { text: l10n.t('{0} in{1} · {2} out{3}', compact(cost.inputTokens), cached, compact(cost.outputTokens), usd), title };
}

/**
 * "Context 42%", and after a reduction "Context 12% · full compaction freed 3.4k tokens"; the
 * tooltip has the exact tokens of the window. The level drives the colour (≥70% the compactor
 * starts working, ≥90% it masks aggressively).
 */
export function formatContext(context: ContextView | undefined): { text: string; title: string; level: 'ok' | 'warn' | 'high' } {
  if (!context || context.contextWindow === 0) return { text: '', title: '', level: 'ok' };
  const pct = Math.round(context.pressure * 100);
  const stage = context.lastStage?.replace(/_/g, ' ');
  const freed = (format: (n: number) => string) => (context.lastFreed ? l10n.t(' freed {0} tokens', format(context.lastFreed)) : '');
  const title =
    l10n.t('{0} of {1} context tokens in use', context.promptTokens.toLocaleString('en-US'), context.contextWindow.toLocaleString('en-US')) +
    (stage ? l10n.t('; last reduction: {0}{1}', stage, freed((n) => n.toLocaleString('en-US'))) : '');
  const meter = l10n.t('Context {0}%', pct);
  return { text: stage ? `${meter} · ${stage}${freed(compact)}` : meter, title, level: pct >= 90 ? 'high' : pct >= 70 ? 'warn' : 'ok' };
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${Number((n / 1000).toFixed(n < 10_000 ? 1 : 0))}k`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}

function title(text: string): HTMLElement {
  const el = h('span', { class: 'todo-title' });
  renderInline(el, text);
  return el;
}
