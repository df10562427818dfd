import * as l10n from '@vscode/l10n';
import type { SessionSummary, WebviewToExtension } from '../src/shared/protocol';
import { filterSessions } from '../src/shared/session-search';
import { h } from './dom';

/** What of the history view survives hiding and reloading the panel. */
export interface HistoryState {
  open: boolean;
  query: string;
}

/**
 * The chat's history view: the project's saved sessions (title, when, how many messages, cost)
 * with a search box over titles and first messages. It takes the panel's place while open.
 * Keyboard: ↓ from the search box into the list, ↑/↓ between sessions, Enter resumes one, Delete
 * asks before deleting it, Escape goes back (to the search box, then to the chat); typing in the
 * list searches. Resuming rebuilds the chat from the session (the extension sends its transcript).
 */
export class HistoryView {
  private items: SessionSummary[] = [];
  private currentId: string | undefined;
  private loaded = false;
  private problem = '';
  /** The session whose deletion is being confirmed. */
  private confirming: string | undefined;
  private readonly search: HTMLInputElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (message: WebviewToExtension) => void,
    private readonly state: HistoryState,
    /** Told when the view opens or closes (the panel swaps what it shows, and saves the state). */
    private readonly onChange: () => void,
  ) {
    this.search = h('input', {
      class: 'history-search',
      attrs: { type: 'search', placeholder: l10n.t('Search sessions'), 'aria-label': l10n.t('Search sessions by title or first message'), 'aria-controls': 'history-list' },
    });
    this.search.value = state.query;
    this.search.addEventListener('input', () => {
      this.state.query = this.search.value;
      this.confirming = undefined;
      this.render();
      this.onChange();
    });
    this.search.addEventListener('keydown', (e) => this.onSearchKey(e));
    const back = h('button', { class: 'history-back', text: l10n.t('← Chat'), attrs: { type: 'button', 'aria-label': l10n.t('Back to the chat'), title: l10n.t('Back to the chat (Escape)') } });
    back.addEventListener('click', () => this.close());
    this.status = h('p', { class: 'history-status', attrs: { role: 'status' } });
    this.list = h('ul', { class: 'history-list', attrs: { id: 'history-list', role: 'listbox', 'aria-label': l10n.t('Sessions of this project, newest first') } });
    this.list.addEventListener('keydown', (e) => this.onListKey(e));
    root.replaceChildren(h('div', { class: 'history-bar' }, back, this.search), this.status, this.list);
    root.hidden = !state.open;
  }

  get isOpen(): boolean {
    return this.state.open;
  }

  /**
   * Opens the view, asks the extension for the sessions, and puts the focus in the search box; a
   * fresh search unless `keepQuery` (the panel reloading with the view open).
   */
  open(options: { keepQuery?: boolean } = {}): void {
    if (!options.keepQuery && !this.state.open) {
      this.state.query = '';
      this.search.value = '';
    }
    this.state.open = true;
    this.root.hidden = false;
    this.confirming = undefined;
    this.render();
    this.post({ type: 'listSessions' });
    this.onChange();
    this.search.focus();
  }

  close(): void {
    if (!this.state.open) return;
    this.state.open = false;
    this.root.hidden = true;
    this.confirming = undefined;
    this.onChange();
  }

  /** The extension's list of sessions (an answer to listSessions, or after a delete). */
  show(items: SessionSummary[], currentId: string | undefined, problem: string | undefined): void {
    const focusedId = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.session')?.dataset.id;
    this.items = items;
    this.currentId = currentId;
    this.problem = problem ?? '';
    this.loaded = true;
    // A list that arrives while the user confirms a deletion (the answer to opening the view can
    // come after a quick click on ✕) keeps the question open while its session is still there.
    if (!items.some((s) => s.id === this.confirming)) this.confirming = undefined;
    this.render();
    // After a delete the focus goes to the session that took its place, or back to the search box.
    if (focusedId !== undefined && this.list.contains(document.activeElement) === false) {
      const next = this.options()[0];
      if (next) next.focus();
      else this.search.focus();
    }
  }

  private visible(): SessionSummary[] {
    return filterSessions(this.items, this.state.query);
  }

  private render(): void {
    const shown = this.visible();
    const focused = document.activeElement as HTMLElement | null;
    const focusedId = focused?.closest<HTMLElement>('.session')?.dataset.id;
    const focusedAction = focused?.dataset.action;
    this.list.replaceChildren(...shown.map((s) => this.row(s)));
    this.status.textContent = this.problem || this.summary(shown.length);
    this.status.classList.toggle('warning', !!this.problem);
    if (!focusedId) return;
    const row = this.list.querySelector<HTMLElement>(`.session[data-id="${focusedId}"]`);
    const action = focusedAction ? row?.querySelector<HTMLElement>(`[data-action="${focusedAction}"]`) : null;
    (action ?? row)?.focus();
  }

  private summary(count: number): string {
    if (!this.loaded) return l10n.t('Loading sessions…');
    if (this.items.length === 0) return l10n.t('No saved sessions in this project yet.');
    if (count === 0) return l10n.t('No session matches “{0}”.', this.state.query.trim());
    const total = this.items.length;
    if (this.state.query.trim()) return l10n.t('{0} of {1} sessions match.', count, total);
    return total === 1 ? l10n.t('1 session, newest first.') : l10n.t('{0} sessions, newest first.', total);
  }

  private row(s: SessionSummary): HTMLElement {
    const title = s.title || l10n.t('(untitled)');
    const current = s.id === this.currentId;
    const facts = [ago(s.updatedAt), s.messageCount === 1 ? l10n.t('1 message') : l10n.t('{0} messages', s.messageCount), ...(s.usd !== undefined ? [usd(s.usd)] : []), ...(current ? [l10n.t('current')] : [])];
    const item = h(
      'li',
      { class: `session${current ? ' current' : ''}`, data: { id: s.id }, attrs: { role: 'option', tabindex: '-1', 'aria-selected': 'false', 'aria-label': `${title}, ${facts.join(', ')}` } },
      h('div', { class: 'session-title', text: title }),
      h('div', { class: 'session-meta', text: facts.join(' · '), attrs: { title: l10n.t('Updated {0} · started {1} · {2}', new Date(s.updatedAt).toLocaleString(), new Date(s.createdAt).toLocaleString(), s.id) } }),
      s.firstPrompt && s.firstPrompt !== s.title ? h('div', { class: 'session-prompt', text: s.firstPrompt }) : undefined,
    );
    item.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('button')) return;
      this.resume(s.id);
    });
    item.addEventListener('focus', () => this.select(item));
    if (this.confirming === s.id) item.append(this.confirmRow(s, title));
    else if (!current) {
      const del = h('button', { class: 'session-delete', text: '✕', attrs: { type: 'button', 'data-action': 'delete', 'aria-label': l10n.t('Delete session “{0}”', title), title: l10n.t('Delete this session (Delete)') } });
      del.addEventListener('click', () => this.askDelete(s.id));
      item.append(del);
    }
    return item;
  }

  private confirmRow(s: SessionSummary, title: string): HTMLElement {
    const yes = h('button', { class: 'danger', text: l10n.t('Delete'), attrs: { type: 'button', 'data-action': 'confirm-delete' } });
    const no = h('button', { text: l10n.t('Cancel'), attrs: { type: 'button', 'data-action': 'cancel-delete' } });
    yes.addEventListener('click', () => {
      this.confirming = undefined;
      this.post({ type: 'deleteSession', id: s.id });
    });
    no.addEventListener('click', () => this.cancelDelete(s.id));
    for (const b of [yes, no]) {
      b.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          this.cancelDelete(s.id);
        }
      });
    }
    return h('div', { class: 'session-confirm', attrs: { role: 'alertdialog', 'aria-label': l10n.t('Delete “{0}”?', title) } }, h('span', { text: l10n.t('Delete “{0}”? This cannot be undone.', title) }), yes, no);
  }

  private askDelete(id: string): void {
    if (id === this.currentId) return;
    this.confirming = id;
    this.render();
    this.list.querySelector<HTMLElement>(`.session[data-id="${id}"] [data-action="confirm-delete"]`)?.focus();
  }

  private cancelDelete(id: string): void {
    this.confirming = undefined;
    this.render();
    this.list.querySelector<HTMLElement>(`.session[data-id="${id}"]`)?.focus();
  }

  private resume(id: string): void {
    performance.mark('opendev:resume-click');
    this.post({ type: 'resumeSession', id });
    this.close();
  }

  private options(): HTMLElement[] {
    return [...this.list.querySelectorAll<HTMLElement>('.session')];
  }

  private select(item: HTMLElement): void {
    for (const o of this.options()) o.setAttribute('aria-selected', String(o === item));
  }

  private onSearchKey(e: KeyboardEvent): void {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      this.options()[0]?.focus();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const first = this.visible()[0];
      if (first) this.resume(first.id);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (this.search.value) {
        this.search.value = '';
        this.state.query = '';
        this.render();
        this.onChange();
      } else this.close();
    }
  }

  private onListKey(e: KeyboardEvent): void {
    const item = (e.target as HTMLElement).closest<HTMLElement>('.session');
    if (!item || e.target !== item) return; // the confirm row's buttons handle their own keys
    const options = this.options();
    const index = options.indexOf(item);
    const move = (to: number) => {
      e.preventDefault();
      if (to < 0) this.search.focus();
      else options[Math.min(to, options.length - 1)]?.focus();
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(index + 1);
      case 'ArrowUp':
        return move(index - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(options.length - 1);
      case 'Enter':
      case ' ':
        e.preventDefault();
        return this.resume(item.dataset.id!);
      case 'Delete':
      case 'Backspace':
        e.preventDefault();
        return this.askDelete(item.dataset.id!);
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        this.search.focus();
        return;
      default:
        // Typing in the list searches.
        if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          this.search.focus();
        }
    }
  }
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function ago(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, (now - t) / 1000);
  if (s < 60) return l10n.t('just now');
  if (s < 3600) return l10n.t('{0} min ago', Math.floor(s / 60));
  if (s < 86_400) return l10n.t('{0} h ago', Math.floor(s / 3600));
  if (s < 7 * 86_400) return s < 2 * 86_400 ? l10n.t('1 day ago') : l10n.t('{0} days ago', Math.floor(s / 86_400));
  return new Date(t).toLocaleDateString();
}

function usd(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}
