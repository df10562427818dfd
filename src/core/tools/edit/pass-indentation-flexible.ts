import { matchingWindows, wholeLines, type EditPass } from './pass';
import { leadingWhitespace, splitFindLines } from './text-lines';

/**
 * Pass 5: whole lines equal once the block's common indentation is removed from both sides:
 * the relative indentation must agree, the absolute one may differ.
 */
export const indentationFlexiblePass: EditPass = {
  name: 'indentation-flexible',
  find(file, find) {
    const lines = splitFindLines(find);
    const want = dedent(lines);
    if (want.every((l) => l === '')) return [];
    const k = lines.length;
    const firstWanted = lines[0]!.trim();
    const trimmed = file.trimmed;
    return matchingWindows(file, 1, (f) => trimmed[f] === firstWanted)
      .filter((i) => i + k <= file.count)
      .filter((i) => dedent(file.lines.slice(i, i + k)).every((line, j) => line === want[j]))
      .map((i) => wholeLines(file, i, i + k - 1, lines));
  },
};

/** Removes the smallest indentation of the non-blank lines from every line (blank lines become ''). */
export function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => leadingWhitespace(l).length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => (l.trim() === '' ? '' : l.slice(common)));
}
