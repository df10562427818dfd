import { programOf } from '../process/command-program';
import type { CommandPart } from './command-part';
import { splitCommand } from './command-part';

/**
 * Commands that only read, which Semi-Auto runs without asking (the list follows Codex's
 * is_known_safe_command): the program and, where it matters, its subcommand and options.
 * A whole command line is safe when every part is, nothing runs nested, nothing is written
 * by redirection and it is a single line.
 */
const SAFE_PROGRAMS = new Set([
  'ls', 'pwd', 'cat', 'head', 'tail', 'wc', 'echo', 'printf', 'grep', 'which', 'whoami', 'id', 'date', 'tree', 'stat', 'file', 'du', 'df',
  'cut', 'expr', 'false', 'true', 'nl', 'paste', 'rev', 'seq', 'tr', 'uname', 'uniq', 'numfmt', 'tac', 'cd', 'basename', 'dirname',
  'realpath', 'readlink', 'cmp', 'diff', 'comm', 'hostname', 'test', '[',
]);
const SAFE_GIT = new Set(['status', 'diff', 'log', 'show', 'branch', 'rev-parse', 'remote', 'blame', 'ls-files', 'describe', 'shortlog']);
/** Git options that run programs, write files or change configuration. */
const UNSAFE_GIT_OPTION = /^--(?:output|ext-diff|textconv|exec|paginate|config-env|upload-pack|receive-pack)(?:=|$)|^-c|^--open-files-in-pager/;
const READ_ONLY_BRANCH = /^(?:--show-current|-a|--all|-r|--remotes|-v|-vv|--verbose|--list|-l|--contains|--no-contains|--merged|--no-merged|--sort=.*|--format=.*|--points-at|--column|--no-column|--color(?:=.*)?|--no-color)$/;

export function isKnownSafePart(part: CommandPart): boolean {
  const { name, args, assignments } = programOf(part.words);
  if (assignments || name === '' || part.writes.length > 0) return false;
  switch (name) {
    case 'git':
      return safeGit(args);
    case 'find':
      return !args.some((a) => /^-(?:exec|execdir|ok|okdir|delete|fls|fprint0?|fprintf)$/.test(a));
    case 'rg':
      return !args.some((a) => /^(?:--pre|--hostname-bin|-z|--search-zip)(?:=|$)/.test(a) || /^-[a-yA-Z]*z/.test(a));
    case 'base64':
      return !args.some((a) => /^(?:-o|--output)/.test(a));
    case 'sed':
      return args[0] === '-n' && /^\d+(?:,\d+)?p$/.test(args[1] ?? '') && args.length <= 3;
    case 'sort':
      return !args.some((a) => /^(?:-o|--output)/.test(a));
    default:
      return SAFE_PROGRAMS.has(name);
  }
}

function safeGit(args: readonly string[]): boolean {
  let i = 0;
  // Global options before the subcommand: `-C <dir>` and `--no-pager` are harmless; `-c` is not.
  while (i < args.length && args[i]!.startsWith('-')) {
    const option = args[i]!;
    if (option === '-C') i += 2;
    else if (option === '--no-pager') i++;
    else return false;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined || !SAFE_GIT.has(sub) || rest.some((a) => UNSAFE_GIT_OPTION.test(a))) return false;
  if (sub === 'branch') return rest.every((a) => READ_ONLY_BRANCH.test(a));
  if (sub === 'remote') return rest.every((a) => a === '-v' || a === '--verbose' || a === 'show' || a === 'get-url');
  return true;
}

/** A whole command line that only reads (Semi-Auto runs it unasked). */
export function isKnownSafeCommand(command: string): boolean {
  const split = splitCommand(command);
  if (split.parts.length === 0 || split.substitution || split.multiline || split.risky || split.deceptive || split.parseError) return false;
  return split.parts.every(isKnownSafePart);
}
