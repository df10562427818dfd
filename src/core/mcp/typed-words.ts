/*
 * Typed arguments (`/mcp add name -- npx -y server`, the "Add MCP Server" input): words, not a shell
 * command. `;`, `&`, `|`, `#` and parentheses are plain characters here (a URL's query keeps its
 * `&`), so this is no shell reader: commands the agent runs are read by core/shell.
 */

/**
 * Splits a typed line (not a shell command: `;`, `&`, `|`, `#` and parentheses are plain characters)
 * into words with the shell's quoting rules: '…' and "…" group, a backslash escapes the
 * next character (inside double quotes only `"`, `\`, `$` and a backtick); nothing is expanded. An
 * unclosed quote is reported.
 */
export function splitQuotedWords(text: string): string[] | { problem: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length && /["\\$`]/.test(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return { problem: `The quote ${quote} is not closed.` };
  if (inWord) words.push(word);
  return words;
}
