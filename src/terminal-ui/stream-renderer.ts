import type { ToolResult } from '../core/tools/tool';
import type { UICallback } from '../core/ui';
import { style } from './ansi';

/**
 * Renders the agent's events as a plain text stream: answer text as it arrives, a dim line per
 * tool call. Any byte sink works (stdout, a VS Code pseudoterminal).
 */
export class StreamRenderer implements UICallback {
  private atLineStart = true;

  constructor(
    private readonly write: (text: string) => void,
    private readonly color: boolean,
  ) {}

  onTextDelta(delta: string): void {
    this.write(delta);
    this.atLineStart = delta.endsWith('\n');
  }

  onToolStart(call: { name: string; args: string }): void {
    this.newline();
    this.write(style(`● ${call.name} ${oneLine(call.args, 80)}\n`, 'dim', this.color));
  }

  onToolEnd(_call: { name: string }, result: ToolResult): void {
    this.write(style(`  ${result.summary}\n`, result.ok ? 'dim' : 'red', this.color));
    this.atLineStart = true;
  }

  /** Ends a partial line so the next output starts cleanly. */
  newline(): void {
    if (!this.atLineStart) this.write('\n');
    this.atLineStart = true;
  }
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
