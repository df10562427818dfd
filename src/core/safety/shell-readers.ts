import { closingParen } from '../process/shell-words';
import type { PartOrigin, Redirect } from './command-part';
import { riskyExpansion, RISKY_HERE_STRING } from './risky-expansions';

/**
 * The readers of the command splitter for what is more than a plain character: quotes, `$`-forms,
 * redirections and here-documents. They advance the splitter's position and hand nested commands
 * back to it (`nested` for text read in place, `sub` for a separate text such as a here-document's
 * substitution).
 */
export interface ReaderHost {
  readonly s: string;
  i: number;
  heredocs: Array<{ delimiter: string; strip: boolean; expand: boolean }>;
  fail(reason: string): void;
  flagRisky(reason: string): void;
  flagSubstitution(): void;
  nested(stop: ')' | '`', origin: PartOrigin): void;
  sub(text: string, origin: PartOrigin): void;
}

/** The simple command being read. */
export interface Builder {
  raw: string;
  words: string[];
  wordStarts: number[];
  /** Where each word starts in the source text, and where the command's first word or redirection starts. */
  sourceStarts: number[];
  sourceStart?: number;
  word: string;
  inWord: boolean;
  wordStart: number;
  wordSource: number;
  redirects: Redirect[];
  pendingOp?: string;
  /** A `( … )` group stood in command position. */
  grouped: boolean;
  /** Where this command's part goes: before the substitutions found inside it (the order they are written in). */
  slot: number;
}

export const newBuilder = (slot: number): Builder => ({ raw: '', words: [], wordStarts: [], sourceStarts: [], word: '', inWord: false, wordStart: 0, wordSource: 0, redirects: [], grouped: false, slot });

/** A double-quoted string from its opening quote: text, with the commands `$(…)` and backticks inside it. */
export function readDoubleQuoted(h: ReaderHost, b: Builder): void {
  const s = h.s;
  b.raw += '"';
  h.i++;
  while (h.i < s.length) {
    const c = s[h.i]!;
    if (c === '"') {
      b.raw += '"';
      h.i++;
      return;
    }
    if (c === '\\' && h.i + 1 < s.length) {
      const n = s[h.i + 1]!;
      if (n !== '\n') b.word += '$`"\\'.includes(n) ? n : `\\${n}`;
      b.raw += c + n;
      h.i += 2;
      continue;
    }
    if (c === '$' && s[h.i + 1] !== "'") {
      readDollar(h, b);
      continue;
    }
    if (c === '`') {
      h.i++;
      h.nested('`', 'substitution');
      continue;
    }
    b.word += c;
    b.raw += c;
    h.i++;
  }
  h.fail('an unclosed double quote');
}

/** `$(…)`, `$((…))`, `${…}`, `$'…'` or a plain `$`. */
export function readDollar(h: ReaderHost, b: Builder): void {
  const s = h.s;
  const next = s[h.i + 1];
  if (next === '(' && s[h.i + 2] === '(') {
    const end = matchParen(s, h.i + 1);
    b.word += s.slice(h.i, end);
    b.raw += s.slice(h.i, end);
    h.i = end;
    return;
  }
  if (next === '(') {
    h.i += 2;
    h.nested(')', 'substitution');
    return;
  }
  if (next === '{') {
    const text = readParameterExpansion(h);
    b.word += text;
    b.raw += text;
    return;
  }
  if (next === "'") {
    const end = closingAnsiQuote(s, h.i + 2);
    const body = s.slice(h.i + 2, end);
    const decoded = decodeAnsiC(body);
    if (decoded !== body && b.words.length === 0 && b.word === '') h.flagRisky('the command name is spelled with `$\'…\'` escapes');
    b.word += decoded;
    b.raw += s.slice(h.i, Math.min(s.length, end + 1));
    if (end >= s.length) h.fail('an unclosed `$\'` quote');
    h.i = end + 1;
    return;
  }
  b.word += '$';
  b.raw += '$';
  h.i++;
}

/** `${…}` with what runs inside it (`${x:-$(cmd)}`); returns the text without the substitutions. */
function readParameterExpansion(h: ReaderHost): string {
  const s = h.s;
  let text = '${';
  h.i += 2;
  let depth = 1;
  while (h.i < s.length) {
    const c = s[h.i]!;
    if (c === '}') {
      text += c;
      h.i++;
      if (--depth === 0) break;
      continue;
    }
    if (c === '$' && s[h.i + 1] === '{') {
      depth++;
      text += '${';
      h.i += 2;
      continue;
    }
    if (c === '$' && s[h.i + 1] === '(' && s[h.i + 2] !== '(') {
      h.i += 2;
      h.nested(')', 'substitution');
      continue;
    }
    if (c === '`') {
      h.i++;
      h.nested('`', 'substitution');
      continue;
    }
    if (c === '\\' && h.i + 1 < s.length) {
      text += s.slice(h.i, h.i + 2);
      h.i += 2;
      continue;
    }
    text += c;
    h.i++;
  }
  if (depth > 0) h.fail('an unclosed `${`');
  const risk = riskyExpansion(text);
  if (risk) h.flagRisky(risk);
  return text;
}

/** A redirection operator and, for descriptor copies and here-documents, its target. */
export function readRedirect(h: ReaderHost, b: Builder): void {
  const s = h.s;
  const op = /^(?:&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|<)/.exec(s.slice(h.i))![0];
  h.i += op.length;
  b.raw += op;
  const spaces = /^[ \t]*/.exec(s.slice(h.i))![0];
  const after = s.slice(h.i + spaces.length);
  if ((op === '>&' || op === '<&') && /^(?:\d+|-)(?![^\s;&|<>()])/.test(after)) {
    const fd = /^(?:\d+|-)/.exec(after)![0];
    b.redirects.push({ op, target: `&${fd}` });
    b.raw += spaces + fd;
    h.i += spaces.length + fd.length;
    return;
  }
  if (op === '<<<' && RISKY_HERE_STRING.test(after)) h.flagRisky('a here-string feeds a command substitution');
  if (op === '<<' || op === '<<-') {
    const word = /^(['"]?)([^\s'";&|<>()]+)\1/.exec(after);
    if (!word) {
    h.fail('a here-document without a delimiter');
    return;
  }
    h.heredocs.push({ delimiter: word[2]!, strip: op === '<<-', expand: word[1] === '' });
    b.redirects.push({ op, target: word[2]! });
    b.raw += spaces + word[0];
    h.i += spaces.length + word[0].length;
    return;
  }
  b.pendingOp = op;
}

/** After a newline: the bodies of pending here-documents (data, but substitutions in them run). */
export function readHeredocBodies(h: ReaderHost): void {
  const s = h.s;
  for (const doc of h.heredocs.splice(0)) {
    const lines: string[] = [];
    let closed = false;
    while (h.i < s.length) {
      const end = s.indexOf('\n', h.i);
      const line = s.slice(h.i, end === -1 ? s.length : end);
      h.i = end === -1 ? s.length : end + 1;
      if ((doc.strip ? line.replace(/^\t+/, '') : line) === doc.delimiter) {
        closed = true;
        break;
      }
      lines.push(line);
    }
    if (!closed) h.fail(`the here-document \`${doc.delimiter}\` is not closed`);
    if (doc.expand) {
      for (const body of substitutionsIn(lines.join('\n'))) {
        h.flagSubstitution();
        h.sub(body, 'substitution');
      }
    }
  }
}

/** The `$(…)` and backtick bodies in a here-document with an unquoted delimiter. */
function substitutionsIn(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      const end = matchParen(text, i + 1);
      out.push(text.slice(i + 2, end - 1));
      i = end - 1;
    } else if (text[i] === '`') {
      const end = text.indexOf('`', i + 1);
      out.push(text.slice(i + 1, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end;
    }
  }
  return out;
}

/** Index just after the parenthesis that closes the one at `open` (or the end of the text). */
export function matchParen(text: string, open: number): number {
  return Math.min(closingParen(text, open) + 1, text.length);
}

function closingAnsiQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  return text.length;
}

/** Decodes `$'…'` escapes, so `$'\x72m'` is seen as `rm`. */
function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/g, (_m, e: string) => {
    if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    if (e.startsWith('c')) return String.fromCharCode(e.charCodeAt(1) & 31);
    return simple[e] ?? `\\${e}`;
  });
}
