import * as z from 'zod';

/** "1-3,5": pages and inclusive ranges, 1-based, comma-separated. */
const PAGE_RANGES = /^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$/;

/** What the model may pass as `pages`; the bounds against the document are checked once it is open. */
export const PageRangesSchema = z
  .string()
  // refine, not regex: the pattern would cost ~70 characters in every request's tool schema.
  .refine((text) => PAGE_RANGES.test(text), { message: 'pages must look like "1-3,5": page numbers and ranges, separated by commas', abort: true })
  .refine((text) => parseRanges(text).every(([from, to]) => from >= 1 && from <= to), {
    message: 'pages start at 1 and a range goes from the lower page to the higher ("3-5", not "5-3")',
  });

/** The [from, to] pairs of a string that passed PageRangesSchema. */
function parseRanges(text: string): Array<[number, number]> {
  return text.split(',').map((part) => {
    const [from, to] = part.split('-').map((n) => Number(n.trim()));
    return [from, to ?? from];
  });
}

/**
 * The pages `text` names, ascending and once each, all within a document of `pageCount` pages;
 * undefined with a message naming what is out of range otherwise. No `text`: every page.
 */
export function selectPages(text: string | undefined, pageCount: number): { pages: number[] } | { error: string } {
  if (text === undefined) return { pages: Array.from({ length: pageCount }, (_, i) => i + 1) };
  const ranges = parseRanges(text);
  const outside = ranges.filter(([, to]) => to > pageCount).map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`));
  if (outside.length > 0) {
    return { error: `page${outside.length > 1 || outside[0].includes('-') ? 's' : ''} ${outside.join(', ')} out of range: the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}` };
  }
  const pages = new Set<number>();
  for (const [from, to] of ranges) for (let p = from; p <= to; p++) pages.add(p);
  return { pages: [...pages].sort((a, b) => a - b) };
}

/** [1,2,3,5,7,8] → "1-3, 5, 7-8". */
export function describePages(pages: readonly number[]): string {
  if (pages.length === 0) return 'none';
  const parts: string[] = [];
  let start = pages[0];
  for (let i = 1; i <= pages.length; i++) {
    if (i < pages.length && pages[i] === pages[i - 1] + 1) continue;
    const end = pages[i - 1];
    parts.push(start === end ? `${start}` : `${start}-${end}`);
    start = pages[i];
  }
  return parts.join(', ');
}
