/**
 * Where a terminal front end reads the user's input from, one line at a time: readline over
 * stdin in the CLI, the pseudoterminal's input in VS Code, a scripted queue in tests.
 */
export interface LineSource {
  /** The next line (without its newline); undefined when the input has ended (Ctrl+D, closed pipe). */
  next(): Promise<string | undefined>;
}

/** A LineSource fed by pushing lines; `end()` closes it. */
export class LineQueue implements LineSource {
  private readonly lines: string[] = [];
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  private ended = false;

  push(...lines: string[]): void {
    for (const line of lines) {
      if (this.ended) return;
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    }
  }

  end(): void {
    this.ended = true;
    for (const waiter of this.waiting.splice(0)) waiter(undefined);
  }

  next(): Promise<string | undefined> {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
