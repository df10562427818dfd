import type { EditPass } from './pass';
import { lineTrimmedMatches } from './pass-line-trimmed';
import { allIndexesOf, splitFindLines } from './text-lines';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '`': '`', $: '$', '\n': '\n' };

/** Undoes the escaping a model adds when it writes code inside a JSON string: \n \t \\ \' \" \` \$. */
export function unescapeModelText(s: string): string {
  return s.replace(/\\([ntr\\'"`$\n])/g, (_, c: string) => ESCAPES[c]!);
}

/**
 * Pass 6: old_content with its escape sequences undone (`\n` → newline, `\\` → `\`), found
 * exactly, or as whole lines ignoring each line's surrounding whitespace.
 */
export const escapeNormalizedPass: EditPass = {
  name: 'escape-normalized',
  find(file, find) {
    const unescaped = unescapeModelText(find);
    if (unescaped === find || unescaped === '') return [];
    const exact = allIndexesOf(file.text, unescaped).map((start) => ({ start, end: start + unescaped.length, text: unescaped }));
    return exact.length > 0 ? exact : lineTrimmedMatches(file, splitFindLines(unescaped));
  },
};
