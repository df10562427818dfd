import type { Token, Tokens } from 'marked';
import { codeBlock } from './code-block';
import { h } from './dom';
import { appendInline } from './markdown-inline';

/**
 * One top-level block of marked's lexer output as DOM nodes: headings, paragraphs, lists (nested,
 * with task checkboxes), tables, block quotes, rules and fenced code (code-block.ts: highlighted,
 * with Copy). Raw HTML blocks show as their text. `open` says the block may still grow (the last
 * one while an answer streams): a code block without its closing fence is drawn as streaming.
 */
export function blockNodes(token: Token): Node[] {
  const t = token as Tokens.Generic;
  switch (t.type) {
    case 'space':
    case 'def':
      return [];
    case 'heading': {
      // h3…h6: headings inside a chat stay modest.
      const el = h(`h${Math.min(6, Number(t.depth) + 2)}`);
      appendInline(el, t.tokens);
      return [el];
    }
    case 'paragraph':
      return [inlineBlock('p', t.tokens)];
    case 'text':
      return [inlineBlock('p', t.tokens ?? [{ type: 'text', raw: t.raw, text: t.text } as Token])];
    case 'code':
      return [codeBlock(fencedSource(t as Tokens.Code), codeClosed(t as Tokens.Code))];
    case 'blockquote': {
      const quote = h('blockquote');
      for (const child of t.tokens ?? []) quote.append(...blockNodes(child));
      return [quote];
    }
    case 'list':
      return [list(t as Tokens.List)];
    case 'table':
      return [table(t as Tokens.Table)];
    case 'hr':
      return [h('hr')];
    default:
      // html and anything unknown: the source as written.
      return [h('p', { text: String(t.raw ?? '').trim() })];
  }
}

/** What code-block.ts takes: the info string, a newline, the code (and, when closed, nothing after). */
function fencedSource(token: Tokens.Code): string {
  return `${token.lang ?? ''}\n${token.text}`;
}

/** An indented block is whole; a fenced one once its closing fence has arrived. */
export function codeClosed(token: Tokens.Code): boolean {
  if (token.codeBlockStyle === 'indented') return true;
  const lines = token.raw.replace(/\n+$/, '').split('\n');
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0] ?? '')?.[1];
  if (!fence || lines.length < 2) return false;
  const last = lines.at(-1)!.trim();
  return last.length >= fence.length && last === fence[0]!.repeat(last.length);
}

function inlineBlock(tag: string, tokens: readonly Token[] | undefined): HTMLElement {
  const el = h(tag);
  appendInline(el, tokens);
  return el;
}

function list(token: Tokens.List): HTMLElement {
  const el = h(token.ordered ? 'ol' : 'ul');
  const start = Number(token.start);
  if (token.ordered && Number.isInteger(start) && start !== 1) el.setAttribute('start', String(start));
  if (token.items.some((item) => item.task)) el.classList.add('task-list');
  for (const item of token.items) {
    const li = h('li');
    for (const child of item.tokens) {
      const c = child as Tokens.Generic;
      if (c.type === 'checkbox') {
        li.classList.add('task');
        li.append(h('input', { attrs: { type: 'checkbox', disabled: '', ...(c.checked ? { checked: '' } : {}), 'aria-label': c.checked ? 'done' : 'to do' } }));
      } else if (c.type === 'text' && !item.loose) appendInline(li, c.tokens ?? [c as Token]);
      else li.append(...blockNodes(child));
    }
    el.append(li);
  }
  return el;
}

function table(token: Tokens.Table): HTMLElement {
  const cell = (tag: 'th' | 'td', c: Tokens.TableCell) => {
    const el = h(tag, c.align ? { class: `align-${c.align}` } : {});
    appendInline(el, c.tokens);
    return el;
  };
  const head = h('thead', {}, h('tr', {}, ...token.header.map((c) => cell('th', c))));
  const body = h('tbody', {}, ...token.rows.map((row) => h('tr', {}, ...row.map((c) => cell('td', c)))));
  // A wide table scrolls inside its own box, not the whole entry.
  return h('div', { class: 'table-wrap' }, h('table', {}, head, token.rows.length > 0 ? body : undefined));
}
