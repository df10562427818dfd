import { createReadStream } from 'node:fs';

/** Lines `start`…`start + count - 1` (0-based) of a text file, and how many lines it has in all. */
export interface LineWindow {
  lines: string[];
  total: number;
  /** A NUL byte in the first `sniffBytes`: the file is not text. */
  binary: boolean;
}

export interface LineWindowOptions {
  start: number;
  count: number;
  /** A line longer than this is cut (its bytes beyond it are never kept): a one-line 200 MB file stays cheap. */
  maxLineChars: number;
  sniffBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Reads a file once, as a stream, keeping only the lines asked for: memory stays bounded by the
 * window however large the file is. Lines end at \n; a \r before it and a BOM at the start are
 * not part of the line; a last empty line (the file ends with a newline) is not counted.
 */
export async function readLineWindow(file: string, options: LineWindowOptions): Promise<LineWindow> {
  const { start, count, maxLineChars, sniffBytes } = options;
  // UTF-8 takes up to 4 bytes a character: enough bytes for the longest line kept, plus the cut's marker.
  const maxLineBytes = maxLineChars * 4 + 4;
  const lines: string[] = [];
  let index = 0; // the line being read
  let parts: Buffer[] = [];
  let kept = 0;
  let pending = false; // bytes after the last newline
  let sniffed = 0;
  let binary = false;

  const endLine = () => {
    if (index >= start && index < start + count) lines.push(decode(Buffer.concat(parts), index === 0, maxLineChars, kept > maxLineBytes));
    index++;
    parts = [];
    kept = 0;
    pending = false;
  };
  const keep = (bytes: Buffer) => {
    if (index < start || index >= start + count) return;
    const room = maxLineBytes + 1 - Math.min(kept, maxLineBytes + 1);
    if (room > 0) parts.push(bytes.subarray(0, room));
    kept += bytes.length;
  };

  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    if (sniffed < sniffBytes) {
      if (chunk.subarray(0, sniffBytes - sniffed).includes(0)) {
        binary = true;
        break;
      }
      sniffed += chunk.length;
    }
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      keep(chunk.subarray(from, nl));
      endLine();
      from = nl + 1;
    }
    if (from < chunk.length) {
      keep(chunk.subarray(from));
      pending = true;
    }
  }
  if (binary) return { lines: [], total: 0, binary };
  // The last line: text after the final newline, or the only (empty) line of an empty file.
  if (pending || index === 0) endLine();
  return { lines, total: index, binary };
}

function decode(bytes: Buffer, first: boolean, maxChars: number, overlong: boolean): string {
  let text = bytes.toString('utf8');
  if (first) text = text.replace(/^\uFEFF/, '');
  if (!overlong) text = text.replace(/\r$/, '');
  return text.length > maxChars || overlong ? `${text.slice(0, maxChars)}… [line cut at ${maxChars} chars]` : text;
}

/**
 * The same window over text already in memory (the editor's buffer, read through the host): the
 * same line rules, so a file reads the same from the editor as from the disk.
 */
export function textLineWindow(text: string, options: LineWindowOptions): LineWindow {
  const { start, count, maxLineChars, sniffBytes } = options;
  if (text.slice(0, sniffBytes).includes('\0')) return { lines: [], total: 0, binary: true };
  const all = text.replace(/^\uFEFF/, '').split('\n');
  if (all.length > 1 && all.at(-1) === '') all.pop();
  const lines = all.slice(start, start + count).map((line) => {
    const bare = line.replace(/\r$/, '');
    return bare.length > maxLineChars ? `${bare.slice(0, maxLineChars)}… [line cut at ${maxLineChars} chars]` : bare;
  });
  return { lines, total: all.length, binary: false };
}
