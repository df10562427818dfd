/**
 * A small, conservative reader of POSIX shell command lines, for the danger gate and the command
 * preparation. It does not execute or expand anything: it splits a line into simple commands
 * (at `;`, `&`, `|`, `&&`, `||`, newlines, parentheses, backticks and `$(`…`)`), each with its words
 * (quotes removed), its redirections, and the bodies of command substitutions found inside double
 * quotes (which run too). When in doubt it splits more, never less: a missed split could hide a
 * dangerous command behind an innocent first word.
 */

export interface SimpleCommand {
  /** Words with quotes and backslashes removed, redirections excluded. */
  words: string[];
  /** `>`/`>>`/`<`/`&>`/`>&`… with their target word. */
  redirects: Array<{ op: string; target: string }>;
}

export interface ParsedLine {
  commands: SimpleCommand[];
  /** Texts that the shell also runs: `$(…)` and backtick bodies found inside double quotes. */
  nested: string[];
}

/** Unicode and legacy line separators some shells or terminals treat as newlines: all become `\n`. */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029\u0085\v\f]/g, '\n');
}

export function parseShellLine(input: string): ParsedLine {
  const text = normalizeLineBreaks(input);
  const commands: SimpleCommand[] = [];
  const nested: string[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  let word = '';
  let inWord = false;
  let pendingRedirect: string | undefined;

  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect !== undefined) {
      current.redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = undefined;
    } else current.words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (pendingRedirect !== undefined) {
      current.redirects.push({ op: pendingRedirect, target: '' });
      pendingRedirect = undefined;
    }
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], redirects: [] };
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\') {
      if (next === '\n') i += 2; // line continuation
      else {
        word += next ?? '';
        inWord = true;
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end;
      word += text.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
      continue;
    }
    if (c === '$' && next === "'") {
      // ANSI-C quoting: keep the text, drop the quotes (escapes are left as written).
      const end = text.indexOf("'", i + 2);
      const stop = end === -1 ? text.length : end;
      word += text.slice(i + 2, stop);
      inWord = true;
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      i = readDoubleQuoted(text, i + 1, (chunk) => (word += chunk), nested);
      inWord = true;
      continue;
    }
    if (c === '#' && !inWord) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      continue;
    }
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
      continue;
    }
    if (c === '>' || c === '<' || (c === '&' && next === '>')) {
      // A word made only of digits right before the operator is a file descriptor (2>file).
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      let op = c;
      let j = i + 1;
      while (j < text.length && /[<>&|]/.test(text[j]!) && op.length < 3) op += text[j++]!;
      if (text[j] === '(') {
        // Process substitution <(…) / >(…): its body is a command of its own.
        endCommand();
        i = j + 1;
        continue;
      }
      pendingRedirect = op;
      i = j;
      continue;
    }
    if (c === ';' || c === '&' || c === '|' || c === '\n' || c === '(' || c === ')' || c === '`') {
      endCommand();
      i++;
      continue;
    }
    if ((c === '$' || c === '=' || c === '?' || c === '@' || c === '!' || c === '+' || c === '*') && next === '(') {
      // $(…), and zsh/extglob forms like =(…), ?(…): a new command starts inside.
      endCommand();
      i += 2;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endCommand();
  return { commands, nested };
}

/** Reads a double-quoted string from `start` (just after the quote); returns the index after the closing quote. */
function readDoubleQuoted(text: string, start: number, append: (chunk: string) => void, nested: string[]): number {
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return i + 1;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1]!;
      append('"\\$`\n'.includes(n) ? n : `\\${n}`);
      i += 2;
      continue;
    }
    if (c === '$' && text[i + 1] === '(') {
      const end = closingParen(text, i + 1);
      nested.push(text.slice(i + 2, end));
      append(text.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      const stop = end === -1 ? text.length : end;
      nested.push(text.slice(i + 1, stop));
      append(text.slice(i, stop + 1));
      i = stop + 1;
      continue;
    }
    append(c);
    i++;
  }
  return text.length;
}

/** Index of the parenthesis closing the one at `open` (or the end of the text); quote-aware. */
export function closingParen(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return text.length;
}

/**
 * The top-level pieces of a command line separated by `&&`, `||`, `;` and newlines (outside quotes,
 * parentheses and substitutions), as [start, end) offsets into the text. Pipes stay inside a piece.
 */
export function splitTopLevel(text: string): Array<{ start: number; end: number }> {
  const pieces: Array<{ start: number; end: number }> = [];
  let start = 0;
  let depth = 0;
  let quote: string | undefined;
  let backtick = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '`') backtick = !backtick;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && !backtick) {
      const two = text.slice(i, i + 2);
      if (two === '&&' || two === '||') {
        pieces.push({ start, end: i });
        start = i + 2;
        i++;
      } else if (c === ';' || c === '\n') {
        pieces.push({ start, end: i });
        start = i + 1;
      }
    }
  }
  pieces.push({ start, end: text.length });
  return pieces;
}

/** Leading `NAME=value` assignments of a word list. */
export function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** `/usr/bin/rm` → `rm`. */
export function commandName(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

/**
 * Splits a typed line (not a shell command: `;`, `&`, `|`, `#` and parentheses are plain characters)
 * into words with the quoting rules of parseShellLine: '…' and "…" group, a backslash escapes the
 * next character (inside double quotes only `"`, `\`, `$` and a backtick); nothing is expanded. An
 * unclosed quote is reported.
 */
export function splitQuotedWords(text: string): string[] | { problem: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length && /["\\$`]/.test(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return { problem: `The quote ${quote} is not closed.` };
  if (inWord) words.push(word);
  return words;
}
