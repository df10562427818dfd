// Hook configuration and outcome types, compatible with the Claude Code hook format
// (see ../shared/peer/hooks/claude_code_hooks_protocol.md).

/** The paper's ten hook events. */
export const PAPER_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'PreCompact',
  'SessionEnd',
  'Notification',
] as const;

/** Every event OpenDev fires: the paper's ten, plus Claude Code's PostToolUseFailure (a failed tool call). */
export const HOOK_EVENTS = [...PAPER_HOOK_EVENTS, 'PostToolUseFailure'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * Events on which exit code 2 (or a JSON `decision: "block"`) blocks, per the protocol table:
 * PreToolUse blocks the call, UserPromptSubmit erases the prompt, Stop / SubagentStop keep the agent
 * going, PreCompact blocks compaction. SessionStart, SessionEnd, Notification and the Post* events
 * cannot block.
 * Divergence: SubagentStart blocks the spawn here (the paper: "exit 2 blocks PreToolUse,
 * UserPromptSubmit, SubagentStart"); in Claude Code it cannot block.
 */
export const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>(['PreToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SubagentStart']);

/** Events whose plain (non-JSON) stdout on exit 0 becomes model context. */
export const PLAIN_STDOUT_CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>(['UserPromptSubmit', 'SessionStart']);

/** Events whose matcher is applied (to the tool name, agent type, trigger, source, reason or notification type). */
export const MATCHER_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  'Notification',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
]);

export interface HookHandler {
  type: 'command' | string;
  command?: string;
  /** Seconds. */
  timeout?: number;
  /** Fire and forget: never awaited, its output is ignored. */
  async?: boolean;
  [key: string]: unknown;
}

export interface HookGroup {
  matcher?: string;
  hooks: HookHandler[];
}

/** Event name → groups. Unknown event names are kept (and ignored when running). */
export type HooksConfig = Partial<Record<string, HookGroup[]>>;

/** The JSON written to a hook's stdin. */
export interface HookInput {
  session_id: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: HookEvent | string;
  permission_mode?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_response?: unknown;
  tool_use_id?: string;
  error?: string;
  prompt?: string;
  stop_hook_active?: boolean;
  last_assistant_message?: string;
  agent_id?: string;
  agent_type?: string;
  trigger?: 'manual' | 'auto';
  custom_instructions?: string;
  source?: string;
  reason?: string;
  message?: string;
  title?: string;
  notification_type?: string;
  [key: string]: unknown;
}

export interface HookCommandResult {
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
  aborted?: boolean;
}

export type PermissionDecision = 'allow' | 'deny' | 'ask' | 'defer';

/** What running every matching hook of one event amounts to. */
export interface HookRunOutcome {
  blocked: boolean;
  blockReason?: string;
  /** PreToolUse: the strongest decision (deny > defer > ask > allow). */
  permissionDecision?: PermissionDecision;
  permissionDecisionReason?: string;
  /** PreToolUse: the replacement tool input (the last hook that gave one wins). */
  updatedInput?: Record<string, unknown>;
  /** Every hook's additionalContext (and plain stdout where the protocol says so), joined by newlines. */
  additionalContext?: string;
  /** `continue: false` from any hook: stop the agent entirely. */
  stop?: { reason: string };
  /** `systemMessage`s for the user. */
  systemMessages: string[];
  /** Hook errors, timeouts, garbage output: reported, never thrown. */
  warnings: string[];
  results: HookCommandResult[];
}
