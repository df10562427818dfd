import { join } from 'node:path';
import type { GlobFilter } from './glob';
import type { CaseMode } from './ripgrep';
import { FileMatchBuilder, type MatchCollector } from './results';
import { readSearchableText } from './read-text';
import { walkFiles } from './walk';

export interface BuiltinTextQuery {
  workspaceRoot: string;
  /** Workspace-relative path searched ('' for the root), forward slashes. */
  start: string;
  startIsFile: boolean;
  /** Never searched (gitignore syntax from the workspace root). */
  exclude?: readonly string[];
  regex: RegExp;
  glob?: GlobFilter;
  contextLines: number;
  maxResults: number;
  signal: AbortSignal;
}

/**
 * The slower search used when ripgrep is not installed: the same file selection as ripgrep
 * (walkFiles), JavaScript regular expressions, and the same per-file results.
 */
export async function builtinTextSearch(query: BuiltinTextQuery, collector: MatchCollector): Promise<void> {
  const files = query.startIsFile ? single(query.start) : walkFiles({ workspaceRoot: query.workspaceRoot, start: query.start, glob: query.glob, exclude: query.exclude, signal: query.signal });
  for await (const path of files) {
    if (query.signal.aborted) return;
    const text = await readSearchableText(join(query.workspaceRoot, path));
    if (text === undefined) continue;
    collector.add(searchLines(path, text, query));
  }
}

async function* single(path: string): AsyncGenerator<string> {
  yield path;
}

function searchLines(path: string, text: string, query: BuiltinTextQuery): ReturnType<FileMatchBuilder['done']> {
  const builder = new FileMatchBuilder(path, query.maxResults, query.contextLines);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const context = query.contextLines;
  let lastEmitted = -1;
  let afterLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const hit = query.regex.exec(line);
    if (hit) {
      for (let j = Math.max(lastEmitted + 1, i - context); j < i; j++) builder.addContext(j + 1, lines[j]!);
      builder.addMatch(i + 1, line, hit.index);
      lastEmitted = i;
      afterLeft = context;
    } else if (afterLeft > 0) {
      builder.addContext(i + 1, line);
      lastEmitted = i;
      afterLeft--;
    }
  }
  return builder.done();
}

/**
 * ripgrep's regex semantics in JavaScript, as far as they overlap: smart case (insensitive unless
 * the pattern has an upper-case letter), a leading `(?i)`, Unicode mode when the pattern allows it.
 * Throws the engine's SyntaxError for an invalid pattern.
 */
export function compileJsRegex(pattern: string, caseMode: CaseMode): RegExp {
  let source = pattern;
  let insensitive = caseMode === 'insensitive' || (caseMode === 'smart' && !hasUpperCaseLiteral(pattern));
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    insensitive = true;
  }
  const flags = insensitive ? 'i' : '';
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    return new RegExp(source, flags);
  }
}

function hasUpperCaseLiteral(pattern: string): boolean {
  return /\p{Lu}/u.test(pattern.replace(/\\p\{[^}]*\}|\\P\{[^}]*\}|\\./g, ''));
}
