import { ansi, inlineAnsi, tableAnsi } from './markdown-ansi';

/**
 * An answer's markdown drawn for a colour terminal as it streams: text arrives in deltas, and each
 * line is drawn once it is complete (headings, lists, task items, quotes, rules, inline styles; code
 * blocks coloured, line by line). A table needs its whole block to align its columns: a line that may
 * begin one is held until the next shows whether it does, and a table's rows are held until the
 * block ends. `flush()` draws whatever is held (the turn ended, or a tool call cut in).
 */
export class MarkdownLines {
  private partial = '';
  private fence: { marker: string; indent: number } | undefined;
  /** A line with a `|` that may be a table's header, or a table's lines so far. */
  private held: string[] = [];
  private inTable = false;

  /** The unfinished last line, as written. */
  get pending(): string {
    return this.partial;
  }

  /** Whether an unfinished line may show as it arrives: not while table lines are held or it may be one. */
  get pendingShowable(): boolean {
    return this.held.length === 0 && !this.fence && !this.partial.includes('|');
  }

  /** Adds a delta; returns what is ready to print (whole lines, each ending in a newline). */
  push(delta: string): string {
    this.partial += delta;
    const lines = this.partial.split('\n');
    this.partial = lines.pop()!;
    return lines.map((line) => this.line(line)).join('');
  }

  /** Draws everything held, the unfinished last line included, and starts afresh. */
  flush(): string {
    let out = this.partial ? this.line(this.partial) : '';
    this.partial = '';
    out += this.endTable();
    this.fence = undefined;
    return out;
  }

  private line(line: string): string {
    if (this.fence) return this.codeLine(line);
    if (this.inTable) {
      if (isRow(line)) {
        this.held.push(line);
        return '';
      }
      return this.endTable() + this.line(line);
    }
    if (this.held.length > 0) {
      const header = this.held[0]!;
      if (isDelimiter(line, header)) {
        this.held.push(line);
        this.inTable = true;
        return '';
      }
      this.held = [];
      return prose(header) + this.line(line);
    }
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (open) {
      this.fence = { marker: open[2]!, indent: open[1]!.length };
      return `${ansi(open[3] ? `╭─ ${open[3]}` : '╭─', 'dim')}\n`;
    }
    if (isRow(line)) {
      this.held = [line];
      return '';
    }
    return prose(line);
  }

  private codeLine(line: string): string {
    const { marker, indent } = this.fence!;
    const trimmed = line.trim();
    if (trimmed.startsWith(marker) && trimmed === marker[0]!.repeat(trimmed.length)) {
      this.fence = undefined;
      return `${ansi('╰─', 'dim')}\n`;
    }
    const code = line.slice(Math.min(indent, line.length - line.trimStart().length));
    return `${ansi('│', 'dim')} ${ansi(code, 'code')}\n`;
  }

  private endTable(): string {
    const lines = this.held;
    const wasTable = this.inTable;
    this.held = [];
    this.inTable = false;
    if (lines.length === 0) return '';
    const drawn = wasTable ? tableAnsi(lines.join('\n')) : undefined;
    return drawn ?? lines.map(prose).join('');
  }
}

/** A line that could be a table row: it has a `|` outside code. */
function isRow(line: string): boolean {
  return line.trim().length > 0 && line.replace(/`[^`]*`/g, '').includes('|');
}

/** `|---|:-:|`: a delimiter row with as many columns as the header. */
function isDelimiter(line: string, header: string): boolean {
  const cells = splitRow(line);
  return cells.length > 0 && cells.every((c) => /^:?-+:?$/.test(c)) && cells.length === splitRow(header).length;
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** One line of prose: headings, list items (tasks too), quotes and rules by their first characters. */
function prose(line: string): string {
  const heading = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
  if (heading) return `${ansi(inlineAnsi(heading[2]!), 'heading')}\n`;
  if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return `${ansi('─'.repeat(40), 'dim')}\n`;
  const task = /^(\s*)[-*+]\s+\[([ xX])\]\s+(.*)$/.exec(line);
  if (task) return `${task[1]}${task[2] === ' ' ? '☐' : ansi('☑', 'code')} ${inlineAnsi(task[3]!)}\n`;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1]}${ansi(bullet[1]!.length >= 2 ? '◦' : '•', 'dim')} ${inlineAnsi(bullet[2]!)}\n`;
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(line);
  if (numbered) return `${numbered[1]}${ansi(numbered[2]!, 'dim')} ${inlineAnsi(numbered[3]!)}\n`;
  const quote = /^ {0,3}>\s?(.*)$/.exec(line);
  if (quote) return `${ansi('▌', 'dim')} ${ansi(inlineAnsi(quote[1]!), 'italic')}\n`;
  return line.trim() ? `${inlineAnsi(line)}\n` : '\n';
}

/** A whole answer drawn at once (one not streamed, the `-p` answer on a terminal). */
export function markdownAnsi(text: string): string {
  const lines = new MarkdownLines();
  return lines.push(text) + lines.flush();
}
