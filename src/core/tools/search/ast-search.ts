import { join } from 'node:path';
import type { HostPorts } from '../../host';
import { findRipgrep } from '../../process/ripgrep-path';
import { ToolError } from '../tool';
import {
  describeLanguages,
  extensionOf,
  findLanguage,
  languageForFile,
  loadAstRuntime,
  parserForFile,
  type AstLanguage,
  type AstParser,
  type AstRuntime,
} from '../../syntax/ast-langs';
import { compilePattern, type AstMatcher } from './ast-pattern';
import { SearchBudget } from './budget';
import { GlobFilter } from './glob';
import { AST_MATCH_LINES, SEARCH_TIMEOUT_MS } from './limits';
import { cutLine, FileMatchBuilder, MatchCollector, type FileMatches, type SearchLine, type SearchOutcome } from './results';
import { ripgrepFiles } from './ripgrep';
import { INTERRUPTED, type SearchTarget } from './text-search';
import { readSearchableText } from './read-text';
import { walkFiles } from './walk';

export interface AstSearchRequest {
  workspaceRoot: string;
  target: SearchTarget;
  pattern: string;
  lang?: string;
  glob?: string;
  maxResults: number;
  host?: HostPorts;
  signal: AbortSignal;
  timeoutMs?: number;
}

export interface AstSearchResult {
  outcome: SearchOutcome;
  language: AstLanguage;
  /** How many files were parsed. */
  filesSearched: number;
}

/** Files parsed at once (parsing runs on libuv's worker threads). */
const PARSE_CONCURRENCY = 4;

/** `type: "ast"`: structural search with @ast-grep/napi over the files ripgrep (or the walker) selects. */
export async function searchAst(request: AstSearchRequest): Promise<AstSearchResult> {
  const loaded = loadAstRuntime();
  if ('error' in loaded) {
    throw new ToolError('other', `Structural (ast) search is unavailable here: ${loaded.error}. Use type "text" with a regular expression instead.`);
  }
  const language = resolveLanguage(loaded, request);
  const { matchers, parseError } = compileFor(loaded, language, request.pattern);

  if (request.signal.aborted) throw new ToolError('other', INTERRUPTED);
  const budget = new SearchBudget(request.signal, request.timeoutMs ?? SEARCH_TIMEOUT_MS);
  try {
    const notices: string[] = [];
    const files = await listFiles(request, language, budget, notices);
    const collector = new MatchCollector(request.maxResults);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < files.length && !budget.signal.aborted) {
        const path = files[next++]!;
        const parser = parserForFile(language, path) ?? language.parsers[0]!;
        const matcher = matchers.get(parser.lang);
        if (matcher === undefined) continue;
        const text = await readSearchableText(join(request.workspaceRoot, path));
        if (text === undefined || budget.signal.aborted) continue;
        collector.add(await matchFile(loaded, parser, matcher, path, text, request.maxResults));
      }
    };
    await Promise.all(Array.from({ length: PARSE_CONCURRENCY }, worker));
    const skippedParsers = language.parsers.filter((p) => !matchers.has(p.lang));
    if (skippedParsers.length > 0) {
      notices.push(`the pattern does not parse as ${skippedParsers.map((p) => p.lang).join(', ')}, so .${skippedParsers.flatMap((p) => p.extensions).join(', .')} files were not searched.`);
    }
    const stopped = budget.stopped;
    if (stopped && collector.totalMatches === 0) {
      if (stopped === 'timeout') {
        throw new ToolError('timeout', 'The ast search found nothing within its 30 s limit. Search a sub-folder (path) or restrict the files with glob.');
      }
      throw new ToolError('other', INTERRUPTED);
    }
    if (parseError && collector.totalMatches === 0) {
      // A pattern that does not parse cleanly may be a valid partial one with nothing to match here:
      // only when there were files to search does "nothing matched" make it the likely culprit.
      if (files.length > 0) throw new ToolError('syntax', invalidPatternMessage(request.pattern, language, `${parseError}, and it matched nothing`));
      notices.push(`the pattern does not parse as complete ${language.label} code (${parseError}).`);
    }
    const outcome = collector.outcome(notices, stopped);
    return { outcome, language, filesSearched: files.length };
  } finally {
    budget.dispose();
  }
}

function resolveLanguage(loaded: AstRuntime, request: AstSearchRequest): AstLanguage {
  const supported = describeLanguages(loaded);
  if (request.lang !== undefined && request.lang.trim() !== '') {
    const language = findLanguage(loaded.languages, request.lang);
    if (language) return language;
    const reason = loaded.unavailable.get(request.lang.trim().toLowerCase());
    throw new ToolError(
      'not_found',
      reason
        ? `lang "${request.lang}" is not available here: ${reason}. Supported: ${supported}.`
        : `Unknown lang "${request.lang}" for an ast search. Supported: ${supported}. For other languages use type "text".`,
    );
  }
  const hint = request.target.isFile ? request.target.rel : (request.glob ?? '');
  const inferred = hint ? languageForFile(loaded.languages, hint) : undefined;
  if (inferred) return inferred;
  if (request.target.isFile) {
    throw new ToolError(
      'not_found',
      `Cannot tell the language of ${request.target.rel} from its extension ".${extensionOf(request.target.rel)}". Pass lang, one of: ${supported}.`,
    );
  }
  throw new ToolError('other', `An ast search of a folder needs lang (one of: ${supported}), or a glob such as "*.py" or a single file as path.`);
}

/**
 * One matcher per parser of the language; a pattern ast-grep refuses for every parser is a syntax
 * error. `parseError` is set when no parser read the pattern cleanly.
 */
function compileFor(loaded: AstRuntime, language: AstLanguage, pattern: string): { matchers: Map<string, AstMatcher>; parseError?: string } {
  const matchers = new Map<string, AstMatcher>();
  let firstReason: string | undefined;
  let parseError: string | undefined;
  let clean = false;
  for (const parser of language.parsers) {
    const compiled = compilePattern(loaded.napi, language, parser, pattern);
    if (!compiled.ok) {
      firstReason ??= compiled.reason;
      continue;
    }
    matchers.set(parser.lang, compiled.matcher);
    if (compiled.parseError) parseError ??= compiled.parseError;
    else clean = true;
  }
  if (matchers.size === 0) throw new ToolError('syntax', invalidPatternMessage(pattern, language, firstReason ?? 'it cannot be compiled'));
  return { matchers, parseError: clean ? undefined : parseError };
}

function invalidPatternMessage(pattern: string, language: AstLanguage, reason: string): string {
  return (
    `The ast pattern ${JSON.stringify(pattern)} is invalid for ${language.label}: ${reason}. ` +
    'A pattern is one complete code fragment of the language (an expression, a statement, a declaration), ' +
    'e.g. "console.log($A)" or "def $F($$$ARGS)": $NAME stands for one node, $$$NAME for any number of nodes, $_ for a node you do not name. ' +
    'For text that is not code, use type "text".'
  );
}

async function listFiles(request: AstSearchRequest, language: AstLanguage, budget: SearchBudget, notices: string[]): Promise<string[]> {
  if (request.target.isFile) return [request.target.rel];
  const extensions = new Set(language.parsers.flatMap((p) => p.extensions));
  const keep = (path: string): boolean => extensions.has(extensionOf(path));
  const rgPath = findRipgrep(request.host);
  if (rgPath) {
    try {
      const listed = await ripgrepFiles(rgPath, request.workspaceRoot, request.target.rel === '' ? '.' : request.target.rel, request.glob, budget, request.target.exclude);
      if (listed.exitCode === 2 && /error parsing glob/.test(listed.stderr)) {
        throw new ToolError('syntax', `The glob ${JSON.stringify(request.glob)} is invalid: ${listed.stderr.trim()}.`);
      }
      return listed.files.filter(keep);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      notices.push('ripgrep could not be started to list the files; used the built-in walker.');
    }
  }
  const glob = request.glob ? new GlobFilter(request.glob) : undefined;
  const files: string[] = [];
  for await (const path of walkFiles({ workspaceRoot: request.workspaceRoot, start: request.target.rel, glob, exclude: request.target.exclude, signal: budget.signal })) {
    if (keep(path)) files.push(path);
  }
  return files;
}

async function matchFile(loaded: AstRuntime, parser: AstParser, matcher: AstMatcher, path: string, text: string, cap: number): Promise<FileMatches> {
  const builder = new FileMatchBuilder(path, cap, 0);
  let root;
  try {
    root = (await loaded.napi.parseAsync(parser.lang, text)).root();
  } catch {
    return builder.done();
  }
  const nodes = root.findAll(matcher);
  nodes.sort((a, b) => a.range().start.index - b.range().start.index);
  for (const node of nodes) builder.addBlock(nodeLines(node.range().start.line + 1, node.text()));
  return builder.done();
}

/** The first lines of a matched node, then "… (+N lines)". */
function nodeLines(firstLine: number, text: string): SearchLine[] {
  const lines = text.split(/\r?\n/);
  const shown: SearchLine[] = lines.slice(0, AST_MATCH_LINES).map((line, i) => ({
    line: firstLine + i,
    text: cutLine(line, 0),
    kind: i === 0 ? 'match' : 'continuation',
  }));
  if (lines.length > AST_MATCH_LINES) {
    shown[shown.length - 1]!.text += `  … (+${lines.length - AST_MATCH_LINES} more lines)`;
  }
  return shown;
}
