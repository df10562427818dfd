import { matchingWindows, wholeLines, type EditPass, type FoundText } from './pass';
import { splitFindLines } from './text-lines';

const normalize = (s: string) => s.trim().replace(/\s+/g, ' ');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Pass 4: runs of whitespace count as one space. A one-line old_content is found inside a line
 * (`const   x =  5;` for `const x = 5;`); a longer one as whole lines.
 */
export const whitespaceNormalizedPass: EditPass = {
  name: 'whitespace-normalized',
  find(file, find) {
    const lines = splitFindLines(find);
    if (lines.length === 1) {
      const tokens = normalize(lines[0]!).split(' ').filter(Boolean);
      if (tokens.length === 0) return [];
      const pattern = new RegExp(tokens.map(escapeRegExp).join('[ \\t]+'), 'g');
      const found: FoundText[] = [];
      for (let i = 0; i < file.count; i++) {
        const line = file.lines[i]!;
        for (const m of line.matchAll(pattern)) {
          const start = file.starts[i]! + m.index!;
          found.push({ start, end: start + m[0].length, text: m[0] });
        }
      }
      return found;
    }
    const want = lines.map(normalize);
    if (want.every((l) => l === '')) return [];
    const normalized = file.lines.map(normalize);
    return matchingWindows(file, want.length, (f, w) => normalized[f] === want[w]).map((i) =>
      wholeLines(file, i, i + want.length - 1, lines),
    );
  },
};
