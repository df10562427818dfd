import { formatTodos } from '../core/commands/format';
import type { Todo } from '../core/todo';
import type { ToolResult } from '../core/tools/tool';
import type { AgentMode, RetryInfo, SubagentInfo, ThinkingPhase, UICallback } from '../core/ui';
import { style, type Style } from './ansi';

export interface StreamRendererOptions {
  color: boolean;
  /** Show reasoning (native thinking deltas and the harness's thinking traces), dimmed. Default true. */
  showThinking?: boolean;
}

/**
 * Renders the agent's events as a plain text stream: answer text as it arrives, a dim line per
 * tool call, notices, retries, todos and subagents. Any byte sink works (stdout, stderr, a VS Code
 * pseudoterminal). The blocking requests (menus) are not here: see menus.ts.
 */
export class StreamRenderer implements UICallback {
  private atLineStart = true;
  private inThinking = false;
  private turnText = '';
  private readonly color: boolean;
  private readonly showThinking: boolean;

  constructor(
    private readonly write: (text: string) => void,
    options: StreamRendererOptions | boolean,
  ) {
    const o = typeof options === 'boolean' ? { color: options } : options;
    this.color = o.color;
    this.showThinking = o.showThinking ?? true;
  }

  /** Starts a new turn: forgets the text streamed so far. */
  startTurn(): void {
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
    this.raw(delta);
  }

  onThinkingDelta(delta: string): void {
    if (!this.showThinking || !delta) return;
    if (!this.inThinking) {
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
    if (!this.atLineStart) this.raw('\n');
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
