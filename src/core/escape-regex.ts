/** `text` as a regular expression that matches it literally ("/" escaped too, for a `/…/` literal). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
