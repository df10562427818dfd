import type { EditPass, FoundText } from './pass';
import { allIndexesOf, dropBlankBoundaryLines, leadingWhitespace, splitFindLines } from './text-lines';

/**
 * Pass 9: every occurrence, line-trimmed and exact, where old_content may also begin and end
 * inside a line: its first line ends a file line, its last line starts one, the lines between
 * are equal after trimming. One-line old_content: each occurrence of its trimmed text.
 */
export const multiOccurrencePass: EditPass = {
  name: 'multi-occurrence',
  find(file, find) {
    const lines = dropBlankBoundaryLines(splitFindLines(find));
    if (lines.length === 0) return [];
    if (lines.length === 1) {
      const needle = lines[0]!.trim();
      return allIndexesOf(file.text, needle).map((start) => ({ start, end: start + needle.length, text: needle }));
    }
    const want = lines.map((l) => l.trim());
    const head = want[0]!;
    const tail = want[want.length - 1]!;
    if (head === '' || tail === '') return [];
    const k = want.length;
    const trimmed = file.trimmed;
    const found: FoundText[] = [];
    for (let i = 0; i + k <= file.count; i++) {
      const firstLine = file.lines[i]!.trimEnd();
      if (!firstLine.endsWith(head)) continue;
      let j = 1;
      while (j < k - 1 && trimmed[i + j] === want[j]) j++;
      if (j < k - 1) continue;
      const lastLine = file.lines[i + k - 1]!;
      const lastIndent = leadingWhitespace(lastLine).length;
      if (!lastLine.slice(lastIndent).startsWith(tail)) continue;
      const start = file.starts[i]! + firstLine.length - head.length;
      const end = file.starts[i + k - 1]! + lastIndent + tail.length;
      // The first line's indentation stays outside the match, so only later lines are re-indented.
      found.push({ start, end, text: file.text.slice(start, end), alignedOld: lines, startsMidLine: true });
    }
    return found;
  },
};
