// Git runs programs that a repository's own .git/config names — an fsmonitor on `git status`, a
// clean filter or textconv driver on `git diff`, a pager — so a "read-only" git command is only as
// safe as that file. A folder that arrived with such a config (a copied checkout, an unpacked
// archive) must not get them run unasked: Semi-Auto then asks for its git commands.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Keys whose value git runs (or that pull in another file that could). */
const PROGRAM_KEY = /^\s*(fsmonitor|pager|textconv|external|command|clean|smudge|process|sshcommand|askpass|hookspath|editor|path)\s*=/im;
const PROGRAM_SECTION = /^\s*\[\s*(include|includeif|pager)\b/im;

/** Why git commands in this workspace may run the repository's programs, or undefined when its .git/config names none. */
export function repositoryGitPrograms(workspaceRoot: string): string | undefined {
  const file = join(workspaceRoot, '.git', 'config');
  let text: string;
  try {
    if (!statSync(file).isFile()) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const key = PROGRAM_KEY.exec(text)?.[1] ?? PROGRAM_SECTION.exec(text)?.[1];
  return key ? `the repository's .git/config names a program git would run (${key.toLowerCase()})` : undefined;
}
