/** What fetch_url returns at most, in characters (the paper's 50k). */
export const MAX_WEB_CHARS = 50_000;

/** `text`, cut to `max` characters with a note saying how much was left out. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[Truncated: showing ${max.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters.]`;
}

/**
 * Shares `budget` characters among texts fairly: short ones keep everything, the long ones split
 * what is left equally (so one huge page cannot crowd out the others of a crawl).
 */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  const shares = new Array<number>(lengths.length).fill(0);
  let remaining = Math.max(0, budget);
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
  order.forEach(({ length, index }, position) => {
    const fair = Math.floor(remaining / (order.length - position));
    shares[index] = Math.min(length, fair);
    remaining -= shares[index]!;
  });
  return shares;
}
