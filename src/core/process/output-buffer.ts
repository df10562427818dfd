/**
 * Keeps what a command printed within a fixed budget, however much it prints: the first `headChars`
 * and the last `tailChars` characters, plus the totals. Memory stays O(head + tail) for gigabytes
 * of output (the tail is compacted once it doubles).
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private total = 0;
  private newlines = 0;
  private lastChar = '';

  constructor(
    readonly headChars: number,
    readonly tailChars: number,
  ) {}

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) this.newlines++;
    this.lastChar = chunk[chunk.length - 1]!;
    let rest = chunk;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.tail += rest;
    if (this.tail.length > 2 * this.tailChars) this.tail = this.tail.slice(-this.tailChars);
  }

  get totalChars(): number {
    return this.total;
  }

  /** Lines printed (a last line without a newline counts). */
  get lines(): number {
    return this.newlines + (this.total > 0 && this.lastChar !== '\n' ? 1 : 0);
  }

  get truncated(): boolean {
    return this.total > this.head.length + Math.min(this.tail.length, this.tailChars);
  }

  /** The last `tailChars` characters (or everything, when less was printed), without a note. */
  lastChars(): string {
    const tail = this.tail.length > this.tailChars ? this.tail.slice(-this.tailChars) : this.tail;
    return this.tail.length >= this.tailChars ? tail : (this.head + tail).slice(-this.tailChars);
  }

  /** Head and tail, with a note saying how much was left out between them. */
  text(): string {
    const tail = this.tail.length > this.tailChars ? this.tail.slice(-this.tailChars) : this.tail;
    if (!this.truncated) return this.head + tail;
    const omitted = this.total - this.head.length - tail.length;
    return `${this.head}\n\n[… ${omitted.toLocaleString('en-US')} characters omitted: the output had ${this.total.toLocaleString('en-US')} characters in ${this.lines.toLocaleString('en-US')} lines; the first ${this.head.length.toLocaleString('en-US')} and the last ${tail.length.toLocaleString('en-US')} are shown. Filter it (grep, tail, head) or write it to a file to see more …]\n\n${tail}`;
  }
}

/** Keeps the last `maxLines` complete lines (each cut at `maxLineChars`) plus the line in progress. */
export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';
  private count = 0;

  constructor(
    readonly maxLines: number,
    readonly maxLineChars = 2000,
  ) {}

  append(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLineChars * 2) this.partial = this.partial.slice(-this.maxLineChars * 2);
    for (const line of parts) {
      this.count++;
      this.lines.push(line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}… [line cut]` : line);
      if (this.lines.length > this.maxLines) this.lines.shift();
    }
  }

  /** Lines seen so far (the line in progress included). */
  get totalLines(): number {
    return this.count + (this.partial ? 1 : 0);
  }

  last(n: number): string[] {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.slice(-n);
  }
}
