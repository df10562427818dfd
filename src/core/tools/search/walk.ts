import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GitignoreStack } from '../../files/path-globs';
import type { GlobFilter } from './glob';

/** Never searched by the built-in walker (the paper's default ignores; ripgrep skips them through .gitignore or as hidden). */
export const DEFAULT_IGNORED_NAMES: ReadonlySet<string> = new Set(['node_modules', '.git', '__pycache__', '.venv', '.DS_Store']);

export interface WalkOptions {
  workspaceRoot: string;
  /** Workspace-relative folder to start from ('' for the root), forward slashes. */
  start: string;
  glob?: GlobFilter;
  /** Never walked (gitignore syntax from the workspace root, whatever the repository's .gitignore says): the secret locations. */
  exclude?: readonly string[];
  signal: AbortSignal;
}

/**
 * Lists the files under `start` in path order the way ripgrep would pick them: hidden entries and
 * the default ignores skipped, `.gitignore` files honoured (the root's, those of the folders above
 * `start`, and nested ones as the walk meets them), symbolic links not followed. Yields
 * workspace-relative paths; stops quietly when the signal aborts.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string> {
  let stack = GitignoreStack.empty;
  const segments = options.start === '' ? [] : options.start.split('/');
  for (let i = 0; i < segments.length; i++) stack = await withGitignore(stack, options.workspaceRoot, segments.slice(0, i).join('/'));
  const excluded = GitignoreStack.empty.with(options.exclude?.join('\n') ?? '', '');
  yield* walkDir(options, options.start, stack, excluded);
}

async function* walkDir(options: WalkOptions, dir: string, parentStack: GitignoreStack, excluded: GitignoreStack): AsyncGenerator<string> {
  if (options.signal.aborted) return;
  const stack = await withGitignore(parentStack, options.workspaceRoot, dir);
  let entries;
  try {
    entries = await readdir(join(options.workspaceRoot, dir), { withFileTypes: true });
  } catch {
    return; // unreadable folder: skipped, like ripgrep (which warns)
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (options.signal.aborted) return;
    if (entry.name.startsWith('.') || DEFAULT_IGNORED_NAMES.has(entry.name)) continue;
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (excluded.ignores(rel, entry.isDirectory())) continue;
    if (entry.isDirectory()) {
      if (stack.ignores(rel, true) || options.glob?.prunesDir(rel)) continue;
      yield* walkDir(options, rel, stack, excluded);
    } else if (entry.isFile()) {
      if (stack.ignores(rel, false)) continue;
      if (options.glob && !options.glob.acceptsFile(rel)) continue;
      yield rel;
    }
  }
}

/** `stack` and the rules of `dir`'s own .gitignore, if it has one. */
async function withGitignore(stack: GitignoreStack, workspaceRoot: string, dir: string): Promise<GitignoreStack> {
  return stack.with(await readFile(join(workspaceRoot, dir, '.gitignore'), 'utf8').catch(() => ''), dir);
}
