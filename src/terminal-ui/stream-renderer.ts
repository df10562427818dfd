import { formatTodos } from '../core/commands/format';
import { oneLine } from '../core/process/task-format';
import { retryWords } from '../wording/retry-words';
import { toolHeadline } from '../wording/tool-headline';
import type { Todo } from '../core/todo';
import type { ToolResult } from '../core/tools/tool';
import type { AgentMode, RetryInfo, SubagentInfo, ThinkingPhase, UICallback } from '../core/ui';
import { style, type Style } from './ansi';
import { visibleWidth } from './markdown-ansi';
import { MarkdownLines, markdownAnsi } from './markdown-lines';
import { RetryCountdown, type Ticker } from './retry-countdown';

export interface StreamRendererOptions {
  color: boolean;
  /** Show reasoning (native thinking deltas and the harness's thinking traces), dimmed. Default true. */
  showThinking?: boolean;
  /**
   * The terminal's width, when known: then, with colour, an unfinished line of the answer shows as
   * it arrives and is drawn over, styled, once complete. Unknown: a line shows once complete.
   */
  columns?: () => number | undefined;
  /** The clock for tool durations and the retry countdown (tests give their own). */
  now?: () => number;
  /** Calls `tick` every `ms` until the returned stop is called (tests tick by hand). */
  every?: Ticker;
}

/**
 * Renders the agent's events as a text stream: the answer, a line per tool call in the chat's
 * words ("Read math.ts · 12 lines", src/wording), notices, retries, todos and subagents. Any byte sink works (stdout, stderr, a VS Code pseudoterminal). The
 * blocking requests (menus) are not here: see menus.ts.
 *
 * With colour the answer's markdown is drawn for the terminal line by line as lines complete
 * (markdown-lines.ts: a table once its block ends). Without colour (output that is not a terminal) the answer is
 * the model's markdown as written, as it arrives: no escapes, and plain markdown reads well and is
 * what a script reading the output expects.
 *
 * On a terminal (the width is known) a tool's line says what it is doing when it starts and is
 * drawn over with what it did when it ends, if nothing was printed below it meanwhile (else the
 * result gets its own line); consecutive provider retries are one line whose countdown is drawn
 * over each second. In a pipe a call prints one line when it ends, and a run of retries one line.
 */
export class StreamRenderer implements UICallback {
  private atLineStart = true;
  private inThinking = false;
  private turnText = '';
  private readonly color: boolean;
  private readonly showThinking: boolean;
  /** The answer's markdown not yet drawn (colour only). */
  private readonly markdown: MarkdownLines | undefined;
  /** The unfinished answer line shown as written, to be drawn over once it is complete. */
  private shownPartial = '';
  private readonly columns: (() => number | undefined) | undefined;
  private readonly now: () => number;
  /** The calls under way: their arguments and when they started. */
  private readonly calls = new Map<string, { args: string; started: number }>();
  /** The last line on screen, while a later event may draw over it: its key and how many rows it took. */
  private rewritable: { key: string; rows: number } | undefined;
  private readonly retry: RetryCountdown;
  /** The retry line itself is being drawn (not "something else printed"). */
  private drawingRetry = false;

  constructor(
    private readonly write: (text: string) => void,
    options: StreamRendererOptions | boolean,
  ) {
    const o = typeof options === 'boolean' ? { color: options } : options;
    this.color = o.color;
    this.showThinking = o.showThinking ?? true;
    this.markdown = this.color ? new MarkdownLines() : undefined;
    this.columns = o.columns;
    this.now = o.now ?? Date.now;
    this.retry = new RetryCountdown(this.now, o.every, (info, secondsLeft) => this.drawRetry(info, secondsLeft));
  }

  /** A terminal, where a line can be drawn over (the width is known); a pipe otherwise. */
  private get tty(): boolean {
    return Boolean(this.columns?.());
  }

  /** Starts a new turn: forgets the text streamed so far. */
  startTurn(): void {
    this.flushText();
    this.turnText = '';
    this.inThinking = false;
  }

  /** The answer text streamed since startTurn() (to tell whether the final answer was already shown). */
  get streamedText(): string {
    return this.turnText;
  }

  onTextDelta(delta: string): void {
    if (!delta) return;
    this.endThinking();
    this.turnText += delta;
    if (!this.markdown) return this.raw(delta);
    const lines = this.markdown.push(delta);
    if (lines) {
      this.erasePartial();
      this.raw(lines);
    }
    this.showPartial();
  }

  /** A whole answer that did not stream, on a fresh line: drawn as markdown with colour, else as written. */
  answer(text: string): void {
    this.newline();
    this.raw(this.color ? markdownAnsi(text) : `${text}\n`);
  }

  onThinkingDelta(delta: string): void {
    if (!this.showThinking || !delta) return;
    if (!this.inThinking) {
      this.flushText();
      this.newline();
      this.inThinking = true;
    }
    this.raw(style(delta, 'dim', this.color));
  }

  onThinkingTrace(trace: string, phase: ThinkingPhase): void {
    if (!this.showThinking) return;
    this.endThinking();
    this.newline();
    this.line(`${phase === 'thinking' ? '✻ thinking' : phase === 'critique' ? '✻ critique' : '✻ refined'}\n${indent(trace.trim())}`, 'dim');
  }

  onToolStart(call: { id: string; name: string; args: string }): void {
    this.endThinking();
    this.calls.set(call.id, { args: call.args, started: this.now() });
    this.newline(); // the answer so far (a held table) is drawn before the call
    if (!this.tty) return; // a pipe gets the result's line only
    this.rewritableLine(`tool:${call.id}`, `● ${toolHeadline({ name: call.name, args: call.args })}`, 'dim');
  }

  onToolEnd(call: { id: string; name: string }, result: ToolResult): void {
    const started = this.calls.get(call.id);
    this.calls.delete(call.id);
    const headline = toolHeadline({
      name: call.name,
      args: started?.args ?? '{}',
      ended: { ok: result.ok, summary: result.summary, ...(started ? { durationMs: this.now() - started.started } : {}) },
    });
    const text = `${result.ok ? '●' : '✗'} ${headline}`;
    const kind = result.ok ? 'dim' : 'red';
    if (!this.drawOver(`tool:${call.id}`, text, kind)) this.line(text, kind);
  }

  onNotice(text: string, level: 'info' | 'warning'): void {
    this.endThinking();
    this.newline();
    this.line(level === 'warning' ? `! ${text}` : `· ${text}`, level === 'warning' ? 'yellow' : 'dim');
  }

  /** Consecutive retries are one line: drawn over with each attempt and each second on a terminal, printed once in a pipe. */
  onRetry(info: RetryInfo): void {
    this.endThinking();
    if (!this.tty && !this.retry.active) this.line(`↻ ${retryWords(info, Math.ceil(info.delayMs / 1000))}`, 'yellow');
    this.retry.start(info, this.tty);
  }

  onTodos(todos: readonly Todo[]): void {
    this.endThinking();
    this.newline();
    this.line(formatTodos(todos), 'dim');
  }

  onSubagentStart(info: SubagentInfo): void {
    this.newline();
    this.line(`◆ ${info.type}${info.background ? ' (background)' : ''}: ${oneLine(info.task, 100)}`, 'magenta');
  }

  onSubagentEnd(info: SubagentInfo & { status: 'completed' | 'failed' | 'stopped'; summary: string }): void {
    this.newline();
    this.line(`◆ ${info.type} ${info.status}: ${oneLine(info.summary, 160)}`, info.status === 'completed' ? 'magenta' : 'red');
  }

  onModeChange(mode: AgentMode): void {
    this.newline();
    this.line(`mode: ${mode}`, 'dim');
  }

  /** Writes a whole line (or block) in a style, on a fresh line. */
  line(text: string, kind?: Style): void {
    this.newline();
    this.raw(`${kind ? style(text, kind, this.color) : text}\n`);
  }

  /** Ends a partial line so the next output starts cleanly. */
  newline(): void {
    this.flushText();
    if (!this.atLineStart) this.raw('\n');
  }

  /** Draws the answer's markdown held so far (an unfinished line, a table): something else is about to print. */
  private flushText(): void {
    if (!this.markdown) return;
    this.erasePartial();
    this.raw(this.markdown.flush());
  }

  /** Shows the rest of the unfinished line as written, while it can (the width is known, no table). */
  private showPartial(): void {
    const pending = this.markdown!.pending;
    if (!this.columns?.() || !this.markdown!.pendingShowable || !pending.startsWith(this.shownPartial)) return;
    this.raw(pending.slice(this.shownPartial.length));
    this.shownPartial = pending;
  }

  /** Takes the unfinished line shown as written off the screen (back to its first row), to draw it styled. */
  private erasePartial(): void {
    if (!this.shownPartial) return;
    const columns = this.columns?.() || 80;
    const rows = Math.max(1, Math.ceil(visibleWidth(this.shownPartial) / columns));
    this.shownPartial = '';
    this.write(`\r${rows > 1 ? `\x1b[${rows - 1}A` : ''}\x1b[J`);
    this.atLineStart = true;
  }

  /** Writes text as is, keeping track of the cursor column. Anything else printed ends a run of retries. */
  raw(text: string): void {
    if (!text) return;
    if (this.retry.active && !this.drawingRetry) this.endRetry();
    this.write(text);
    this.atLineStart = text.endsWith('\n');
    this.rewritable = undefined;
  }

  /** A whole line a later event may draw over (a terminal only). */
  private rewritableLine(key: string, text: string, kind: Style): void {
    this.line(text, kind);
    this.rewritable = { key, rows: this.rowsOf(text) };
  }

  /** Draws `text` over the line `key` when it is still the last one on screen; false when it cannot. */
  private drawOver(key: string, text: string, kind: Style): boolean {
    if (!this.tty || this.rewritable?.key !== key) return false;
    this.eraseRewritable();
    this.rewritableLine(key, text, kind);
    return true;
  }

  /** Takes the rewritable line off the screen (the cursor is at the start of the row below it). */
  private eraseRewritable(): void {
    const rows = this.rewritable?.rows ?? 0;
    this.rewritable = undefined;
    if (rows > 0) this.write(`\x1b[${rows}A\r\x1b[J`);
    this.atLineStart = true;
  }

  private rowsOf(text: string): number {
    const columns = this.columns?.() || 80;
    return text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(visibleWidth(line) / columns)), 0);
  }

  /** The retry line as it reads now (a terminal): drawn over while it is the last line, else anew. */
  private drawRetry(info: RetryInfo, secondsLeft: number): void {
    const text = `↻ ${retryWords(info, secondsLeft)}`;
    this.drawingRetry = true;
    try {
      if (this.drawOver('retry', text, 'yellow')) return;
      this.newline();
      this.rewritableLine('retry', text, 'yellow');
    } finally {
      this.drawingRetry = false;
    }
  }

  /** Something else is printed: the retries are over (a try answered), and their line goes, as in the chat. */
  private endRetry(): void {
    this.retry.stop();
    if (this.rewritable?.key === 'retry') this.eraseRewritable();
  }

  private endThinking(): void {
    if (!this.inThinking) return;
    this.inThinking = false;
    this.newline();
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
