import { matchingWindows, wholeLines, type EditPass, type FoundText } from './pass';
import { splitFindLines, type TextLines } from './text-lines';

/** Pass 2: whole lines equal once each line's leading and trailing whitespace is ignored. */
export const lineTrimmedPass: EditPass = {
  name: 'line-trimmed',
  find(file, find) {
    return lineTrimmedMatches(file, splitFindLines(find));
  },
};

/** Windows of whole lines equal to `lines` line by line after trimming (shared with later passes). */
export function lineTrimmedMatches(file: TextLines, lines: string[]): FoundText[] {
  const want = lines.map((line) => line.trim());
  if (want.every((line) => line === '')) return [];
  const trimmed = file.trimmed;
  return matchingWindows(file, want.length, (f, w) => trimmed[f] === want[w]).map((i) =>
    wholeLines(file, i, i + want.length - 1, lines),
  );
}
