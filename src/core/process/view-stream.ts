import type { CommandView } from '../host';
import { HeadTailBuffer } from './output-buffer';

export interface ViewStreamOptions {
  /** Output is passed on in batches, at most this often (the paper's 100 ms polling). */
  flushMs?: number;
  /** After this many characters the view gets only a note and, at the end, the last `tailChars`. Infinity: no limit. */
  maxChars?: number;
  tailChars?: number;
}

/**
 * Feeds a terminal view without flooding it: chunks are batched every 100 ms, and a command that
 * prints megabytes shows its first `maxChars` characters, a note, and its last lines at the end.
 * The model's copy of the output is separate (HeadTailBuffer in the runner).
 */
export class ViewStream implements CommandView {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private shown = 0;
  private overflow: HeadTailBuffer | undefined;
  private readonly flushMs: number;
  private readonly maxChars: number;
  private readonly tailChars: number;

  constructor(
    private readonly view: CommandView,
    options: ViewStreamOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 100;
    this.maxChars = options.maxChars ?? Infinity;
    this.tailChars = options.tailChars ?? 20_000;
  }

  write(chunk: string): void {
    if (this.overflow) {
      this.overflow.append(chunk);
      return;
    }
    const room = this.maxChars - this.shown;
    if (chunk.length > room) {
      this.pending += chunk.slice(0, room);
      this.shown = this.maxChars;
      this.overflow = new HeadTailBuffer(0, this.tailChars);
      this.overflow.append(chunk.slice(room));
      this.flush();
      this.view.write(`\n[… the terminal shows the first ${this.maxChars.toLocaleString('en-US')} characters of this output; the end follows when the command finishes …]\n`);
      return;
    }
    this.shown += chunk.length;
    this.pending += chunk;
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  end(outcome: Parameters<CommandView['end']>[0]): void {
    this.flush();
    if (this.overflow && this.overflow.totalChars > 0) {
      const tail = this.overflow.lastChars();
      const hidden = this.overflow.totalChars - tail.length;
      if (hidden > 0) this.view.write(`\n[… ${hidden.toLocaleString('en-US')} characters not shown …]\n`);
      this.view.write(tail);
    }
    this.view.end(outcome);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending) {
      const data = this.pending;
      this.pending = '';
      this.view.write(data);
    }
  }
}
