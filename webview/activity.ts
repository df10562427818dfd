import * as l10n from '@vscode/l10n';
import type { BackgroundTaskView, ChatEntry, WebviewToExtension } from '../src/shared/protocol';
import { h } from './dom';

/**
 * The live line above the input of what runs besides the conversation: running subagents (from
 * their cards) and background tasks (from the extension). Each is a button: a subagent scrolls to
 * its card and focuses it, a task opens its terminal tab.
 */
export function renderActivity(panel: HTMLElement, entries: readonly ChatEntry[], tasks: readonly BackgroundTaskView[], post: (message: WebviewToExtension) => void): void {
  const subagents = entries.filter((e): e is Extract<ChatEntry, { kind: 'subagent' }> => e.kind === 'subagent' && e.status === 'running');
  panel.hidden = subagents.length === 0 && tasks.length === 0;
  if (panel.hidden) {
    panel.replaceChildren();
    return;
  }
  const counts = [plural(subagents.length, 'subagent'), plural(tasks.length, 'background task')].filter(Boolean).join(' · ');
  panel.replaceChildren(
    h('span', { class: 'activity-count', text: `${counts} running`, attrs: { role: 'status' } }),
    ...subagents.map((s) => {
      const el = item('', s.type, l10n.t('Subagent {0} is working on: {1}. Show its card.', s.type, clip(s.task, 200)));
      el.dataset.subagent = s.agentId;
      el.addEventListener('click', () => showCard(s.id));
      return el;
    }),
    ...tasks.map((t) => {
      const el = item('▶', clip(t.command, 40), l10n.t('Background task {0}: {1}. Open its terminal.', t.id, clip(t.command, 200)));
      el.dataset.task = t.id;
      el.addEventListener('click', () => post({ type: 'openTask', id: t.id }));
      return el;
    }),
  );
}

function item(icon: string, label: string, description: string): HTMLButtonElement {
  return h(
    'button',
    { class: 'activity-item', attrs: { type: 'button', 'aria-label': description, title: description } },
    h('span', { class: 'activity-icon', text: icon, attrs: { 'aria-hidden': 'true' } }), // a subagent's is a CSS spinner
    h('span', { class: 'activity-label', text: label }),
  );
}

/** Scrolls the transcript to a card and moves the focus there, so keyboard users land on it too. */
function showCard(id: string): void {
  const card = document.querySelector<HTMLElement>(`.entry[data-id="${CSS.escape(id)}"]`);
  if (!card) return;
  card.tabIndex = -1;
  card.scrollIntoView({ block: 'center' });
  card.focus({ preventScroll: true });
  card.classList.add('flash');
  setTimeout(() => card.classList.remove('flash'), 1200);
}

function plural(n: number, word: string): string {
  return n === 0 ? '' : `${n} ${word}${n === 1 ? '' : 's'}`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
