import * as l10n from '@vscode/l10n';
import type { ChatEntryOf } from '../src/shared/protocol';
import { button, h, prettyJson } from './dom';
import type { RenderContext } from './entries';
import { restoreAction } from './restore-action';

/**
 * A tool card: one line that says what happened in words (the extension wrote it: "Read math.ts ·
 * 12 lines", "Ran npm test · exit 0 · 3.2 s"), which opens to the raw detail — the tool's name, the
 * arguments the model sent and the output it got back. The card renders; it words nothing itself.
 */
export function renderTool(entry: ChatEntryOf<'tool'>, ctx: RenderContext): HTMLElement {
  const mark = entry.status === 'running' ? '⋯' : entry.status === 'ok' ? '✓' : '✗';
  const headline = entry.headline ?? entry.summary ?? entry.name;
  const raw = h(
    'div',
    { class: 'tool-raw' },
    h('div', { class: 'tool-call' }, h('span', { class: 'tool-raw-label', text: `${l10n.t('Tool')} ` }), h('code', { class: 'tool-name', text: entry.name })),
    entry.args.trim() && entry.args.trim() !== '{}' && h('pre', { class: 'tool-args', text: prettyJson(entry.args), attrs: { 'aria-label': l10n.t('Arguments') } }),
    entry.output !== undefined && h('pre', { class: 'tool-output', text: entry.output || l10n.t('(no output)'), attrs: { 'aria-label': l10n.t('Output') } }),
  );
  const details = h(
    'details',
    { class: 'tool-result' },
    h(
      'summary',
      { class: 'tool-detail', attrs: { title: entry.output === undefined ? l10n.t('Show the call') : l10n.t('Show the call and its full output') } },
      h('span', { class: 'tool-mark', text: mark, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'tool-headline', text: headline }),
    ),
    raw,
  );
  details.open = ctx.isToggled(entry.id);
  details.addEventListener('toggle', () => ctx.setToggled(entry.id, details.open));
  // A finished edit (auto-approved ones too) can be reviewed afterwards in the diff editor.
  const diffId = entry.diffId;
  const showDiff =
    diffId !== undefined &&
    button(l10n.t('Show diff'), 'show-diff', () => ctx.post({ type: 'showDiff', id: diffId }), { secondary: true, title: l10n.t('Open the file before and after this edit in the diff editor') });
  return h('article', { data: { status: entry.status }, attrs: { 'aria-busy': entry.status === 'running' ? 'true' : undefined } }, details, showDiff, restoreAction(entry, ctx.post));
}
