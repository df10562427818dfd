import * as l10n from '@vscode/l10n';
import { h } from './dom';

/**
 * Unified-diff text as a block of lines coloured by kind (added, removed, hunk header, file,
 * context). `headers` false: the text is one hunk's lines only, so a removed `-- comment` is not
 * taken for a `---` file line.
 */
export function diffView(diff: string, label = l10n.t('Proposed change (unified diff)'), headers = true): HTMLElement {
  const pre = h('pre', { class: 'diff', attrs: { 'aria-label': label } });
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    const kind =
      headers && (line.startsWith('+++') || line.startsWith('---')) ? 'file' : headers && line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
    pre.append(h('span', { class: `diff-${kind}`, text: `${line}\n` }));
  }
  return pre;
}
