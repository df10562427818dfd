import { wholeLines, type EditPass, type FoundText } from './pass';
import { dropBlankBoundaryLines, splitFindLines } from './text-lines';

/** The share of old_content's middle lines that must appear unchanged, line for line (paper: 0.5). */
export const CONTEXT_AWARE_MIN_SIMILARITY = 0.5;

/**
 * Pass 8: the first and last non-empty lines of old_content anchor a block of exactly as many
 * lines; at least half of the non-empty middle lines must be equal (trimmed) at the same place.
 */
export const contextAwarePass: EditPass = {
  name: 'context-aware',
  find(file, find) {
    const lines = dropBlankBoundaryLines(splitFindLines(find));
    const k = lines.length;
    if (k < 3) return [];
    const want = lines.map((l) => l.trim());
    const trimmed = file.trimmed;
    const found: FoundText[] = [];
    for (let i = 0; i + k <= file.count; i++) {
      if (trimmed[i] !== want[0] || trimmed[i + k - 1] !== want[k - 1]) continue;
      let considered = 0;
      let equal = 0;
      for (let j = 1; j < k - 1; j++) {
        if (want[j] === '') continue;
        considered++;
        if (trimmed[i + j] === want[j]) equal++;
      }
      const score = considered === 0 ? 1 : equal / considered;
      if (score >= CONTEXT_AWARE_MIN_SIMILARITY) found.push(wholeLines(file, i, i + k - 1, lines));
    }
    return found;
  },
};
