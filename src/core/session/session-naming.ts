// Session titles as the history shows them.

/** The longest title (paper: 50 characters). */
export const TITLE_MAX = 50;

/** A session title: the text with its whitespace collapsed, at most 50 characters. */
export function makeTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1)}…` : flat;
}
