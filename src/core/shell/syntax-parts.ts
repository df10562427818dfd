import type { ShellRedirect } from './shell-model';
import type { SyntaxNode } from './syntax-node';
import { wordText } from './word-text';

/* What the tree walk reads off single nodes of tree-sitter-bash: redirections, ranges, words of tests, extglobs. */

export const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
export const STATEMENTS = new Set([
  'command', 'redirected_statement', 'list', 'pipeline', 'subshell', 'compound_statement', 'if_statement', 'while_statement',
  'for_statement', 'c_style_for_statement', 'case_statement', 'function_definition', 'variable_assignment', 'variable_assignments',
  'declaration_command', 'unset_command', 'test_command', 'negated_command',
]);
/** Patterns in `[ ]`/`[[ ]]` whose text is the word. */
const TEST_LEAVES = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'concatenation', 'number', 'simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'test_operator', 'extglob_pattern', 'regex', 'variable_name', 'arithmetic_expansion']);

/** The last statement of a list or pipeline (`c` of `a && b | c`). */
export function lastStatement(node: SyntaxNode): SyntaxNode | undefined {
  let current: SyntaxNode | undefined = node;
  while (current && (current.type === 'list' || current.type === 'pipeline')) {
    const named: SyntaxNode[] = current.children.filter((c) => STATEMENTS.has(c.type));
    current = named[named.length - 1];
  }
  return current;
}

export function isCommandNode(node: SyntaxNode): boolean {
  return node.type === 'command' || node.type === 'declaration_command' || node.type === 'unset_command' || node.type === 'test_command' || node.type === 'variable_assignments' || node.type === 'variable_assignment';
}

/** A redirection, and those the grammar nests in a here-document's (`cat <<EOF > notes.md`). */
export function readRedirects(node: SyntaxNode, source: string): ShellRedirect[] {
  const nested = node.type === 'heredoc_redirect' ? node.children.filter((c) => REDIRECTS.has(c.type)).map((c) => readRedirect(c, source)) : [];
  return [readRedirect(node, source), ...nested];
}

function readRedirect(node: SyntaxNode, source: string): ShellRedirect {
  const op = node.children.find((c) => !c.named)?.type ?? '';
  if (node.type === 'heredoc_redirect') {
    const start = node.children.find((c) => c.type === 'heredoc_start');
    const body = node.children.find((c) => c.type === 'heredoc_body');
    const delimiter = start ? source.slice(start.start, start.end).replace(/['"\\]/g, '') : '';
    let text = body ? source.slice(body.start, body.end) : '';
    if (op === '<<-') text = text.replace(/^\t+/gm, '');
    return { op, target: delimiter, body: text };
  }
  const targetNode = node.children.find((c) => c.named && c.type !== 'file_descriptor');
  let target = targetNode ? wordText(targetNode, source) : '';
  if ((op === '>&' || op === '<&') && /^(?:\d+|-)$/.test(target)) target = `&${target}`;
  if (op === '>&-' || op === '<&-') target = '&-';
  return node.type === 'herestring_redirect' ? { op, target, body: target } : { op, target };
}

/** Where a here-document's redirection ends on its own line (its body and delimiter are not part of the command's text). */
export function redirectEnd(node: SyntaxNode): number {
  if (node.type !== 'heredoc_redirect') return node.end;
  let end = node.start;
  for (const c of node.children) {
    if (c.type === 'heredoc_body' || c.type === 'heredoc_end' || STATEMENTS.has(c.type)) break;
    end = c.end;
  }
  return end;
}

export function commandRange(node: SyntaxNode, outer: SyntaxNode[]): [number, number] {
  let end = node.children.some((c) => c.type === 'heredoc_redirect') ? Math.max(node.start, ...node.children.map((c) => (REDIRECTS.has(c.type) ? redirectEnd(c) : c.end))) : node.end;
  for (const r of outer) end = Math.max(end, redirectEnd(r));
  return [node.start, end];
}

/** The source of [start, end) without the substitutions in it (they are commands of their own). */
export function withoutSubstitutions(source: string, start: number, end: number, roots: SyntaxNode[]): string {
  const cuts: Array<[number, number]> = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.end <= start || n.start >= end) continue;
    if (n.type === 'command_substitution' || n.type === 'process_substitution') cuts.push([n.start, n.end]);
    else for (const c of n.children) stack.push(c);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let text = '';
  let at = start;
  for (const [s, e] of cuts) {
    if (s < at) continue;
    text += source.slice(at, s);
    at = Math.min(e, end);
  }
  return text + source.slice(at, end);
}

export function assignmentText(node: SyntaxNode, source: string): string {
  const name = node.children.find((c) => c.type === 'variable_name' || c.type === 'subscript');
  const value = node.children.filter((c) => c.named && c !== name);
  const op = node.children.find((c) => !c.named)?.type ?? '=';
  return `${name ? source.slice(name.start, name.end) : ''}${op}${value.map((v) => (v.type === 'array' ? source.slice(v.start, v.end) : wordText(v, source))).join('')}`;
}

/** The words of `[ … ]` / `[[ … ]]`, brackets included. */
export function testWords(node: SyntaxNode, source: string): string[] {
  const words: string[] = [];
  const stack = [...node.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!n.named) words.push(n.type);
    else if (TEST_LEAVES.has(n.type) && n.children.every((c) => c.type !== 'binary_expression')) words.push(wordText(n, source));
    else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return words;
}

/** `?(…)`, `*(…)`, `@(…)`, `=(…)`: an extglob, a zsh glob qualifier or substitution, which the grammar reads as a word (or an error) before a subshell. */
export function extglob(error: SyntaxNode, next: SyntaxNode | undefined, source: string): { kind: 'pattern' | 'qualifier' | 'zsh-substitution' | 'subexpression'; body: string } | undefined {
  if (!next || next.type !== 'subshell' || next.start !== error.end) return undefined;
  const mark = source.slice(error.start, error.end);
  if (!/^[?*+!@=]$/.test(mark)) return undefined;
  const body = source.slice(next.start + 1, source[next.end - 1] === ')' ? next.end - 1 : next.end);
  if (mark === '=') return { kind: 'zsh-substitution', body };
  const qualifier = /^e([:'"])([\s\S]*)\1$/.exec(body) ?? /^\+()([\s\S]+)$/.exec(body);
  if (qualifier) return { kind: 'qualifier', body: qualifier[2]! };
  return mark === '@' ? { kind: 'subexpression', body } : { kind: 'pattern', body };
}

export function containsType(node: SyntaxNode, type: string): boolean {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === type) return true;
    stack.push(...n.children);
  }
  return false;
}

/** Consecutive statements with a line break between them: commands on several lines. */
export function hasStatementsOnSeveralLines(node: SyntaxNode, source: string): boolean {
  if (node.children.length < 2) return false;
  let previous: SyntaxNode | undefined;
  for (const child of node.children) {
    // `a &&\n b`, `a |\n b`: one command list continued on the next line.
    if (!child.named && /^(?:&&|\|\||\||\|&)$/.test(child.type)) previous = undefined;
    if (!STATEMENTS.has(child.type)) continue;
    if (previous && source.slice(previous.end, child.start).includes('\n')) return true;
    previous = child;
  }
  return false;
}

/** The statements of the program, lists taken apart: what `&&`, `||`, `;`, `&` and newlines separate. */
export function topLevelPieces(root: SyntaxNode): Array<{ start: number; end: number }> {
  const pieces: Array<{ start: number; end: number }> = [];
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'list') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    else if (STATEMENTS.has(n.type) || n.type === 'ERROR') pieces.push({ start: n.start, end: n.end });
  }
  return pieces;
}

export function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 24 ? `${line.slice(0, 24)}…` : line;
}
