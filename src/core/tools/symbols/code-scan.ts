/**
 * Just enough lexing to find a declaration's body without a parser: brackets are counted outside
 * strings and comments. Brace languages: `//` and `/* *\/` comments, '…', "…" and `…${…}…`
 * strings. Python: `#` comments, quotes with optional prefixes, triple-quoted strings.
 */
export type CodeStyle = 'braces' | 'python';

/** The offset of the `{` that the `}` at `close` ends, scanning from `from`; undefined when unbalanced. */
export function matchingOpenBrace(text: string, from: number, close: number): number | undefined {
  const opens: number[] = [];
  // Each open `${` of a template literal, to know that its `}` goes back into the string.
  const templateDepths: number[] = [];
  let i = from;
  while (i <= close) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = endOfLine(text, i);
    else if (c === '/' && text[i + 1] === '*') i = indexAfter(text, '*/', i + 2);
    else if (c === '"' || c === "'") i = endOfQuoted(text, i, c);
    else if (c === '`') i = endOfTemplate(text, i + 1, templateDepths, opens);
    else if (c === '{') {
      opens.push(i);
      i++;
    } else if (c === '}') {
      if (templateDepths.length > 0 && templateDepths.at(-1) === opens.length) {
        // The end of a `${…}`: back inside the template string.
        templateDepths.pop();
        i = endOfTemplate(text, i + 1, templateDepths, opens);
        continue;
      }
      const open = opens.pop();
      if (i === close) return open;
      i++;
    } else i++;
  }
  return undefined;
}

/** Scans a template string from `i` (just inside it) to just past its closing backtick, or into a `${`. */
function endOfTemplate(text: string, i: number, templateDepths: number[], opens: number[]): number {
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') i += 2;
    else if (c === '`') return i + 1;
    else if (c === '$' && text[i + 1] === '{') {
      templateDepths.push(opens.length);
      return i + 2;
    } else i++;
  }
  return i;
}

/** The first `:` outside brackets, strings and comments in [from, to): where a Python signature ends. */
export function signatureColon(text: string, from: number, to: number): number | undefined {
  let depth = 0;
  let i = from;
  while (i < to) {
    const c = text[i]!;
    if (c === '#') i = endOfLine(text, i);
    else if (c === '"' || c === "'") i = endOfPythonString(text, i);
    else if ('([{'.includes(c)) {
      depth++;
      i++;
    } else if (')]}'.includes(c)) {
      depth--;
      i++;
    } else if (c === ':' && depth === 0) return i;
    else i++;
  }
  return undefined;
}

/** If a Python string literal (prefix allowed) starts at `i`, the offset just past it. */
export function pythonStringAt(text: string, i: number): number | undefined {
  const prefix = /^[rRuUbBfF]{0,2}(?=["'])/.exec(text.slice(i, i + 3));
  if (!prefix) return undefined;
  return endOfPythonString(text, i + prefix[0].length);
}

function endOfPythonString(text: string, i: number): number {
  const quote = text[i]!;
  const triple = text.startsWith(quote.repeat(3), i);
  if (triple) return indexAfter(text, quote.repeat(3), i + 3, true);
  return endOfQuoted(text, i, quote);
}

/** Just past the closing quote; a quoted string never runs past its line. */
function endOfQuoted(text: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function indexAfter(text: string, token: string, from: number, escapes = false): number {
  let j = from;
  while (j < text.length) {
    if (escapes && text[j] === '\\') j += 2;
    else if (text.startsWith(token, j)) return j + token.length;
    else j++;
  }
  return text.length;
}

function endOfLine(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n === -1 ? text.length : n;
}
