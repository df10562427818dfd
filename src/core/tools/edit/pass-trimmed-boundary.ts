import type { EditPass } from './pass';
import { lineTrimmedMatches } from './pass-line-trimmed';
import { allIndexesOf, dropBlankBoundaryLines, splitFindLines } from './text-lines';

/**
 * Pass 7: old_content without the whitespace and blank lines at its two ends: found exactly, or
 * as whole lines ignoring each line's surrounding whitespace.
 */
export const trimmedBoundaryPass: EditPass = {
  name: 'trimmed-boundary',
  find(file, find) {
    const trimmed = find.trim();
    if (trimmed === '' || trimmed === find) return [];
    const exact = allIndexesOf(file.text, trimmed).map((start) => ({ start, end: start + trimmed.length, text: trimmed }));
    if (exact.length > 0) return exact;
    const all = splitFindLines(find);
    const inner = dropBlankBoundaryLines(all);
    return inner.length < all.length ? lineTrimmedMatches(file, inner) : [];
  },
};
