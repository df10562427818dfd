import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { SymbolPort, TextPosition } from '../../symbol-port';
import { escapeRegex } from '../../escape-regex';
import type { FileMatches } from '../search/results';
import { searchText } from '../search/text-search';
import { ToolError, type ToolExecutionContext } from '../tool';
import { displayPath, isInside, resolveInWorkspace } from '../../files/workspace-path';
import { flattenSymbols, matchSymbols, parseNamePattern, type NamedSymbol, type NameMatch, type NamePattern } from './name-path';

/** A symbol found in a file: where, what, and how its name path matched. */
export interface SymbolMatch extends NamedSymbol {
  file: string;
  match: NameMatch;
}

/** What a search found, and how many candidate files it left unexamined (past the cap). */
export interface SymbolSearch {
  matches: SymbolMatch[];
  unexamined: number;
}

/** Files a wildcard or common name may lead to: each costs one document-symbol request. */
const MAX_CANDIDATE_FILES = 40;

export function symbolPort(ctx: ToolExecutionContext): SymbolPort {
  const port = ctx.host?.symbols;
  if (!port) throw new ToolError('other', 'This host has no language-server access; use search and read_file instead.');
  return port;
}

export function namePattern(text: string): NamePattern {
  const pattern = parseNamePattern(text);
  if ('error' in pattern) throw new ToolError('other', pattern.error);
  return pattern;
}

/** `path:line:col`, one-based, as read_file numbers lines. */
export function where(workspaceRoot: string, file: string, position: TextPosition): string {
  return `${displayPath(workspaceRoot, file)}:${position.line + 1}:${position.character + 1}`;
}

/**
 * Every symbol in `scope` (a file or folder, default the workspace) whose name path matches. The
 * workspace symbol provider names the files to look in; when it knows nothing (some servers only
 * index open projects), a text search for the name does. Each file's own symbol tree then decides,
 * so name paths are exact. Exact matches come first.
 */
export async function findSymbols(ctx: ToolExecutionContext, port: SymbolPort, pattern: NamePattern, scopePath?: string): Promise<SymbolSearch> {
  const scope = resolveInWorkspace(ctx.workspaceRoot, scopePath?.trim() ? scopePath.trim() : '.');
  const info = await stat(scope).catch(() => undefined);
  if (!info) throw new ToolError('not_found', `${displayPath(ctx.workspaceRoot, scope)} does not exist. Use list_files to see what the workspace holds.`);
  const checked = new Set<string>();
  const matches: SymbolMatch[] = [];
  let unexamined = 0;
  const look = async (files: string[]) => {
    const fresh = files.filter((f) => !checked.has(f));
    unexamined += Math.max(0, fresh.length - MAX_CANDIDATE_FILES);
    for (const file of fresh.slice(0, MAX_CANDIDATE_FILES)) {
      checked.add(file);
      // A candidate the editor cannot open (binary, vanished) holds no symbols.
      const nodes = await port.documentSymbols(file).catch(() => []);
      for (const m of matchSymbols(pattern, nodes)) matches.push({ ...m, file });
    }
  };
  if (info.isFile()) await look([scope]);
  else {
    const inScope = (file: string) => isInside(scope, file) && (!isDependency(ctx.workspaceRoot, file) || isDependency(ctx.workspaceRoot, scope));
    // The provider's search is fuzzy (`area` finds `a_r_e_a`): only files with the name itself are worth asking.
    const hits = await port.workspaceSymbols(pattern.literal);
    await look(unique(hits.filter((h) => inScope(h.file) && h.name.includes(pattern.literal)).map((h) => h.file)));
    if (matches.length === 0) await look(await filesMentioning(ctx, scope, pattern.literal));
  }
  matches.sort((a, b) => (a.match === b.match ? 0 : a.match === 'exact' ? -1 : 1) || a.file.localeCompare(b.file) || a.node.range.start.line - b.node.range.start.line);
  return { matches, unexamined };
}

/**
 * The one symbol `namePath` names in `file`: an exact name path wins over suffix matches;
 * otherwise several matches are an error that lists them, so the model can say which.
 */
export async function resolveSymbolInFile(ctx: ToolExecutionContext, port: SymbolPort, file: string, namePath: string): Promise<SymbolMatch> {
  const pattern = namePattern(namePath);
  const shown = displayPath(ctx.workspaceRoot, file);
  const nodes = await port.documentSymbols(file);
  if (nodes.length === 0) {
    throw new ToolError('not_found', `No language server reported symbols in ${shown} (is an extension for its language installed?). Use search and edit_file instead.`);
  }
  const found = matchSymbols(pattern, nodes).map((m) => ({ ...m, file }));
  const exact = found.filter((m) => m.match === 'exact');
  if (found.length === 1) return found[0]!;
  if (exact.length === 1) return exact[0]!;
  if (found.length === 0) {
    const names = flattenSymbols(nodes).map((m) => m.namePath.join('.'));
    const listed = names.slice(0, 40).join(', ') + (names.length > 40 ? `, … (${names.length} in all)` : '');
    throw new ToolError('not_found', `No symbol ${namePath} in ${shown}. Its symbols: ${listed}.`);
  }
  const options = (exact.length > 1 ? exact : found).map((m) => `${m.namePath.join('.')} (line ${m.node.range.start.line + 1})`);
  throw new ToolError('other', `${namePath} matches ${options.length} symbols in ${shown}: ${options.join(', ')}. Give the full name path of one.`);
}

/** The files under `scope` whose text holds `literal`: where a name can be declared at all. */
async function filesMentioning(ctx: ToolExecutionContext, scope: string, literal: string): Promise<string[]> {
  const files = await textMatches(ctx, relative(ctx.workspaceRoot, scope).split(sep).join('/'), escapeRegex(literal));
  return files.map((f) => resolveInWorkspace(ctx.workspaceRoot, f.path));
}

/**
 * `path:line` of every whole-word occurrence of `name` in the workspace text (at most 200): after a
 * rename, the places the language server did not change (other symbols of that name, comments,
 * strings, or files it had not loaded yet).
 */
export async function wordMentions(ctx: ToolExecutionContext, name: string): Promise<string[]> {
  const files = await textMatches(ctx, '', `\\b${escapeRegex(name)}\\b`);
  return files.flatMap((f) => f.blocks.flat().filter((l) => l.kind === 'match').map((l) => `${f.path}:${l.line}`));
}

/** A case-sensitive text search without context; none when it fails (a fallback, never the answer itself). */
async function textMatches(ctx: ToolExecutionContext, rel: string, pattern: string): Promise<FileMatches[]> {
  try {
    const { outcome } = await searchText({
      workspaceRoot: ctx.workspaceRoot,
      target: { rel, isFile: false },
      pattern,
      contextLines: 0,
      caseMode: 'sensitive',
      maxResults: 200,
      host: ctx.host,
      signal: ctx.signal,
    });
    return outcome.files;
  } catch {
    return [];
  }
}

function isDependency(workspaceRoot: string, file: string): boolean {
  return relative(workspaceRoot, file).split(sep).includes('node_modules');
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
