import { ANSI } from './output-pty';

/** Characters of the last command's output kept for `@terminal` (its end: where errors are). */
export const LAST_COMMAND_CHARS = 10_000;

/**
 * The last command the agent ran in the shared "OpenDev" terminal, as plain text: `$ command`,
 * its output (the last LAST_COMMAND_CHARS characters) and how it ended, for the `@terminal` mention.
 */
export class LastCommand {
  private command: string | undefined;
  private output = '';
  private status: string | undefined;

  start(command: string): void {
    this.command = command;
    this.output = '';
    this.status = undefined;
  }

  append(chunk: string): void {
    this.output += chunk.replace(ANSI, '').replace(/\r\n/g, '\n');
    if (this.output.length > LAST_COMMAND_CHARS * 2) this.output = this.output.slice(-LAST_COMMAND_CHARS);
  }

  end(status: string): void {
    this.status = status.replace(ANSI, '');
  }

  /** Undefined before the first command. */
  text(): string | undefined {
    if (this.command === undefined) return undefined;
    const cut = this.output.length > LAST_COMMAND_CHARS;
    const output = cut ? `… [${(this.output.length - LAST_COMMAND_CHARS).toLocaleString('en-US')} earlier characters left out]\n${this.output.slice(-LAST_COMMAND_CHARS)}` : this.output;
    return [`$ ${this.command}`, output.trimEnd() || '(no output)', this.status ?? '(still running)'].join('\n');
  }
}
