import * as l10n from '@vscode/l10n';
import type { ChatEntryOf, MentionChip } from '../src/shared/protocol';
import { mentionPath, parseMentions } from '../src/shared/mention-syntax';
import { h } from './dom';

const KIND_WORDS = (): Record<MentionChip['kind'], string> => ({ file: l10n.t('file'), folder: l10n.t('folder'), problems: l10n.t('problems'), terminal: l10n.t('terminal output'), git: l10n.t('git diff') });

/**
 * The user's message as sent: its text with each attached `@` mention as a chip (what it attached
 * in the tooltip and for screen readers), then the images' thumbnails.
 */
export function renderUserText(el: HTMLElement, entry: ChatEntryOf<'user'>): void {
  const chips = new Map((entry.mentions ?? []).map((m) => [m.target, m]));
  const text = h('div', { class: 'user-text' });
  let at = 0;
  for (const mention of parseMentions(entry.text)) {
    const chip = chips.get(mention.special ?? mentionPath(mention.target));
    if (!chip) continue;
    text.append(entry.text.slice(at, mention.start));
    const label = chip.ok ? l10n.t('Attached {0} {1}', KIND_WORDS()[chip.kind], chip.target) : l10n.t('Could not attach {0}', chip.target);
    text.append(h('span', { class: `mention-chip${chip.ok ? '' : ' failed'}`, text: entry.text.slice(mention.start, mention.end), data: { kind: chip.kind }, attrs: { title: label, 'aria-label': label } }));
    at = mention.end;
  }
  text.append(entry.text.slice(at));
  el.append(text);
  if (entry.images?.length) {
    el.append(
      h(
        'div',
        { class: 'user-images', attrs: { role: 'list', 'aria-label': l10n.t('Attached images') } },
        ...entry.images.map((image, i) => h('img', { class: 'user-image', attrs: { role: 'listitem', src: image.thumbnail, alt: image.name ?? `image ${i + 1}`, title: image.name } })),
      ),
    );
  }
}
