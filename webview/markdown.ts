import { Lexer, type Token, type Tokens } from 'marked';
import { blockNodes, codeClosed } from './markdown-blocks';
import { appendInline } from './markdown-inline';

/**
 * Markdown for answers, traces and plans: parsed by marked's lexer (CommonMark + GFM: tables, task
 * lists, strikethrough, autolinked URLs), drawn by markdown-blocks.ts and markdown-inline.ts, which
 * build every node themselves from the tokens. No HTML string is ever produced or parsed, so there is
 * nothing to sanitise: raw HTML in an answer is shown as text, and a link is one only when its
 * destination passes a strict check (web links by scheme, workspace paths). Single newlines are line
 * breaks, as models mean them.
 *
 * Streaming calls this again for every delta with the whole text so far. Only the text from the last
 * block boundary nothing after it can move is lexed again (`relex`), and only the top-level blocks
 * whose source changed are rebuilt: the
 * unchanged prefix (prose, closed code blocks, tables) keeps its nodes, so only the growing tail is
 * drawn. A code block is highlighted once its closing fence has arrived, never while it grows.
 */
export function renderMarkdown(target: HTMLElement, text: string): void {
  const before = shown.get(target) ?? [];
  // Only a prefix of unchanged parts can stay, and only if nothing else rewrote the element meanwhile.
  let keep = before.every((part) => part.nodes.every((n) => n.parentNode === target)) ? 0 : -1;
  const now: Part[] = [];
  for (const token of topLevel(target, text)) {
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
function topLevel(target: HTMLElement, text: string): Token[] {
  const tokens = relex(lexed.get(target), text);
  lexed.set(target, { text, tokens });
  return tokens.filter((t) => t.type !== 'space' && t.type !== 'def');
}

/** The text last drawn in an element and its top-level tokens (their raws cover the text). */
interface Lexed {
  text: string;
  tokens: Token[];
}

const lexed = new WeakMap<HTMLElement, Lexed>();

/**
 * The tokens of `text`, reusing those of the text drawn before up to a hard boundary: a block that
 * starts a line after a blank line, unindented, after a block that nothing later can extend (not a
 * list, which a later item joins; not an open code fence). Lexing from there gives what lexing the
 * whole text gives, so a streamed answer is not lexed again from its start at every delta.
 */
export function relex(before: Lexed | undefined, text: string): Token[] {
  // A reference definition applies to the whole text: then it is lexed whole.
  if (before && !before.tokens.some((t) => t.type === 'def')) {
    let offset = 0;
    const starts = before.tokens.map((t) => ((offset += t.raw.length), offset - t.raw.length));
    if (offset === before.text.length) {
      // Never the last block: it may still be growing.
      for (let i = before.tokens.length - 2; i >= 2; i--) {
        const start = starts[i]!;
        const prev = before.tokens[i - 2]!;
        const boundary =
          before.tokens[i - 1]!.type === 'space' &&
          /^\S/.test(before.tokens[i]!.raw) &&
          prev.type !== 'list' &&
          prev.type !== 'def' &&
          (prev.type !== 'code' || codeClosed(prev as Tokens.Code));
        if (boundary && text.length > start && text.startsWith(before.text.slice(0, start + 1))) {
          return [...before.tokens.slice(0, i), ...Lexer.lex(text.slice(start), OPTIONS)];
        }
      }
    }
  }
  return Lexer.lex(text, OPTIONS);
}

