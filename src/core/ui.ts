import type { TokenUsage } from './llm/provider';
import type { ToolResult } from './tools/tool';

/**
 * The contract every front end implements (chat webview, OpenDev terminal, CLI).
 * The core calls these as things happen; a front end renders them.
 */
export interface UICallback {
  onTextDelta(delta: string): void;
  onThinkingDelta?(delta: string): void;
  onToolStart(call: { id: string; name: string; args: string }): void;
  onToolEnd(call: { id: string; name: string }, result: ToolResult): void;
  onUsage?(usage: TokenUsage): void;
}

/** A front end that renders nothing (subagents, tests). */
export const silentUI: UICallback = {
  onTextDelta() {},
  onToolStart() {},
  onToolEnd() {},
};
