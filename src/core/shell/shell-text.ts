/* Small facts about shell words and lines that need no parse. */

/** Unicode and legacy line separators some shells or terminals treat as newlines: all become `\n`. */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029\u0085\v\f]/g, '\n');
}

/** A `NAME=value` assignment word. */
export function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(word);
}

/** `/usr/bin/rm` → `rm`. */
export function commandName(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

/** A word as the shell will read it back unchanged: bare when it is plain, else single-quoted. */
export function quoteShellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `word` with the variables set plainly earlier on the line put in (twice: `A=$HOME; B=$A`).
 * `$HOME` and `$PWD` stay as written: the callers know them better than a line that sets them.
 */
export function substituteKnownVars(word: string, vars: Readonly<Record<string, string>>): string {
  let out = word;
  for (let round = 0; round < 2 && out.includes('$'); round++) {
    out = out.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, a: string | undefined, b: string | undefined) => {
      const name = (a ?? b)!;
      return name !== 'HOME' && name !== 'PWD' && Object.hasOwn(vars, name) ? vars[name]! : m;
    });
  }
  return out;
}
