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
