/**
 * The file text (LF line endings, no BOM) split into lines once, shared by every edit pass.
 * Offsets are into `text`; a line's end is the offset of its newline (or of the end of text).
 */
export class TextLines {
  readonly lines: string[];
  readonly starts: number[];
  private trimmedCache: string[] | undefined;

  constructor(readonly text: string) {
    this.lines = text.split('\n');
    this.starts = new Array<number>(this.lines.length);
    let offset = 0;
    for (let i = 0; i < this.lines.length; i++) {
      this.starts[i] = offset;
      offset += this.lines[i]!.length + 1;
    }
  }

  get count(): number {
    return this.lines.length;
  }

  /** Every line with its surrounding whitespace removed (computed once). */
  get trimmed(): string[] {
    this.trimmedCache ??= this.lines.map((line) => line.trim());
    return this.trimmedCache;
  }

  /** Offset just past the last character of `line` (its newline is not included). */
  endOf(line: number): number {
    return this.starts[line]! + this.lines[line]!.length;
  }

  /** The 0-based line that contains `offset`. */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/**
 * old_content split into lines. A final newline ends the last line rather than starting an empty
 * one, so "a\nb\n" is the two lines a, b.
 */
export function splitFindLines(find: string): string[] {
  const lines = find.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The lines without blank lines at either end (the passes that trim old_content's boundaries). */
export function dropBlankBoundaryLines(lines: readonly string[]): string[] {
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && lines[first]!.trim() === '') first++;
  while (last >= first && lines[last]!.trim() === '') last--;
  return lines.slice(first, last + 1);
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** Every start offset of `needle` in `haystack`, overlapping ones included. */
export function allIndexesOf(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) out.push(at);
  return out;
}
