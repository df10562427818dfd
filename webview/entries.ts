import * as l10n from '@vscode/l10n';
import type { ChatEntry, ChatEntryOf, WebviewToExtension } from '../src/shared/protocol';
import { renderApproval, renderPlan, renderQuestion } from './cards';
import { button, h } from './dom';
import { renderMarkdown } from './markdown';
import { renderRetryLine } from './retry-line';
import { renderTool } from './tool-card';
import { renderUserText } from './user-message';

/** What entry renderers may use: posting to the extension, and the view state that must survive hide/show. */
export interface RenderContext {
  post(message: WebviewToExtension): void;
  draft(key: string): string | undefined;
  setDraft(key: string, value: string | undefined): void;
  isToggled(id: string): boolean;
  setToggled(id: string, on: boolean): void;
}

const PHASE_LABELS: Record<ChatEntryOf<'thinking'>['phase'], string> = {
  thinking: l10n.t('Thinking'),
  critique: l10n.t('Self-critique'),
  refined: l10n.t('Refined thinking'),
  reasoning: l10n.t('Reasoning'),
};

const SUBAGENT_STATUS: Record<ChatEntryOf<'subagent'>['status'], string> = {
  running: l10n.t('running…'),
  completed: l10n.t('✓ completed'),
  failed: l10n.t('✗ failed'),
  stopped: l10n.t('■ stopped'),
};

export function renderEntry(entry: ChatEntry, ctx: RenderContext): HTMLElement {
  const el = renderBody(entry, ctx);
  el.classList.add('entry', entry.kind);
  el.dataset.id = entry.id;
  return el;
}

/** Streams more text into an already rendered assistant or thinking entry (no re-render of the card). */
export function updateText(el: HTMLElement, entry: ChatEntry): void {
  if (entry.kind === 'assistant') renderMarkdown(el, entry.text);
  else if (entry.kind === 'thinking') {
    const body = el.querySelector<HTMLElement>('.thinking-body');
    if (body) renderMarkdown(body, entry.text);
    const preview = el.querySelector<HTMLElement>('.thinking-preview');
    if (preview) preview.textContent = firstLine(entry.text);
  }
}

function renderBody(entry: ChatEntry, ctx: RenderContext): HTMLElement {
  switch (entry.kind) {
    case 'user': {
      const el = h('article');
      renderUserText(el, entry);
      if (entry.queued) {
        el.classList.add('queued');
        el.append(h('span', { class: 'badge', text: l10n.t('Queued'), attrs: { title: l10n.t('Sent while OpenDev works: it reads this at its next step.') } }));
      }
      return el;
    }
    case 'assistant': {
      const el = h('article');
      renderMarkdown(el, entry.text);
      return el;
    }
    case 'tool':
      return renderTool(entry, ctx);
    case 'error': {
      const el = h('article', { attrs: { role: 'alert' } }, h('p', { text: entry.text }));
      const buttons = h('div', { class: 'card-buttons' });
      // A failed turn can be sent again as it was; the fix (a key, the settings) comes first when there is one.
      if (entry.action) {
        const action = entry.action;
        buttons.append(button(action === 'setApiKey' ? l10n.t('Set API Key') : l10n.t('Open Settings'), action, () => ctx.post({ type: 'action', action })));
      }
      if (entry.retry) {
        buttons.append(button(l10n.t('Retry'), 'retry-turn', () => ctx.post({ type: 'retryTurn', id: entry.id }), { secondary: entry.action !== undefined, title: l10n.t('Send this message again') }));
      }
      if (buttons.childElementCount > 0) el.append(buttons);
      return el;
    }
    case 'retry':
      return renderRetryLine(entry, ctx);
    case 'setup':
      return renderSetup(entry, ctx);
    case 'notice':
      return renderNotice(entry);
    case 'thinking':
      return renderThinking(entry, ctx);
    case 'subagent':
      return renderSubagent(entry);
    case 'approval':
      return renderApproval(entry, ctx);
    case 'question':
      return renderQuestion(entry, ctx);
    case 'plan':
      return renderPlan(entry, ctx);
  }
}

/** No key yet: a welcome card with the ways forward, not an error: the models the user already has first (one click each), then the key. */
function renderSetup(entry: ChatEntryOf<'setup'>, ctx: RenderContext): HTMLElement {
  const offers = entry.offers ?? [];
  return h(
    'article',
    { attrs: { role: 'group', 'aria-label': entry.title } },
    h('div', { class: 'setup-title', text: entry.title }),
    h('p', { class: 'setup-text', text: entry.text }),
    h(
      'div',
      { class: 'setup-actions' },
      ...offers.map((offer, i) => button(offer.label, 'useOffer', () => ctx.post({ type: 'action', action: 'useOffer', offer: offer.id }), { secondary: i > 0, title: offer.detail })),
      button(l10n.t('Set API Key'), 'setApiKey', () => ctx.post({ type: 'action', action: 'setApiKey', provider: entry.provider }), { secondary: offers.length > 0 }),
      button(l10n.t('Choose Provider'), 'chooseProvider', () => ctx.post({ type: 'action', action: 'chooseProvider' }), {
        secondary: true,
        title: l10n.t('Choose another provider: OpenAI, Anthropic, or a local OpenAI-compatible server (no key needed)'),
      }),
    ),
  );
}

function renderNotice(entry: ChatEntryOf<'notice'>): HTMLElement {
  if (entry.command) {
    // A slash command's output: the command as typed, then its text as the registry wrote it.
    return h(
      'article',
      { class: `command-output${entry.level === 'warning' ? ' warning' : ''}` },
      h('div', { class: 'command-line', text: entry.command }),
      h('pre', { class: 'command-text', text: entry.text }),
    );
  }
  const el = h('article', { text: entry.text });
  if (entry.level === 'warning') {
    el.classList.add('warning');
    el.setAttribute('role', 'status');
  }
  return el;
}

function renderThinking(entry: ChatEntryOf<'thinking'>, ctx: RenderContext): HTMLElement {
  const body = h('div', { class: 'thinking-body' });
  renderMarkdown(body, entry.text);
  const details = h(
    'details',
    { data: { phase: entry.phase } },
    h('summary', {}, h('span', { class: 'thinking-label', text: PHASE_LABELS[entry.phase] }), h('span', { class: 'thinking-preview', text: firstLine(entry.text) })),
    body,
  );
  details.open = ctx.isToggled(entry.id);
  details.addEventListener('toggle', () => ctx.setToggled(entry.id, details.open));
  return details;
}

function renderSubagent(entry: ChatEntryOf<'subagent'>): HTMLElement {
  const head = h(
    'div',
    { class: 'subagent-head' },
    h('span', { class: 'subagent-type', text: entry.type }),
    entry.background && h('span', { class: 'badge', text: l10n.t('background') }),
    h('span', { class: 'subagent-status', text: SUBAGENT_STATUS[entry.status] }),
  );
  const el = h('article', { data: { status: entry.status }, attrs: { 'aria-busy': entry.status === 'running' ? 'true' : undefined } }, head);
  el.append(h('div', { class: 'subagent-task', text: entry.task }));
  if (entry.summary) {
    const summary = h('div', { class: 'subagent-summary' });
    renderMarkdown(summary, entry.summary);
    el.append(summary);
  }
  return el;
}

function firstLine(text: string): string {
  return clip(text.trim().split('\n')[0] ?? '', 90);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
