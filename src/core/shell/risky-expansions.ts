/**
 * Parameter expansions that can run code the reader of the command line does not see (the forms
 * Roo Code's validator refuses to auto-approve): `${var@P}` expands prompt escapes, including
 * `$(…)` and backticks hidden in the value; `${!var}` reads a variable named by another; escape
 * sequences in a default value (`${var=\140cmd\140}`) build backticks for a later `@P`.
 * Every test is linear in the text: no pattern here can backtrack over it.
 */

/** `${…}` text (nested expansions included) → why it is risky, or undefined. */
export function riskyExpansion(text: string): string | undefined {
  if (text.includes('${!')) return 'an indirect expansion `${!…}` reads a variable named at run time';
  if (/@[PQEAaKkUuL]\}/.test(text)) return 'a parameter transformation `${…@P}` can expand hidden commands';
  const operator = DEFAULT_OPERATOR.exec(text);
  if (operator && ESCAPE.test(text.slice(operator[0].length))) return 'escape sequences in a `${…}` default value can build a hidden command';
  return undefined;
}

/** `${name=`, `${name:-`, `${#name[i]+`…: where a default value starts. */
const DEFAULT_OPERATOR = /^\$\{#?\w+(?:\[[^\]]*\])?:?[-=+?]/;
/** An octal, hex or Unicode escape (`\140` is a backtick). */
const ESCAPE = /\\(?:[0-7]|x[0-9a-fA-F]|u[0-9a-fA-F]|U[0-9a-fA-F])/;

/** What follows `<<<` when it feeds a command substitution. */
export const RISKY_HERE_STRING = /^["']?(?:\$\((?!\()|`)/;
