import { dirname, isAbsolute, posix, resolve } from 'node:path';
import { substituteKnownVars } from '../shell/shell-text';

/**
 * Paths that must never be deleted, moved or opened up: `/`, the system folders, the home folder,
 * the workspace and their ancestors, however a command spells them (`~`, `$HOME`, `"${HOME}"/`,
 * a variable set earlier on the line, `dir/*`, `.[!.]*` in a folder reached with `cd`).
 */
const SYSTEM_DIRS = [
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin',
  '/srv', '/sys', '/usr', '/var', '/Applications', '/Library', '/System', '/Users', '/private',
];

export function protectedSet(home: string, cwd: string | undefined): Set<string> {
  const set = new Set<string>(['/', ...SYSTEM_DIRS, home, ...ancestors(home)]);
  if (cwd) {
    const root = stripSlash(cwd);
    set.add(root);
    for (const a of ancestors(root)) set.add(a);
  }
  return set;
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  let current = path;
  while (dirname(current) !== current) {
    current = dirname(current);
    out.push(current);
  }
  return out;
}

/**
 * A word as the shell would see it, as far as that can be known without running anything: known
 * variables, `~`, `$HOME` and `$PWD` replaced; undefined when something else is left to expand.
 */
export function expandWord(word: string, home: string, cwd: string | undefined, vars: Readonly<Record<string, string>> = {}): string | undefined {
  let path = substituteKnownVars(word.trim(), vars);
  path = path.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
  if (/^(?:\$PWD|\$\{PWD\})(?=\/|$)/.test(path)) {
    if (!cwd) return undefined;
    path = path.replace(/^(?:\$PWD|\$\{PWD\})/, cwd);
  }
  return path.includes('$') || path.includes('`') ? undefined : path;
}

/** A last path segment that stands for everything (or every hidden entry) in its folder: `*`, `.*`, `.[!.]*`, `.??*`, `[a-z]*`. */
const COVERS_FOLDER = /^(?:\.?(?:\*|\?|\[[^\]]*\])+|\{[*.,[\]!?]*\})$/;

/** Whether `raw` names a protected path, resolved as the shell would (relative ones against `cwd`, unknown after an unknown `cd`). */
export function isProtectedPath(raw: string, cwd: string | undefined, home: string, set: ReadonlySet<string>, vars?: Readonly<Record<string, string>>): boolean {
  let path = expandWord(raw, home, cwd, vars);
  if (path === undefined || path === '') return false;
  // `dir/*`, `dir/.*`, `dir/.`, `*` and `.[!.]*` all mean "everything in dir".
  const slash = path.replace(/\/+$/, '').lastIndexOf('/');
  const last = path.slice(slash + 1).replace(/\/+$/, '');
  if (last === '.' || COVERS_FOLDER.test(last)) path = slash === -1 ? '.' : path.slice(0, slash + 1) || '/';
  if (/[*?[]/.test(path)) return false;
  if (!isAbsolute(path)) {
    if (!cwd) return false;
    path = resolve(cwd, path);
  }
  return set.has(stripSlash(posix.normalize(path)));
}

/** The folder a command runs in after the `cd`s before it (as written), from `start`; undefined when unknown. */
export function folderAfter(cd: readonly string[] | null | undefined, start: string | undefined, home: string, vars?: Readonly<Record<string, string>>): string | undefined {
  if (cd === null) return undefined;
  let cwd = start;
  for (const target of cd ?? []) {
    const path = expandWord(target, home, cwd, vars);
    if (path === undefined) return undefined;
    if (isAbsolute(path)) cwd = stripSlash(posix.normalize(path));
    else if (cwd) cwd = stripSlash(resolve(cwd, path));
    else return undefined;
  }
  return cwd;
}

export function isRoot(path: string): boolean {
  return /^\/+\*?$/.test(path.trim());
}

export function stripSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function describeTarget(target: string): string {
  return isRoot(target) ? 'the root folder `/`' : `\`${target}\` (a protected folder: the root, a system folder, your home or the workspace)`;
}
