import * as vscode from 'vscode';
import { containedFiles } from '../../core/mentions/contained-files';
import { foldersOf, type PathCandidate } from '../../core/mentions/fuzzy-path-match';

/** How many files completion looks at: enough for most projects, bounded for huge ones. */
export const MAX_SCANNED_FILES = 10_000;
/** A listing is reused while the user types one mention, for at most this long. */
const FRESH_MS = 10_000;

/**
 * The workspace's files and folders for `@` completion, listed through `vscode.workspace.findFiles`
 * with the project's excludes (`files.exclude` and `search.exclude`), capped, without what a
 * symbolic link leads to outside the workspace or into a secret location (findFiles follows links).
 * A bare `@` lists afresh; the letters typed after it reuse that listing.
 */
export class WorkspaceFiles {
  private cached: { at: number; candidates: Promise<PathCandidate[]> } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  candidates(fresh = false): Promise<PathCandidate[]> {
    if (!fresh && this.cached && this.now() - this.cached.at < FRESH_MS) return this.cached.candidates;
    const candidates = list();
    this.cached = { at: this.now(), candidates };
    candidates.catch(() => (this.cached = undefined));
    return candidates;
  }
}

async function list(): Promise<PathCandidate[]> {
  const found = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_SCANNED_FILES);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const kept = new Set(root === undefined ? [] : await containedFiles(root, found.map((uri) => uri.fsPath)));
  const uris = found.filter((uri) => kept.has(uri.fsPath));
  const files = uris.map((uri) => vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/'));
  return [...files.map((path) => ({ path, kind: 'file' as const })), ...foldersOf(files).map((path) => ({ path, kind: 'folder' as const }))];
}

/** The enabled globs of `files.exclude` and `search.exclude`, as one glob (undefined: none). */
function excludeGlob(): string | undefined {
  const globs = new Set<string>();
  for (const section of ['files', 'search']) {
    const settings = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {};
    for (const [glob, enabled] of Object.entries(settings)) if (enabled === true) globs.add(glob);
  }
  globs.add('**/node_modules/**');
  globs.add('**/.git/**');
  return `{${[...globs].join(',')}}`;
}
