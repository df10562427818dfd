/**
 * What the model reads of a command's output: no ANSI colours or cursor movements, `\r\n` as `\n`,
 * and a progress line rewritten with `\r` reduced to its last state. The terminal view gets the raw
 * bytes; only the model's copy is cleaned.
 */
// CSI (colours, cursor), OSC (titles, hyperlinks), and two-byte escapes.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b[()][0-9A-Za-z]/g;
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

export class TerminalTextCleaner {
  private carry = '';

  /** Cleans a chunk; an escape sequence or `\r\n` cut at the chunk's end is completed by the next chunk. */
  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = '';
    const cut = incompleteTail(text);
    if (cut > 0) {
      this.carry = text.slice(text.length - cut);
      text = text.slice(0, text.length - cut);
    }
    return text.replace(ESCAPES, '').replace(/\r+\n/g, '\n').replace(CONTROLS, '');
  }

  flush(): string {
    const rest = this.carry.replace(ESCAPES, '').replace(/\x1b.*$/s, '').replace(CONTROLS, '');
    this.carry = '';
    return rest;
  }
}

const ESCAPE_AT_START = new RegExp(`^(?:${ESCAPES.source})`);

/** Length of an unfinished escape sequence or a lone `\r` at the end of the text (0 if none). */
function incompleteTail(text: string): number {
  const esc = text.lastIndexOf('\x1b');
  if (esc !== -1 && text.length - esc < 256 && !ESCAPE_AT_START.test(text.slice(esc))) return text.length - esc;
  return text.endsWith('\r') ? 1 : 0;
}

/** Each line keeps only what was written after its last `\r` (progress bars, spinners). */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.replace(/\r+$/, '');
      const at = trimmed.lastIndexOf('\r');
      return at === -1 ? trimmed : trimmed.slice(at + 1);
    })
    .join('\n');
}

export function cleanTerminalText(text: string): string {
  const cleaner = new TerminalTextCleaner();
  return collapseCarriageReturns(cleaner.push(text) + cleaner.flush());
}
