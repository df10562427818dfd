/**
 * The files a shell command line deletes, best effort, for the artifact index: `rm`, `rmdir`,
 * `unlink` and `git rm` in any segment of a chain (`&&`, `||`, `;`, `|`, new lines), after `sudo`
 * and `VAR=value` prefixes. Flags are skipped; globs and variables are kept as written. It does not
 * try to understand scripts, `find -delete` or `mv`: the archive has every command in full.
 */
import { parseShellLine } from '../../shell/shell-reader';

const DELETERS = new Set(['rm', 'rmdir', 'unlink']);

export function deletedPaths(commandLine: string): string[] {
  const paths: string[] = [];
  for (const { words } of parseShellLine(commandLine).commands) {
    while (words.length > 0 && (words[0] === 'sudo' || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!))) words.shift();
    let args: string[] | undefined;
    if (DELETERS.has(words[0] ?? '')) args = words.slice(1);
    else if (words[0] === 'git' && words[1] === 'rm') args = words.slice(2);
    if (!args) continue;
    let afterDashes = false;
    for (const arg of args) {
      if (/[<>]/.test(arg)) break; // a redirection ends the arguments
      if (!afterDashes && arg === '--') afterDashes = true;
      else if (afterDashes || !arg.startsWith('-')) paths.push(arg);
    }
  }
  return paths;
}
