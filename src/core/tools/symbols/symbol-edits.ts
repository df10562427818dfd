import type { DocumentSymbolNode, TextEdit } from '../../symbol-port';
import { matchingOpenBrace, pythonStringAt, signatureColon, type CodeStyle } from './code-scan';
import { commonIndent, indentUnit, reindent } from './indentation';
import type { SourceText } from './source-text';

/** One text edit, or why it cannot be made (for the model: what to do instead). */
export type PlannedEdit = { ok: true; edit: TextEdit } | { ok: false; reason: string };

const PYTHON_FILE = /\.(py|pyi|pyw)$/i;

/** How a file's declarations hold their bodies: an indented block (Python) or braces (the rest). */
export function codeStyleOf(file: string): CodeStyle {
  return PYTHON_FILE.test(file) ? 'python' : 'braces';
}

/**
 * Replaces what is inside a declaration's body and keeps everything before it: decorators, the
 * signature, a doc comment above it, and a Python docstring. `newBody` is placed at the body's
 * indentation whatever indentation it came with.
 */
export function planBodyReplacement(source: SourceText, symbol: DocumentSymbolNode, newBody: string, style: CodeStyle): PlannedEdit {
  const firstLine = source.line(symbol.range.start.line).trim();
  const bodyFirstLine = newBody.split(/\r\n|\n|\r/).find((l) => l.trim() !== '')?.trim();
  if (firstLine !== '' && bodyFirstLine === firstLine) {
    return { ok: false, reason: `The new body starts with the declaration line of ${symbol.name} (${firstLine}). Give only the body: the signature, decorators and doc comment stay as they are.` };
  }
  return style === 'python' ? pythonBody(source, symbol, newBody) : braceBody(source, symbol, newBody);
}

function braceBody(source: SourceText, symbol: DocumentSymbolNode, newBody: string): PlannedEdit {
  const text = source.text;
  const start = source.offsetAt(symbol.range.start);
  let close = source.offsetAt(symbol.range.end) - 1;
  while (close > start && /[\s;,]/.test(text[close]!)) close--;
  const open = text[close] === '}' ? matchingOpenBrace(text, start, close) : undefined;
  if (open === undefined || open < source.offsetAt(symbol.selectionRange.end)) {
    return { ok: false, reason: `${symbol.name} has no { } body to replace (a ${symbol.kind} without a block). Change it with edit_file.` };
  }
  const symbolIndent = source.indentOf(symbol.range.start.line);
  const openLine = source.positionAt(open).line;
  const closeLine = source.positionAt(close).line;
  const closeAlone = text.slice(source.lineStart(closeLine), close).trim() === '';
  const closingIndent = closeAlone && closeLine > openLine ? source.indentOf(closeLine) : symbolIndent;
  const inner: string[] = [];
  for (let n = openLine + 1; n < closeLine; n++) inner.push(source.line(n));
  const existing = commonIndent(inner);
  const bodyIndent = inner.some((l) => l.trim() !== '') && existing.length > closingIndent.length ? existing : closingIndent + indentUnit(source, '  ');
  const body = reindent(withoutWrappingBraces(newBody), bodyIndent, source.eol);
  const newText = body === '' ? '{}' : `{${source.eol}${body}${source.eol}${closingIndent}}`;
  return { ok: true, edit: { range: { start: source.positionAt(open), end: source.positionAt(close + 1) }, newText } };
}

/** A body sent with its own `{ … }` around it loses them (they would nest a block). */
function withoutWrappingBraces(body: string): string {
  const trimmed = body.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return body;
  return matchingOpenBrace(trimmed, 0, trimmed.length - 1) === 0 ? trimmed.slice(1, -1) : body;
}

function pythonBody(source: SourceText, symbol: DocumentSymbolNode, newBody: string): PlannedEdit {
  const text = source.text;
  const end = source.offsetAt(symbol.range.end);
  const colon = signatureColon(text, source.offsetAt(symbol.selectionRange.end), end);
  if (colon === undefined) return { ok: false, reason: `${symbol.name} has no indented body to replace (a ${symbol.kind}, not a def or class). Change it with edit_file.` };
  const defLine = source.positionAt(colon).line;
  const defIndent = source.indentOf(symbol.range.start.line);
  const fallbackIndent = defIndent + indentUnit(source, '    ');
  const endLine = symbol.range.end.character === 0 && symbol.range.end.line > defLine ? symbol.range.end.line - 1 : symbol.range.end.line;
  const rest = text.slice(colon + 1, source.lineEnd(defLine));
  const place = (indent: string) => reindent(newBody, indent, source.eol) || `${indent}pass`;

  if (rest.replace(/#.*$/, '').trim() !== '') {
    // `def f(): return 1`: the body moves to its own lines.
    return { ok: true, edit: { range: { start: source.positionAt(colon + 1), end: source.positionAt(source.lineEnd(endLine)) }, newText: source.eol + place(fallbackIndent) } };
  }
  let first = defLine + 1;
  while (first <= endLine && source.line(first).trim() === '') first++;
  if (first > endLine) return { ok: true, edit: { range: { start: source.positionAt(source.lineEnd(defLine)), end: source.positionAt(source.lineEnd(defLine)) }, newText: source.eol + place(fallbackIndent) } };
  const bodyIndent = source.indentOf(first);
  const docEnd = pythonStringAt(text, source.lineStart(first) + bodyIndent.length);
  if (docEnd === undefined) {
    const range = { start: { line: first, character: 0 }, end: source.positionAt(source.lineEnd(endLine)) };
    return { ok: true, edit: { range, newText: place(bodyIndent) } };
  }
  // Keep the docstring; what follows it is the body.
  const docLine = source.positionAt(docEnd).line;
  const afterDoc = source.positionAt(source.lineEnd(docLine));
  const kept = reindent(newBody, bodyIndent, source.eol);
  const range = { start: afterDoc, end: source.positionAt(source.lineEnd(Math.max(endLine, docLine))) };
  return { ok: true, edit: { range, newText: kept === '' ? '' : source.eol + kept } };
}

/**
 * New code right before a declaration (above its doc comment and decorators) or right after it,
 * at its indentation, with a blank line between them; a blank line also separates the new code
 * from a neighbour on its other side, but not from the closing line of the enclosing block.
 */
export function planInsertion(source: SourceText, symbol: DocumentSymbolNode, content: string, where: 'before' | 'after'): PlannedEdit {
  const indent = source.indentOf(symbol.range.start.line);
  const block = reindent(content, indent, source.eol);
  if (block === '') return { ok: false, reason: 'content is empty: give the code to insert.' };
  const eol = source.eol;
  const isSibling = (n: number) => n >= 0 && n < source.lineCount && source.line(n).trim() !== '' && source.indentOf(n).length >= indent.length;

  if (where === 'before') {
    let first = symbol.range.start.line;
    while (first > 0 && isLeadingLine(source.line(first - 1))) first--;
    const position = { line: first, character: 0 };
    const newText = `${isSibling(first - 1) ? eol : ''}${block}${eol}${eol}`;
    return { ok: true, edit: { range: { start: position, end: position }, newText } };
  }
  const { end } = symbol.range;
  const last = end.character === 0 && end.line > symbol.range.start.line ? end.line - 1 : end.line;
  const position = source.positionAt(source.lineEnd(last));
  const newText = `${eol}${eol}${block}${isSibling(last + 1) ? eol : ''}`;
  return { ok: true, edit: { range: { start: position, end: position }, newText } };
}

/** A line that belongs to the declaration below it: a decorator or a comment, not a shebang. */
function isLeadingLine(line: string): boolean {
  const t = line.trim();
  return t !== '' && !t.startsWith('#!') && /^(@|\/\/|\/\*|\*|#)/.test(t);
}

/** The text after one edit, for the diff shown to the model and the user. */
export function applyTextEdit(source: SourceText, edit: TextEdit): string {
  const start = source.offsetAt(edit.range.start);
  const end = source.offsetAt(edit.range.end);
  return source.text.slice(0, start) + edit.newText + source.text.slice(end);
}
