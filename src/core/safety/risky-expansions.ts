/**
 * Parameter expansions that can run code the reader of the command line does not see (the forms
 * Roo Code's validator refuses to auto-approve): `${var@P}` expands prompt escapes, including
 * `$(…)` and backticks hidden in the value; `${!var}` reads a variable named by another; escape
 * sequences in a default value (`${var=\140cmd\140}`) build backticks for a later `@P`.
 */

/** `${…}` text (nested expansions included) → why it is risky, or undefined. */
export function riskyExpansion(text: string): string | undefined {
  if (/\$\{!/.test(text)) return 'an indirect expansion `${!…}` reads a variable named at run time';
  if (/@[PQEAaKkUuL]\}/.test(text)) return 'a parameter transformation `${…@P}` can expand hidden commands';
  if (DEFAULT_WITH_ESCAPE.test(text)) return 'escape sequences in a `${…}` default value can build a hidden command';
  return undefined;
}

/** `${name=…\140…}`, `${name:-…\x60…}`: octal, hex or Unicode escapes (`\140` is a backtick) in a default value. */
const DEFAULT_WITH_ESCAPE = /\$\{#?\w+(?:\[[^\]]*\])?:?[-=+?][^}]*\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8})/;

/** What follows `<<<` when it feeds a command substitution. */
export const RISKY_HERE_STRING = /^["']?(?:\$\((?!\()|`)/;
