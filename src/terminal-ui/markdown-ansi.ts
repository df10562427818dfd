import { markdownLexer } from '../core/lazy-libraries';
import type { Token, Tokens } from '../vendor/markdown';

/**
 * Markdown drawn for a terminal with ANSI escapes: inline (bold, italics, strikethrough, code,
 * links) and whole tables, from marked's lexer (loaded on first use, so `opendev -p` without a
 * terminal never pays for it). Block structure line by line is markdown-lines.ts's job.
 */

const ESC = {
  bold: ['\x1b[1m', '\x1b[22m'],
  italic: ['\x1b[3m', '\x1b[23m'],
  strike: ['\x1b[9m', '\x1b[29m'],
  underline: ['\x1b[4m', '\x1b[24m'],
  dim: ['\x1b[2m', '\x1b[22m'],
  code: ['\x1b[36m', '\x1b[39m'],
  link: ['\x1b[34m', '\x1b[39m'],
  heading: ['\x1b[1;35m', '\x1b[22;39m'],
} as const;
export type AnsiStyle = keyof typeof ESC;

export function ansi(text: string, kind: AnsiStyle): string {
  const [on, off] = ESC[kind];
  return `${on}${text}${off}`;
}

const OPTIONS = { gfm: true } as const;

/** One line (or cell) of inline markdown in colour. */
export function inlineAnsi(text: string): string {
  return tokensAnsi(markdownLexer().Lexer.lexInline(text, OPTIONS));
}

function tokensAnsi(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map((t) => tokenAnsi(t as Tokens.Generic)).join('');
}

function tokenAnsi(token: Tokens.Generic): string {
  switch (token.type) {
    case 'strong':
      return ansi(tokensAnsi(token.tokens), 'bold');
    case 'em':
      return ansi(tokensAnsi(token.tokens), 'italic');
    case 'del':
      return ansi(tokensAnsi(token.tokens), 'strike');
    case 'codespan':
      return ansi(String(token.text), 'code');
    case 'link': {
      const label = tokensAnsi(token.tokens);
      const href = String(token.href ?? '');
      // An autolinked URL is its own label: say it once.
      return label === href || token.text === href ? ansi(underline(href), 'link') : `${ansi(underline(label), 'link')} ${ansi(`(${href})`, 'dim')}`;
    }
    case 'image':
      return `[${String(token.text ?? '')}]`;
    case 'br':
      return '\n';
    case 'text':
      return token.tokens ? tokensAnsi(token.tokens) : decodeEntities(String(token.text ?? ''));
    case 'escape':
      return String(token.text ?? '');
    default:
      return String(token.raw ?? '');
  }
}

function underline(text: string): string {
  return ansi(text, 'underline');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.includes('&') ? text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!) : text;
}

/** Columns a string takes on screen: escapes take none (wide characters are not measured). */
export function visibleWidth(text: string): number {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/\x1b\[[0-9;]*m/g, '')].length;
}

/**
 * A whole table block (its lines as the model wrote them) drawn with box lines, each column as
 * wide as its widest cell, aligned as the delimiter row says; undefined when it is not a table after
 * all (the caller prints the lines as text).
 */
export function tableAnsi(block: string): string | undefined {
  const table = markdownLexer().Lexer.lex(block, OPTIONS).find((t) => t.type === 'table') as Tokens.Table | undefined;
  if (!table) return undefined;
  const draw = (cell: Tokens.TableCell) => tokensAnsi(cell.tokens).replace(/\n/g, ' ');
  const header = table.header.map(draw);
  const rows = table.rows.map((row) => row.map(draw));
  const widths = header.map((h, i) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? '')), 1));
  const pad = (text: string, i: number) => {
    const room = widths[i]! - visibleWidth(text);
    const align = table.align[i];
    if (align === 'right') return ' '.repeat(room) + text;
    if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
    return text + ' '.repeat(room);
  };
  const line = (cells: string[]) => `│ ${widths.map((_, i) => pad(cells[i] ?? '', i)).join(' │ ')} │`;
  const rule = (l: string, m: string, r: string) => {
    return ansi(`${l}${widths.map((w) => '─'.repeat(w + 2)).join(m)}${r}`, 'dim');
  };
  const head = line(header.map((h) => ansi(h, 'bold')));
  return [rule('┌', '┬', '┐'), head, rule('├', '┼', '┤'), ...rows.map(line), rule('└', '┴', '┘')].join('\n') + '\n';
}
