import { leadingWhitespace } from './text-lines';

/** Lines of new_content whose indentation starts with `from` get `to` in its place. */
export interface IndentShift {
  from: string;
  to: string;
}

/**
 * The indentation change between old_content's lines and the lines a fuzzy pass found, if one
 * consistent change explains every non-blank line pair: the line with the least indentation in
 * old_content gives the two bases, and every other line must keep the same indentation relative
 * to them. Undefined when the indentation already agrees or the differences are inconsistent
 * (then new_content is used as written).
 */
export function indentShift(alignedOld: readonly string[], foundLines: readonly string[], skipFirst: boolean): IndentShift | undefined {
  const pairs: Array<[string, string]> = [];
  const add = (i: number, j: number) => {
    if (skipFirst && i === 0) return;
    const o = alignedOld[i];
    const f = foundLines[j];
    if (o !== undefined && f !== undefined && o.trim() !== '' && f.trim() !== '') pairs.push([leadingWhitespace(o), leadingWhitespace(f)]);
  };
  if (alignedOld.length === foundLines.length) alignedOld.forEach((_, i) => add(i, i));
  else {
    add(0, 0);
    add(alignedOld.length - 1, foundLines.length - 1);
  }
  if (pairs.length === 0) return undefined;
  const [from, to] = pairs.reduce((best, p) => (p[0].length < best[0].length ? p : best));
  if (from === to) return undefined;
  const consistent = pairs.every(([o, f]) => o.startsWith(from) && f.startsWith(to) && o.slice(from.length) === f.slice(to.length));
  return consistent ? { from, to } : undefined;
}

/** Applies the shift to every non-blank line of `text` (the first one too unless skipFirst). */
export function reindent(text: string, shift: IndentShift, skipFirst: boolean): string {
  const added = shift.to.endsWith(shift.from) ? shift.to.slice(0, shift.to.length - shift.from.length) : undefined;
  const removed = shift.from.endsWith(shift.to) ? shift.from.slice(0, shift.from.length - shift.to.length) : undefined;
  return text
    .split('\n')
    .map((line, i) => {
      if ((skipFirst && i === 0) || line.trim() === '') return line;
      if (added !== undefined) return added + line;
      if (removed !== undefined) return line.startsWith(removed) ? line.slice(removed.length) : line.replace(/^[ \t]*/, '');
      return line.startsWith(shift.from) ? shift.to + line.slice(shift.from.length) : line;
    })
    .join('\n');
}

/** "+4 spaces", "−1 tab", or "\"  \" → \"\\t\"" for the tool's result. */
export function describeShift(shift: IndentShift): string {
  const unit = (s: string) => (/^ +$/.test(s) ? `${s.length} space${s.length === 1 ? '' : 's'}` : /^\t+$/.test(s) ? `${s.length} tab${s.length === 1 ? '' : 's'}` : JSON.stringify(s));
  if (shift.to.endsWith(shift.from)) return `+${unit(shift.to.slice(0, shift.to.length - shift.from.length))}`;
  if (shift.from.endsWith(shift.to)) return `−${unit(shift.from.slice(0, shift.from.length - shift.to.length))}`;
  return `${JSON.stringify(shift.from)} → ${JSON.stringify(shift.to)}`;
}
