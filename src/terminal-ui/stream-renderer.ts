import { formatTodos } from '../core/commands/format';
import type { Todo } from '../core/todo';
import type { ToolResult } from '../core/tools/tool';
import type { AgentMode, RetryInfo, SubagentInfo, ThinkingPhase, UICallback } from '../core/ui';
import { style, type Style } from './ansi';
import { visibleWidth } from './markdown-ansi';
import { MarkdownLines, markdownAnsi } from './markdown-lines';

export interface StreamRendererOptions {
  color: boolean;
  /** Show reasoning (native thinking deltas and the harness's thinking traces), dimmed. Default true. */
  showThinking?: boolean;
  /**
   * The terminal's width, when known: then, with colour, an unfinished line of the answer shows as
   * it arrives and is drawn over, styled, once complete. Unknown: a line shows once complete.
   */
  columns?: () => number | undefined;
}

/**
 * Renders the agent's events as a text stream: the answer, a dim line per tool call, notices,
 * retries, todos and subagents. Any byte sink works (stdout, stderr, a VS Code pseudoterminal). The
 * blocking requests (menus) are not here: see menus.ts.
 *
 * With colour the answer's markdown is drawn for the terminal line by line as lines complete
 * (markdown-lines.ts: a table once its block ends). Without colour (output that is not a terminal) the answer is
 * the model's markdown as written, as it arrives: no escapes, and plain markdown reads well and is
 * what a script reading the output expects.
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

  constructor(
    private readonly write: (text: string) => void,
    options: StreamRendererOptions | boolean,
  ) {
    const o = typeof options === 'boolean' ? { color: options } : options;
    this.color = o.color;
    this.showThinking = o.showThinking ?? true;
    this.markdown = this.color ? new MarkdownLines() : undefined;
    this.columns = o.columns;
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

  onToolStart(call: { name: string; args: string }): void {
    this.endThinking();
    this.newline();
    this.line(`● ${call.name} ${oneLine(call.args, 100)}`, 'dim');
  }

  onToolEnd(_call: { name: string }, result: ToolResult): void {
    this.newline();
    this.line(`  ${oneLine(result.summary, 200)}`, result.ok ? 'dim' : 'red');
  }

  onNotice(text: string, level: 'info' | 'warning'): void {
    this.endThinking();
    this.newline();
    this.line(level === 'warning' ? `! ${text}` : `· ${text}`, level === 'warning' ? 'yellow' : 'dim');
  }

  onRetry(info: RetryInfo): void {
    this.endThinking();
    this.newline();
    const wait = info.delayMs >= 1000 ? `${(info.delayMs / 1000).toFixed(1)} s` : `${info.delayMs} ms`;
    this.line(`↻ ${info.reason}; retrying in ${wait} (attempt ${info.attempt} of ${info.maxAttempts})`, 'yellow');
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

  /** Writes text as is, keeping track of the cursor column. */
  raw(text: string): void {
    if (!text) return;
    this.write(text);
    this.atLineStart = text.endsWith('\n');
  }

  private endThinking(): void {
    if (!this.inThinking) return;
    this.inThinking = false;
    this.newline();
  }
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
