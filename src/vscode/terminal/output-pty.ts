import * as vscode from 'vscode';

/** Characters of plain text each terminal keeps as its transcript (for tests and the API). */
const TRANSCRIPT_CHARS = 200_000;
/** Output written before VS Code opens the terminal is held up to this size, then the oldest is dropped. */
const PENDING_CHARS = 1_000_000;

export const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/**
 * A pseudo-terminal that is never a shell: the agent's commands and their output, or (with input
 * and resize handlers) the OpenDev agent terminal's front end. Output written before VS Code opens
 * the terminal is held and replayed; bare `\n` becomes `\r\n`; a plain text transcript (bounded)
 * is kept for tests and the extension's API.
 */
export class OutputPty implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  private opened = false;
  private pending: string[] = [];
  private pendingChars = 0;
  private text = '';
  private lastChar = '\n';

  constructor(
    private readonly handlers: {
      /** The user closed the terminal (its tab's trash icon, `exit`…). */
      onUserClose?: () => void;
      /** Keys typed into the terminal. */
      onInput?: (data: string) => void;
      /** The terminal's size, when it opens and whenever it changes. */
      onResize?: (dimensions: vscode.TerminalDimensions) => void;
    } = {},
  ) {}

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    if (initialDimensions) this.handlers.onResize?.(initialDimensions);
    this.opened = true;
    for (const chunk of this.pending) this.writeEmitter.fire(chunk);
    this.pending = [];
    this.pendingChars = 0;
  }

  close(): void {
    this.handlers.onUserClose?.();
  }

  handleInput(data: string): void {
    this.handlers.onInput?.(data);
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.handlers.onResize?.(dimensions);
  }

  /** Closes the terminal from our side (the session behind it ended). */
  exit(): void {
    this.closeEmitter.fire();
  }

  /** Writes raw output (colours kept); lines end in `\r\n` as a terminal needs. */
  write(chunk: string): void {
    if (chunk.length === 0) return;
    const data = chunk.replace(/\r?\n/g, '\r\n');
    this.lastChar = chunk[chunk.length - 1]!;
    this.text += chunk.replace(ANSI, '').replace(/\r\n/g, '\n');
    if (this.text.length > TRANSCRIPT_CHARS * 1.5) this.text = this.text.slice(-TRANSCRIPT_CHARS);
    if (this.opened) {
      this.writeEmitter.fire(data);
      return;
    }
    this.pending.push(data);
    this.pendingChars += data.length;
    while (this.pendingChars > PENDING_CHARS && this.pending.length > 1) this.pendingChars -= this.pending.shift()!.length;
  }

  /** Whether the cursor is at the start of a line (so a status line needs no newline first). */
  get atLineStart(): boolean {
    return this.lastChar === '\n' || this.lastChar === '\r';
  }

  transcript(): string {
    return this.text.length > TRANSCRIPT_CHARS ? this.text.slice(-TRANSCRIPT_CHARS) : this.text;
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}
