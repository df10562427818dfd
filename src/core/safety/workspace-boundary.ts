import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The workspace boundary: a write outside the workspace always asks, even in Auto, and so does a
 * write to the folders that configure the agent or the repository (`.opendev/`, `.claude/`,
 * `.git/`), where a change could grant permissions or run code later. Symbolic links are followed,
 * so a link inside the workspace is no way out of it.
 */
const PROTECTED_DIRS = ['.opendev', '.claude', '.git'];

export interface BoundaryContext {
  workspaceRoot: string;
  home?: string;
  /** Relative paths cannot be resolved (the command changed folder before this point). */
  cwdUnknown?: boolean;
}

/** Why writing `target` needs the user's consent, or undefined when it stays inside the workspace. */
export function boundaryConcern(target: string, ctx: BoundaryContext): string | undefined {
  const home = ctx.home ?? homedir();
  const expanded = target.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
  if (/[$`*?[]/.test(expanded) || expanded === '') return `writes to \`${target}\`, a path known only when it runs`;
  if (!isAbsolute(expanded) && ctx.cwdUnknown) return `writes to \`${target}\` after changing folder`;
  const root = realOrSelf(ctx.workspaceRoot);
  const absolute = realNearest(resolve(ctx.workspaceRoot, expanded));
  const rel = relative(root, absolute);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return `writes outside the workspace (${absolute})`;
  const first = rel.split(sep)[0];
  if (first !== undefined && PROTECTED_DIRS.includes(first)) return `changes ${first}/, which configures the agent or the repository`;
  return undefined;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The real path of the nearest existing ancestor, with the missing rest appended. */
function realNearest(path: string): string {
  let current = path;
  const missing: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(current.slice(parent.length).replace(/^[\\/]/, ''));
      current = parent;
    }
  }
}
