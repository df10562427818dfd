import { Lexer, type Token } from 'marked';
import { blockNodes } from './markdown-blocks';
import { appendInline } from './markdown-inline';

/**
 * Markdown for answers, traces and plans: parsed by marked's lexer (CommonMark + GFM: tables, task
 * lists, strikethrough, autolinked URLs), drawn by markdown-blocks.ts and markdown-inline.ts, which
 * build every node themselves from the tokens. No HTML string is ever produced or parsed, so there is
 * nothing to sanitise: raw HTML in an answer is shown as text, and a link is one only when its
 * destination passes a strict check (web links by scheme, workspace paths). Single newlines are line
 * breaks, as models mean them.
 *
 * Streaming calls this again for every delta with the whole text so far. The text is lexed again (a
 * fraction of a millisecond) but only the top-level blocks whose source changed are rebuilt: the
 * unchanged prefix (prose, closed code blocks, tables) keeps its nodes, so only the growing tail is
 * drawn. A code block is highlighted once its closing fence has arrived, never while it grows.
 */
export function renderMarkdown(target: HTMLElement, text: string): void {
  const before = shown.get(target) ?? [];
  // Only a prefix of unchanged parts can stay, and only if nothing else rewrote the element meanwhile.
  let keep = before.every((part) => part.nodes.every((n) => n.parentNode === target)) ? 0 : -1;
  const now: Part[] = [];
  for (const token of topLevel(text)) {
    const key = `${token.type}:${token.raw.replace(/\n+$/, '')}`;
    const same = before[now.length];
    if (keep === now.length && same?.key === key) {
      now.push(same);
      keep++;
    } else now.push({ key, nodes: blockNodes(token) });
  }
  keep = Math.max(0, keep);
  const last = now.slice(0, keep).flatMap((p) => p.nodes).at(-1);
  // Everything after the last node kept goes; the new parts follow it.
  if (last) while (last.nextSibling) last.nextSibling.remove();
  else target.replaceChildren();
  target.append(...now.slice(keep).flatMap((p) => p.nodes));
  shown.set(target, now);
}

/** Inline markdown (code, bold, italics, links) appended to `target`: one-line texts such as a status. */
export function renderInline(target: HTMLElement, text: string): void {
  appendInline(target, Lexer.lexInline(text, OPTIONS));
}

/** One top-level block as rendered, keyed by its type and source. */
interface Part {
  key: string;
  nodes: Node[];
}

const shown = new WeakMap<HTMLElement, Part[]>();
const OPTIONS = { gfm: true, breaks: true } as const;

/** The blocks, without the blank space between them (it draws nothing and would shift the keys). */
function topLevel(text: string): Token[] {
  return Lexer.lex(text, OPTIONS).filter((t) => t.type !== 'space' && t.type !== 'def');
}

