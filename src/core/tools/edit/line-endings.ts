/**
 * A file's text as the edit passes see it (LF, no BOM) and what is needed to write it back in
 * the file's own style: the BOM, the dominant line ending, and where each CRLF was, so bytes
 * outside the edited ranges stay exactly as they were, even in a file with mixed endings.
 */
export interface DecodedText {
  bom: boolean;
  /** The text after the BOM, line endings untouched. */
  raw: string;
  /** `raw` with every CRLF as LF. */
  text: string;
  /** The line ending new lines get: the file's majority. */
  eol: '\n' | '\r\n';
  /** Offsets in `text` of the newlines that are CRLF in `raw`, ascending. */
  crlfAt: number[];
}

const BOM = '\uFEFF';

export function decodeText(content: string): DecodedText {
  const bom = content.startsWith(BOM);
  const raw = bom ? content.slice(1) : content;
  const crlfAt: number[] = [];
  let lf = 0;
  let removed = 0;
  for (let i = raw.indexOf('\n'); i !== -1; i = raw.indexOf('\n', i + 1)) {
    if (i > 0 && raw.charCodeAt(i - 1) === 13) {
      crlfAt.push(i - 1 - removed);
      removed++;
    } else lf++;
  }
  const text = crlfAt.length ? raw.replace(/\r\n/g, '\n') : raw;
  return { bom, raw, text, eol: crlfAt.length > lf ? '\r\n' : '\n', crlfAt };
}

/** old_content / new_content as the passes compare them: LF endings, no BOM. */
export function normalizeArgument(s: string): string {
  return s.replace(/\uFEFF/g, '').replace(/\r\n/g, '\n');
}

/** Where a `text` offset falls in `raw`. */
export function rawOffset(decoded: DecodedText, offset: number): number {
  let lo = 0;
  let hi = decoded.crlfAt.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (decoded.crlfAt[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return offset + lo;
}

export interface TextReplacement {
  /** Range in the LF text. */
  start: number;
  end: number;
  /** What goes there, with LF line endings. */
  replacement: string;
}

/**
 * The file's new content: each range replaced in `raw` (non-overlapping, any order), the
 * inserted text given the file's line ending, the BOM kept.
 */
export function encodeReplacements(decoded: DecodedText, replacements: readonly TextReplacement[]): string {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  let out = decoded.bom ? BOM : '';
  let at = 0;
  for (const r of sorted) {
    const start = rawOffset(decoded, r.start);
    out += decoded.raw.slice(at, start) + (decoded.eol === '\n' ? r.replacement : r.replacement.replace(/\n/g, '\r\n'));
    at = rawOffset(decoded, r.end);
  }
  return out + decoded.raw.slice(at);
}
