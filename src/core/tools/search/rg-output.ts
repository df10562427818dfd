import { MAX_LINE_CHARS } from './limits';
import { FileMatchBuilder, type MatchCollector } from './results';

/** Receives a stream's lines; may decline a line from its first bytes, which then is never buffered. */
export interface LineSink {
  wantsLine(head: Buffer): boolean;
  line(whole: Buffer): void;
}

/** Bytes of a line's start a sink needs to decide (the longest event-type prefix, with room). */
const HEAD_BYTES = 32;

/**
 * Splits a byte stream into lines without copying what nobody wants: a declined line is skipped
 * as it streams by, however long it is. A final line without a newline (the process was killed)
 * is dropped.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** For the current line: undefined until decided, then keep or skip. */
  private keep: boolean | undefined;

  constructor(private readonly sink: LineSink) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (this.keep !== false) {
        this.parts.push(chunk.subarray(start, end));
        this.size += end - start;
      }
      if (this.keep === undefined && (nl !== -1 || this.size >= HEAD_BYTES)) {
        const head = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
        this.keep = this.sink.wantsLine(head.subarray(0, HEAD_BYTES));
        if (!this.keep) this.reset(false);
      }
      if (nl === -1) return;
      if (this.keep) this.sink.line(this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size));
      this.reset(undefined);
      start = nl + 1;
    }
  }

  private reset(keep: false | undefined): void {
    this.parts = [];
    this.size = 0;
    this.keep = keep;
  }
}

/** Lines longer than this many bytes come back from ripgrep as a preview (`--max-columns`). */
export const RG_MAX_COLUMNS = 2000;

const BINARY_NOTE = Buffer.from(': binary file matches');

const PREVIEW_SUFFIX = / \[\.\.\. (?:\d+ more match(?:es)?|omitted end of long line)\]$/;

/**
 * Reads ripgrep's standard output as run by the search tool (`--null --line-number --column
 * --context N --max-columns … --max-columns-preview`): `path NUL 12:7:text` for a match (line,
 * first match's byte column), `path NUL 11-text` for context, `--` between blocks. Every output
 * line is bounded by --max-columns, so a minified bundle or source map costs a preview, not
 * megabytes (`--json` has no such bound). A file's lines arrive together even when ripgrep runs
 * in parallel; files the collector does not want are only counted.
 */
export class RgOutputReader implements LineSink {
  private path: Buffer | undefined;
  private file: FileMatchBuilder | undefined;
  private counted = 0;
  /** Binary files ripgrep found a match in (it names them instead of printing lines). */
  binaryMatches = 0;

  constructor(
    private readonly collector: MatchCollector,
    private readonly cap: number,
    private readonly contextLines: number,
  ) {}

  wantsLine(): boolean {
    return true;
  }

  line(raw: Buffer): void {
    const nul = raw.indexOf(0);
    if (nul <= 0) {
      // "--" between blocks, or "<path>: binary file matches (found "\0" byte …)" for a binary file given as path
      if (raw.includes(BINARY_NOTE)) this.binaryMatches++;
      return;
    }
    if (!this.path || !raw.subarray(0, nul).equals(this.path)) this.startFile(Buffer.from(raw.subarray(0, nul)));
    let at = nul + 1;
    let lineNumber = 0;
    for (; at < raw.length && raw[at]! >= 48 && raw[at]! <= 57; at++) lineNumber = lineNumber * 10 + raw[at]! - 48;
    const separator = raw[at];
    if (separator === 58 /* : */) {
      this.counted++;
      if (!this.file) return;
      let column = 0;
      for (at++; at < raw.length && raw[at]! >= 48 && raw[at]! <= 57; at++) column = column * 10 + raw[at]! - 48;
      this.addMatch(lineNumber, column, raw.subarray(at + 1));
    } else if (separator === 45 /* - */ && this.file) {
      const text = raw.subarray(at + 1).toString('utf8');
      const preview = PREVIEW_SUFFIX.exec(text);
      this.file.addContext(lineNumber, preview ? text.slice(0, preview.index) : text.replace(/\r$/, ''), preview !== null);
    }
  }

  /** Hands the last file to the collector: call when ripgrep has exited. */
  finish(): void {
    if (this.file) this.collector.add(this.file.done());
    else this.collector.count(this.counted);
    this.file = undefined;
    this.counted = 0;
  }

  private startFile(path: Buffer): void {
    if (this.path) this.finish();
    this.path = path;
    const name = normalizeRgPath(path.toString('utf8'));
    this.file = this.collector.wants(name) ? new FileMatchBuilder(name, this.cap, this.contextLines) : undefined;
  }

  private addMatch(lineNumber: number, column: number, textBytes: Buffer): void {
    const text = textBytes.toString('utf8');
    const preview = PREVIEW_SUFFIX.exec(text);
    const byteOffset = Math.max(0, column - 1);
    if (!preview) {
      const clean = text.replace(/\r$/, '');
      this.file!.addMatch(lineNumber, clean, charIndex(clean, textBytes, byteOffset));
      return;
    }
    if (byteOffset < RG_MAX_COLUMNS - 100) {
      const shown = text.slice(0, preview.index);
      this.file!.addMatch(lineNumber, shown, charIndex(shown, textBytes, byteOffset), true);
      return;
    }
    // The match lies past the preview: the caller reads the window around it from the file.
    this.file!.addMatch(lineNumber, text.slice(0, preview.index), 0, true, byteOffset);
  }
}

/** ripgrep reports byte columns; long lines are cut around the match by character index. */
function charIndex(text: string, bytes: Buffer, byteOffset: number): number {
  if (byteOffset === 0 || text.length <= MAX_LINE_CHARS) return 0;
  return bytes.subarray(0, byteOffset).toString('utf8').length;
}

/** `./src/a.ts` → `src/a.ts`; backslashes (Windows) → slashes. */
export function normalizeRgPath(path: string): string {
  const slashed = path.replace(/\\/g, '/');
  return slashed.startsWith('./') ? slashed.slice(2) : slashed;
}
