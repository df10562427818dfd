import type { ToolLifecycle } from '../tools/tool-lifecycle';
import { getReminder } from '../context/reminders';
import type { ModeState } from '../tools/tool';
import type { UICallback } from '../ui';

// The narrow interface through which an Agent and its executor call the hooks (built per agent by
// SessionHooks in session-hooks.ts). The agent core knows these few methods, nothing of the
// protocol: every message it receives is already wrapped for the model.

/** What the hooks say about a prompt before it reaches the model. */
export type PromptVerdict =
  /** Refused (UserPromptSubmit exit 2 / `decision: "block"` / `continue: false`): `reason` is for the user only. */
  | { blocked: true; reason: string }
  /** Go on; `context` joins the conversation right after the prompt (SessionStart, UserPromptSubmit or SubagentStart context). */
  | { blocked: false; context: string[]; turn: TurnHooks };

/** The hooks of one turn, for the executor. */
export interface TurnHooks {
  /**
   * Context the tool hooks produced since the last model call, wrapped for the model. Waits for the
   * post hooks still running (each bounded by its timeout), or until `signal` aborts.
   */
  takeContext(signal: AbortSignal): Promise<string[]>;
  /**
   * The agent is about to finish its turn with `answer`: the message to go on with when a Stop (or
   * SubagentStop) hook blocks, undefined to finish. Bounded by MAX_CONSECUTIVE_STOP_BLOCKS per turn.
   */
  beforeStop(answer: string, signal: AbortSignal): Promise<string | undefined>;
}

export interface AgentHooks {
  /** PreToolUse / PostToolUse around this agent's calls; the factory puts it before the approval step. */
  readonly tools: ToolLifecycle;
  /** Before a turn: SessionStart when the conversation (re)started, then UserPromptSubmit. */
  beforePrompt(prompt: string, ctx: { mode: ModeState; signal: AbortSignal }): Promise<PromptVerdict>;
  /** The turn's front end, firing Notification hooks when it is asked for an approval or an answer. */
  notifying(ui: UICallback): UICallback;
  /**
   * The conversation was replaced: SessionEnd for the old one (if it started), SessionStart with
   * `source` at the next turn, after `after` (the SessionEnd of another agent's session this one
   * follows), so hooks see the old session end before the new one starts.
   */
  restarted(source: 'resume' | 'clear', after?: Promise<void>): void;
  /** SessionEnd (once, if the session started); resolves when its hooks are done, each bounded by a short timeout. */
  sessionEnd(reason: string): Promise<void>;
  /** Settles when the latest SessionEnd has run (at once if none did). */
  ended(): Promise<void>;
}

/** additionalContext as the model reads it: a user-role message naming the event (templates/reminders.md). */
export function hookContextMessage(event: string, context: string): string {
  return getReminder('hook_context', { EVENT: event, CONTEXT: context }) ?? context;
}

/** A Stop / SubagentStop block reason as the message the agent goes on with. */
export function stopBlockedMessage(event: string, reason: string): string {
  return getReminder('hook_stop_blocked', { EVENT: event, REASON: reason }) ?? reason;
}
