import { relative } from 'node:path';
import * as vscode from 'vscode';
import { localFolders } from '../chat-folder';
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
  private cached: { at: number; root: string; candidates: Promise<PathCandidate[]> } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** `chatRoot`: the chat's folder, whose files are named as they are; another folder's get its name first. */
  candidates(chatRoot: string, fresh = false): Promise<PathCandidate[]> {
    const cached = this.cached;
    if (!fresh && cached && cached.root === chatRoot && this.now() - cached.at < FRESH_MS) return cached.candidates;
    const candidates = list(chatRoot);
    this.cached = { at: this.now(), root: chatRoot, candidates };
    candidates.catch(() => (this.cached = undefined));
    return candidates;
  }
}

/** Every local workspace folder's files (a multi-root workspace's too): the chat's as relative paths, the others' as `<folder name>/<path>`. */
async function list(chatRoot: string): Promise<PathCandidate[]> {
  const found = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_SCANNED_FILES);
  const files: string[] = [];
  for (const folder of localFolders()) {
    const root = folder.uri.fsPath;
    const inFolder = found.filter((uri) => vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() === folder.uri.toString()).map((uri) => uri.fsPath);
    // Without what a link leads to outside its folder or into a secret location.
    const kept = await containedFiles(root, inFolder);
    const prefix = root === chatRoot ? '' : `${folder.name}/`;
    for (const path of kept) files.push(prefix + relative(root, path).replace(/\\/g, '/'));
  }
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
