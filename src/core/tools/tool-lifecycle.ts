import type { ToolCall } from '../messages';
import type { ToolExecutionContext, ToolResult } from './tool';

/**
 * The seams around every tool call. `before` may veto a call (approval, PreToolUse hooks, mode
 * gating) or rewrite its arguments; `after` observes results (PostToolUse hooks, snapshots).
 */
export interface ToolLifecycle {
  /** `notes` go before the tool's output, so the model learns what happened to its call (the user edited the command). */
  before?(call: ToolCall, ctx: ToolExecutionContext): Promise<{ proceed: true; call: ToolCall; notes?: string[] } | { proceed: false; result: ToolResult }>;
  after?(call: ToolCall, result: ToolResult, ctx: ToolExecutionContext): Promise<void> | void;
}
