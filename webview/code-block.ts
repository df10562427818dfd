import * as l10n from '@vscode/l10n';
import { loadHighlighter, showCode } from './code-highlight';
import { h } from './dom';

/**
 * A fenced code block: a slim header with the language and a Copy button, then the code. `source`
 * is what follows the opening fence (the info string, a newline, the code). A block whose closing
 * fence has not arrived yet is still streaming: it shows as plain text and offers no Copy (its
 * code is not whole), and is drawn again, highlighted, once it closes.
 */
export function codeBlock(source: string, closed: boolean): HTMLElement {
  const newline = source.indexOf('\n');
  const info = newline >= 0 ? source.slice(0, newline).trim() : closed ? '' : source.trim();
  const text = (newline >= 0 ? source.slice(newline + 1) : closed ? source : '').replace(/\n$/, '');
  const code = h('code');
  if (closed) showCode(code, text, info);
  else {
    code.textContent = text;
    if (info) loadHighlighter(); // so it is here when the block closes
  }
  const label = info.split(/[\s{]/)[0] ?? '';
  const copy = h('button', { class: 'code-copy', text: l10n.t('Copy'), attrs: { type: 'button', 'aria-label': l10n.t('Copy code'), title: l10n.t('Copy code') } });
  copy.hidden = !closed;
  return h(
    'div',
    { class: 'code-block', data: { state: closed ? 'closed' : 'streaming', ...(label ? { language: label } : {}) } },
    h('div', { class: 'code-head' }, h('span', { class: 'code-language', text: label }), copy),
    h('pre', {}, code),
  );
}
