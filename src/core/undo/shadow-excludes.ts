import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * What the shadow repository leaves out besides what git itself skips (`.git` folders, which git
 * never adds, and the project's `.gitignore` files, which git reads from the work tree on every
 * snapshot, so they are always in sync). Written to the shadow repo's `info/exclude`:
 * - the project's own `.git/info/exclude` (the user's private ignores),
 * - OpenDev's home when it lies inside the workspace (else snapshots would snapshot themselves),
 * - files over the size cap, recorded as skipped.
 */
export function buildExcludeFile(options: { workspaceRoot: string; opendevHome: string; oversized: Iterable<string> }): string {
  const lines = ['# Written by OpenDev for its undo snapshots; rewritten as the project changes.'];
  const projectExclude = readProjectExclude(options.workspaceRoot);
  if (projectExclude) lines.push("# The project's .git/info/exclude", projectExclude);
  const home = relative(options.workspaceRoot, options.opendevHome);
  if (home && !home.startsWith('..') && !isAbsolute(home)) lines.push("# OpenDev's own folder", `${anchoredPattern(home)}/`);
  const big = [...options.oversized].sort();
  if (big.length > 0) lines.push('# Over the size cap: not snapshotted', ...big.map(anchoredPattern));
  return `${lines.join('\n')}\n`;
}

/**
 * Attributes that win over any `.gitattributes` in the project: no line-ending conversion, no
 * filters (git-lfs and the like), no keyword expansion, so a restored file is byte-identical.
 */
export const SHADOW_ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding -diff -merge\n';

function readProjectExclude(workspaceRoot: string): string | undefined {
  const file = join(workspaceRoot, '.git', 'info', 'exclude');
  try {
    if (!statSync(file).isFile()) return undefined;
    const text = readFileSync(file, 'utf8').trim();
    return text || undefined;
  } catch {
    return undefined; // not a git project, or `.git` is a file (worktree, submodule)
  }
}

/** A workspace-relative path as a gitignore pattern matching exactly that path. */
export function anchoredPattern(relativePath: string): string {
  const posix = relativePath.split(sep).join('/');
  // Escape the pattern characters, a leading `#`/`!` and trailing spaces, which gitignore reads specially.
  const escaped = posix.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
  return `/${escaped}`;
}
