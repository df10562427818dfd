/**
 * `@` mentions in a chat message: `@src/math.ts`, `@src/` (a folder), `@"docs/a file.md"` (quoted
 * when the path has spaces) and the special sources `@problems`, `@terminal`, `@git`. A mention
 * starts at the beginning of the text or after whitespace, so `user@example.com` is not one.
 * Browser-safe: the webview finds the mention being typed with it, the extension the ones sent.
 */

export const SPECIAL_MENTIONS = ['problems', 'terminal', 'git'] as const;
export type SpecialMention = (typeof SPECIAL_MENTIONS)[number];

export interface ParsedMention {
  /** The path (workspace-relative, `/` separators) or the special source's name. */
  target: string;
  special?: SpecialMention;
  /** Where the mention is in the text, `@` included, end exclusive. */
  start: number;
  end: number;
}

/** Trailing punctuation that ends a sentence rather than a path: `see @math.ts.` */
const TRAILING = /[.,;:!?)\]}'"`]+$/;
const MENTION = /(^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g;

/** Every mention in the text, in order (the same target may appear twice). */
export function parseMentions(text: string): ParsedMention[] {
  const found: ParsedMention[] = [];
  for (const match of text.matchAll(MENTION)) {
    const start = match.index + match[1]!.length;
    const quoted = match[2];
    let target = quoted ?? match[3]!;
    let end = start + 1 + (quoted !== undefined ? quoted.length + 2 : target.length);
    if (quoted === undefined) {
      const trimmed = target.replace(TRAILING, '');
      end -= target.length - trimmed.length;
      target = trimmed;
    }
    target = target.trim();
    if (!target) continue;
    const special = (SPECIAL_MENTIONS as readonly string[]).includes(target) ? (target as SpecialMention) : undefined;
    found.push({ target, start, end, ...(special ? { special } : {}) });
  }
  return found;
}

/** How a path mention is named once sent: `./src/a.ts`, `src\\a.ts`, `src/` → `src/a.ts`, `src`. */
export function mentionPath(target: string): string {
  return target.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '') || '.';
}

/** The text a completion inserts for a path or special source (quoted when it has spaces). */
export function mentionText(target: string): string {
  return /\s/.test(target) ? `@"${target}"` : `@${target}`;
}

/**
 * The mention being typed at the caret: `@` at the start or after whitespace, then no whitespace
 * up to the caret. `start` is where the `@` is; `query` what follows it (a `"` opening a quoted
 * path is skipped). Undefined when the caret is not in one.
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return undefined;
  if (at > 0 && !/\s/.test(before[at - 1]!)) return undefined;
  const typed = before.slice(at + 1);
  const quoted = typed.startsWith('"');
  if (quoted ? typed.slice(1).includes('"') || typed.includes('\n') : /\s/.test(typed)) return undefined;
  return { start: at, query: quoted ? typed.slice(1) : typed };
}

/**
 * Replaces the mention being typed (from `start` to the end of its token) with the chosen
 * target and a space; returns the new text and where the caret goes.
 */
export function insertMention(text: string, start: number, target: string): { text: string; caret: number } {
  const rest = text.slice(start);
  const token = /^@(?:"[^"\n]*"?|[^\s]*)/.exec(rest)?.[0] ?? '@';
  const inserted = `${mentionText(target)} `;
  const after = text.slice(start + token.length).replace(/^ /, '');
  return { text: `${text.slice(0, start)}${inserted}${after}`, caret: start + inserted.length };
}
