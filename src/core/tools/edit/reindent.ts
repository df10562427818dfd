import { leadingWhitespace } from './text-lines';

/**
 * Lines of new_content whose indentation starts with `from` get `to` in its place. With `unit`,
 * the two sides also nest by different steps (2 spaces in old_content, 4 or a tab in the file):
 * each leading `unit.from` after the base becomes one `unit.to`.
 */
export interface IndentShift {
  from: string;
  to: string;
  unit?: { from: string; to: string };
}

/**
 * The indentation change between old_content's lines and the lines a fuzzy pass found, if one
 * consistent change explains every non-blank line pair: the line with the least indentation in
 * old_content gives the two bases; every other line keeps the same indentation relative to them,
 * or the same number of nesting levels when the two sides nest by different steps. Undefined when
 * the indentation already agrees or the differences are inconsistent (then new_content is used
 * as written).
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
  if (!pairs.every(([o, f]) => o.startsWith(from) && f.startsWith(to))) return undefined;
  const relative = pairs.map(([o, f]): [string, string] => [o.slice(from.length), f.slice(to.length)]);
  if (relative.every(([o, f]) => o === f)) return from === to ? undefined : { from, to };
  const unit = nestingUnit(relative);
  return unit ? { from, to, unit } : undefined;
}

/**
 * The step each side nests by, when one explains every pair: the smallest relative indentation
 * of old_content and the file's at the same line, each all spaces or all tabs; every relative
 * indentation must then be k steps (plus the same alignment rest) on both sides.
 */
function nestingUnit(relative: ReadonlyArray<[string, string]>): { from: string; to: string } | undefined {
  const nested = relative.filter(([o]) => o !== '');
  if (nested.length === 0) return undefined;
  const [from, to] = nested.reduce((best, p) => (p[0].length < best[0].length ? p : best));
  const uniform = /^(?: +|\t+)$/;
  if (!uniform.test(from) || !uniform.test(to)) return undefined;
  const unit = { from, to };
  return relative.every(([o, f]) => scaleLevels(o, unit) === f) ? unit : undefined;
}

/** k leading `unit.from` become k `unit.to`; what follows (alignment) stays. */
function scaleLevels(indent: string, unit: { from: string; to: string }): string {
  let k = 0;
  while (indent.startsWith(unit.from, k * unit.from.length)) k++;
  return unit.to.repeat(k) + indent.slice(k * unit.from.length);
}

/** Applies the shift to every non-blank line of `text` (the first one too unless skipFirst). */
export function reindent(text: string, shift: IndentShift, skipFirst: boolean): string {
  return text
    .split('\n')
    .map((line, i) => {
      if ((skipFirst && i === 0) || line.trim() === '') return line;
      const indent = leadingWhitespace(line);
      return reindentIndent(indent, shift) + line.slice(indent.length);
    })
    .join('\n');
}

function reindentIndent(indent: string, shift: IndentShift): string {
  const { from, to, unit } = shift;
  if (indent.startsWith(from)) return to + (unit ? scaleLevels(indent.slice(from.length), unit) : indent.slice(from.length));
  // Less indented than old_content's base (a line that closes the block): fewer levels, same mapping.
  if (unit) {
    const baseLevels = levelsOf(from, unit.from);
    const levels = levelsOf(indent, unit.from);
    if (levels >= 0 && baseLevels > levels) {
      const drop = unit.to.repeat(baseLevels - levels);
      if (to.endsWith(drop)) return to.slice(0, to.length - drop.length);
    }
  }
  if (to.endsWith(from)) return to.slice(0, to.length - from.length) + indent;
  if (from.endsWith(to)) {
    const removed = from.slice(0, from.length - to.length);
    return indent.startsWith(removed) ? indent.slice(removed.length) : '';
  }
  return indent;
}

/** How many `unit`s make up `indent` exactly; -1 when it is not whole units. */
function levelsOf(indent: string, unit: string): number {
  const k = indent.length / unit.length;
  return Number.isInteger(k) && unit.repeat(k) === indent ? k : -1;
}

/** "+4 spaces", "−1 tab", "\"  \" → \"\\t\"", with ", levels of 2 spaces as 4 spaces" when nesting changed. */
export function describeShift(shift: IndentShift): string {
  const unit = (s: string) => (/^ +$/.test(s) ? `${s.length} space${s.length === 1 ? '' : 's'}` : /^\t+$/.test(s) ? `${s.length} tab${s.length === 1 ? '' : 's'}` : JSON.stringify(s));
  const base =
    shift.from === shift.to
      ? undefined
      : shift.to.endsWith(shift.from)
        ? `+${unit(shift.to.slice(0, shift.to.length - shift.from.length))}`
        : shift.from.endsWith(shift.to)
          ? `−${unit(shift.from.slice(0, shift.from.length - shift.to.length))}`
          : `${JSON.stringify(shift.from)} → ${JSON.stringify(shift.to)}`;
  const levels = shift.unit ? `levels of ${unit(shift.unit.from)} as ${unit(shift.unit.to)}` : undefined;
  return [base, levels].filter(Boolean).join(', ');
}
