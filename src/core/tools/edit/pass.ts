import type { TextLines } from './text-lines';

/** The nine passes of appendix D, in the order they run. */
export type PassName =
  | 'simple'
  | 'line-trimmed'
  | 'block-anchor'
  | 'whitespace-normalized'
  | 'indentation-flexible'
  | 'escape-normalized'
  | 'trimmed-boundary'
  | 'context-aware'
  | 'multi-occurrence';

/**
 * One place a pass found old_content. `text` is what the file really holds there (the edit
 * replaces exactly that), which can differ from old_content in whitespace, escapes or, for the
 * anchor passes, in some middle lines.
 */
export interface FoundText {
  start: number;
  end: number;
  text: string;
  /**
   * The old_content lines the pass lined up with the found lines (one per found line when the
   * counts agree). Present when the match covers whole lines, so new_content can be re-indented
   * by the indentation the file really has there.
   */
  alignedOld?: string[];
  /** The match starts inside its first line (that line's indentation is outside the match). */
  startsMidLine?: boolean;
}

export interface EditPass {
  readonly name: PassName;
  /** Every place (overlapping ones included) where this pass finds `find` in the file. */
  find(file: TextLines, find: string): FoundText[];
}

/** A match made of whole lines first..last of the file. */
export function wholeLines(file: TextLines, first: number, last: number, alignedOld: string[]): FoundText {
  const start = file.starts[first]!;
  const end = file.endOf(last);
  return { start, end, text: file.text.slice(start, end), alignedOld };
}

/**
 * The line windows of the file, k lines tall, whose lines equal `want` under `same`.
 * `same(fileLineIndex, wantIndex)` decides one line; windows are checked line by line and
 * abandoned at the first difference, so the cost stays near one pass over the file.
 */
export function matchingWindows(file: TextLines, k: number, same: (fileLine: number, wantLine: number) => boolean): number[] {
  const found: number[] = [];
  if (k === 0) return found;
  for (let i = 0; i + k <= file.count; i++) {
    let j = 0;
    while (j < k && same(i + j, j)) j++;
    if (j === k) found.push(i);
  }
  return found;
}
