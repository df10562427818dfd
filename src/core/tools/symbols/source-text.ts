import type { TextPosition } from '../../symbol-port';

/**
 * A document's text with the editor's idea of lines: `\r\n`, `\n` and `\r` all end one, and a
 * position's character counts UTF-16 code units, as JavaScript strings do.
 */
export class SourceText {
  /** Offset where each line starts. */
  private readonly starts: number[] = [0];
  /** The line ending new text should use: the file's first one, `\n` when it has none. */
  readonly eol: string;

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */ && text.charCodeAt(i + 1) === 10) i++;
      if (c === 10 || c === 13) this.starts.push(i + 1);
    }
    this.eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The line's text without its line ending. */
  line(n: number): string {
    const start = this.starts[n] ?? this.text.length;
    return this.text.slice(start, this.lineEnd(n));
  }

  /** Offset just past the line's last character (before its line ending). */
  lineEnd(n: number): number {
    const next = this.starts[n + 1];
    if (next === undefined) return this.text.length;
    return this.text[next - 2] === '\r' && this.text[next - 1] === '\n' ? next - 2 : next - 1;
  }

  lineStart(n: number): number {
    return this.starts[Math.min(n, this.starts.length - 1)]!;
  }

  offsetAt(position: TextPosition): number {
    if (position.line >= this.starts.length) return this.text.length;
    return Math.min(this.lineStart(position.line) + position.character, this.lineEnd(position.line));
  }

  positionAt(offset: number): TextPosition {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - this.starts[low]! };
  }

  /** The line's leading spaces and tabs. */
  indentOf(n: number): string {
    return /^[ \t]*/.exec(this.line(n))![0];
  }
}
