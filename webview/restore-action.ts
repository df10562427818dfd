import * as l10n from '@vscode/l10n';
import type { ChatEntryOf, WebviewToExtension } from '../src/shared/protocol';
import { h } from './dom';

/** Cards whose confirmation is open (kept across re-renders of the card, e.g. when it scrolls out and back). */
const confirming = new Set<string>();

/**
 * "Restore to here" on the first card of a step that changed files: asks first, then has the
 * extension put the files back as they were just before the step (it and every later step undone).
 * An undone step says so instead.
 */
export function restoreAction(entry: ChatEntryOf<'tool'>, post: (message: WebviewToExtension) => void): HTMLElement | undefined {
  const step = entry.step;
  if (step === undefined) return undefined;
  const row = h('div', { class: 'restore-row' });
  if (entry.undone) {
    row.append(h('span', { class: 'badge restore-undone', text: l10n.t('Step {0} undone', step), attrs: { title: l10n.t('The files of this step were put back as they were before it.') } }));
    return row;
  }
  const ask = h('button', {
    class: 'restore-button',
    text: l10n.t('↺ Restore to here'),
    attrs: { type: 'button', 'data-action': 'restore', title: l10n.t('Put the files back as they were just before step {0}', step), 'aria-label': l10n.t('Restore the files to just before step {0}', step) },
  });
  const confirm = h(
    'div',
    { class: 'restore-confirm', attrs: { role: 'alertdialog', 'aria-label': l10n.t('Restore to before step {0}?', step) } },
    h('span', { text: l10n.t('Put the files back as they were just before step {0}? This step and every later one are undone; other files stay as they are.', step) }),
  );
  const yes = h('button', { class: 'danger', text: l10n.t('Restore'), attrs: { type: 'button', 'data-action': 'confirm-restore' } });
  const no = h('button', { text: l10n.t('Cancel'), attrs: { type: 'button', 'data-action': 'cancel-restore' } });
  confirm.append(yes, no);
  const setOpen = (open: boolean, focus: boolean) => {
    if (open) confirming.add(entry.id);
    else confirming.delete(entry.id);
    ask.hidden = open;
    confirm.hidden = !open;
    if (focus) (open ? yes : ask).focus();
  };
  ask.addEventListener('click', () => setOpen(true, true));
  no.addEventListener('click', () => setOpen(false, true));
  confirm.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    setOpen(false, true);
  });
  yes.addEventListener('click', () => {
    confirming.delete(entry.id);
    yes.setAttribute('disabled', '');
    post({ type: 'restoreTo', step });
  });
  setOpen(confirming.has(entry.id), false);
  row.append(ask, confirm);
  return row;
}
