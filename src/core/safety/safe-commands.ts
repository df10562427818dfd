/**
 * Commands that only read, which Semi-Auto runs without asking: a single command (no chaining,
 * pipes, redirects or substitutions) whose program and subcommand are on this list.
 */
const SAFE_PROGRAMS = new Set(['ls', 'pwd', 'cat', 'head', 'tail', 'wc', 'echo', 'grep', 'rg', 'which', 'whoami', 'date', 'tree', 'stat', 'file', 'du', 'df']);
const SAFE_GIT = new Set(['status', 'diff', 'log', 'show', 'branch', 'rev-parse', 'remote', 'blame']);
const SHELL_SYNTAX = /[;&|<>`$(){}\n\\]|\*\*/;

export function isKnownSafeCommand(command: string): boolean {
  const text = command.trim();
  if (!text || SHELL_SYNTAX.test(text)) return false;
  const [program, sub, ...rest] = text.split(/\s+/);
  if (program === 'git') return sub !== undefined && SAFE_GIT.has(sub) && !rest.some((a) => /^--(output|exec)/.test(a));
  if (program === 'find') return ![sub, ...rest].some((a) => a !== undefined && /^-(exec|execdir|delete|ok|fprint)/.test(a));
  return program !== undefined && SAFE_PROGRAMS.has(program);
}
