import type { HostPorts } from '../../host';
import { findRipgrep } from '../../process/ripgrep-path';
import { ToolError } from '../tool';
import { SearchBudget } from './budget';
import { builtinTextSearch, compileJsRegex } from './builtin-text';
import { escapeRegex } from '../../escape-regex';
import { GlobFilter } from './glob';
import { SEARCH_TIMEOUT_MS } from './limits';
import { MatchCollector, type SearchOutcome } from './results';
import { fillLongLines } from './long-lines';
import { ripgrepText, type CaseMode, type RgTextQuery } from './ripgrep';

/** A search path after validation: inside the workspace and existing. */
export interface SearchTarget {
  /** Workspace-relative, forward slashes, '' for the root. */
  rel: string;
  isFile: boolean;
  /** Never searched (gitignore syntax from the workspace root): the secret locations inside the workspace. */
  exclude?: readonly string[];
}

export interface TextSearchRequest {
  workspaceRoot: string;
  target: SearchTarget;
  pattern: string;
  glob?: string;
  contextLines: number;
  caseMode: CaseMode;
  maxResults: number;
  host?: HostPorts;
  signal: AbortSignal;
  timeoutMs?: number;
}

export interface TextSearchResult {
  outcome: SearchOutcome;
  engine: 'ripgrep' | 'builtin';
}

export const INTERRUPTED = 'The search was interrupted before it found anything.';

export const RIPGREP_MISSING_NOTICE =
  'ripgrep not found — install it (apt install ripgrep) for faster search; used the built-in search.';

/** `type: "text"`: ripgrep when it can be found, else the built-in search, with one result shape. */
export async function searchText(request: TextSearchRequest): Promise<TextSearchResult> {
  if (request.signal.aborted) throw new ToolError('other', INTERRUPTED);
  const rgPath = findRipgrep(request.host);
  if (rgPath) {
    try {
      return { outcome: await withRipgrep(rgPath, request), engine: 'ripgrep' };
    } catch (err) {
      if (err instanceof ToolError) throw err;
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return {
        outcome: await withBuiltin(request, `ripgrep at ${rgPath} could not be started (${reason}); used the built-in search.`),
        engine: 'builtin',
      };
    }
  }
  return { outcome: await withBuiltin(request, RIPGREP_MISSING_NOTICE), engine: 'builtin' };
}

async function withRipgrep(rgPath: string, request: TextSearchRequest): Promise<SearchOutcome> {
  let query: RgTextQuery = {
    pattern: request.pattern,
    glob: request.glob,
    contextLines: request.contextLines,
    caseMode: request.caseMode,
    maxResults: request.maxResults,
    ...(request.target.exclude ? { exclude: request.target.exclude } : {}),
  };
  const target = request.target.rel === '' ? '.' : request.target.rel;
  const budget = new SearchBudget(request.signal, request.timeoutMs ?? SEARCH_TIMEOUT_MS);
  const notices: string[] = [];
  try {
    let collector = new MatchCollector(request.maxResults);
    let run = await ripgrepText(rgPath, request.workspaceRoot, query, target, collector, budget);
    if (run.exitCode === 2 && isRegexError(run.stderr) && /PCRE2/.test(run.stderr) && !budget.stopped) {
      // Look-around and backreferences need ripgrep's PCRE2 engine: retry with it once.
      query = { ...query, pcre2: true };
      collector = new MatchCollector(request.maxResults);
      run = await ripgrepText(rgPath, request.workspaceRoot, query, target, collector, budget);
      if (!isRegexError(run.stderr) && !/PCRE2 is not available/.test(run.stderr)) {
        notices.push('the pattern needs look-around or backreferences, so ripgrep ran it with its PCRE2 engine.');
      }
    }
    if (run.exitCode === 2 && (isRegexError(run.stderr) || /PCRE2 is not available/.test(run.stderr))) {
      throw new ToolError('syntax', regexErrorMessage(request.pattern, run.stderr.trim(), 'ripgrep'));
    }
    if (run.exitCode === 2 && /error parsing glob/.test(run.stderr)) {
      throw new ToolError('syntax', `The glob ${JSON.stringify(request.glob)} is invalid: ${run.stderr.trim()}. Examples: "*.ts", "src/**/*.test.ts", "*.{js,jsx}", "!*.min.js".`);
    }
    const stopped = budget.stopped;
    if (run.exitCode === 2 && !stopped && run.stderr.trim() !== '') {
      const lines = run.stderr.trim().split('\n');
      notices.push(`ripgrep could not read some files: ${lines.slice(0, 3).join('; ')}${lines.length > 3 ? ` (+${lines.length - 3} more)` : ''}`);
    }
    if (run.binaryMatches) notices.push(`${run.binaryMatches === 1 ? 'a binary file' : `${run.binaryMatches} binary files`} matched; binary files are not shown.`);
    const outcome = collector.outcome(notices, stopped);
    await fillLongLines(request.workspaceRoot, outcome);
    return finish(outcome);
  } finally {
    budget.dispose();
  }
}

async function withBuiltin(request: TextSearchRequest, notice: string): Promise<SearchOutcome> {
  let regex: RegExp;
  try {
    regex = compileJsRegex(request.pattern, request.caseMode);
  } catch (err) {
    throw new ToolError('syntax', regexErrorMessage(request.pattern, (err as Error).message, 'builtin'));
  }
  let glob: GlobFilter | undefined;
  if (request.glob) glob = new GlobFilter(request.glob);
  const budget = new SearchBudget(request.signal, request.timeoutMs ?? SEARCH_TIMEOUT_MS);
  try {
    const collector = new MatchCollector(request.maxResults);
    await builtinTextSearch(
      {
        workspaceRoot: request.workspaceRoot,
        start: request.target.rel,
        startIsFile: request.target.isFile,
        ...(request.target.exclude ? { exclude: request.target.exclude } : {}),
        regex,
        glob,
        contextLines: request.contextLines,
        maxResults: request.maxResults,
        signal: budget.signal,
      },
      collector,
    );
    return finish(collector.outcome([notice], budget.stopped));
  } finally {
    budget.dispose();
  }
}

/** A search stopped with nothing found is an error of its own class; with matches, a partial result. */
function finish(outcome: SearchOutcome): SearchOutcome {
  if (outcome.stopped && outcome.totalMatches === 0) {
    if (outcome.stopped === 'timeout') {
      throw new ToolError('timeout', 'The search found nothing within its 30 s limit. Search a sub-folder (path) or restrict the files with glob, e.g. "*.ts".');
    }
    throw new ToolError('other', INTERRUPTED);
  }
  return outcome;
}

function isRegexError(stderr: string): boolean {
  return /regex parse error|error parsing regex|PCRE2: error|regex.*compil/i.test(stderr);
}

function regexErrorMessage(pattern: string, detail: string, engine: 'ripgrep' | 'builtin'): string {
  const literal = escapeRegex(pattern).replace(/\\\//g, '/');
  return [
    `The pattern ${JSON.stringify(pattern)} is not a valid regular expression:`,
    detail.replace(/^/gm, '  '),
    `To search for the text literally, escape the special characters with a backslash: ${literal}`,
    engine === 'ripgrep'
      ? 'The syntax is ripgrep\'s (Rust regex): \\b, \\w, \\s, (?i), character classes; look-around and backreferences run with PCRE2 when ripgrep has it.'
      : 'The syntax is JavaScript\'s (the built-in search): \\b, \\w, \\s, character classes, look-around.',
  ].join('\n');
}
