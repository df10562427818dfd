import type { z } from 'zod';
import type { AgentMode, UICallback } from '../ui';
import type { ToolResult } from '../tool-result';
import type { Message, ToolCall } from '../messages';
import type { TodoList } from '../todo';
import type { SubagentLauncher } from '../subagents/launcher';
import type { HostPorts } from '../host';
import type { ProcessManager } from '../process/process-manager';
import type { FileTimeTracker } from './file-time-tracker';
import type { VisionPort } from '../images/vision-port';
import type { ApprovalSubject } from './approval-subject';
import type { ChangeHunk } from '../change-hunk';

export { summaryLine, ToolError, toolFailure, type FileChange, type ToolErrorKind, type ToolResult } from '../tool-result';

export type ToolCategory = 'file' | 'search' | 'process' | 'web' | 'symbol' | 'todo' | 'user' | 'agent' | 'meta';

/** Who is running a tool: the main agent or a subagent (todo tools never reach subagents). */
export interface AgentIdentity {
  name: string;
  isSubagent: boolean;
  /** The tools this agent may call (its schema); undefined = all. Checked again at dispatch (batch_tool). */
  allowedTools?: ReadonlySet<string>;
  /**
   * The Planner: it changes nothing but its plan file (a markdown file directly in `.opendev/plans/`),
   * and spawns no type that can write, in any mode.
   */
  planFilesOnly?: boolean;
}

/** Plan mode and the approvals a plan grants (approve_auto lets the plan's edits run unasked). */
export interface ModeState {
  mode: AgentMode;
  autoApproveEdits: boolean;
}

/** Where task_complete leaves its verdict for the executor. */
export interface CompletionSlot {
  result?: { summary: string; status: 'success' | 'failure' };
}

/** Cross-cutting services a tool may use. Grows with later features (approval, undo, session…). */
export interface ToolExecutionContext {
  workspaceRoot: string;
  signal: AbortSignal;
  ui: UICallback;
  agent: AgentIdentity;
  todos: TodoList;
  mode: ModeState;
  completion: CompletionSlot;
  /** Absent for agents that may not spawn subagents. */
  subagents?: SubagentLauncher;
  /** The host's ports (ripgrep path, terminal view); absent in plain unit tests. */
  host?: HostPorts;
  /** The session's read times and per-file edit locks; absent: one tracker shared by the process. */
  files?: FileTimeTracker;
  /** The session's processes (run_command, background tasks); absent: one manager shared by the process. */
  processes?: ProcessManager;
  /** Folders outside the workspace that read_file may read: the scratch folder of offloaded tool outputs. */
  readableDirs?: readonly string[];
  /** The user's hunk-by-hunk verdict on this call's proposed edit: the tool applies exactly the accepted hunks. */
  review?: EditReview;
  /** The calling agent's conversation as it stands (invoke_skill checks a skill's body is still in it). */
  history?: readonly Message[];
  /** The vision role, for analyze_image; absent where no agent built one (plain unit tests). */
  vision?: VisionPort;
}

/**
 * A proposed edit the user reviewed hunk by hunk: `before`/`after` and the hunks as shown to them
 * (`ProposedEdit`), and the hunks they accepted. Set by the approval gate.
 */
export interface EditReview {
  before: string;
  after: string;
  hunks: readonly ChangeHunk[];
  acceptedHunks: readonly number[];
}

/** A call on its way from the lifecycle seams to the registry, with the user's verdict on its edit when they gave one per hunk. */
export type ReviewedToolCall = ToolCall & { review?: EditReview };

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  category: ToolCategory;
  readOnly: boolean;
  /** A built-in tool's is `z.lazy(…)`: built on its first call, since the model's JSON schema comes from the build (builtin-parameters.ts). */
  schema: S;
  /** The model's description; default `templates/tools/<name>.md` (tools from elsewhere, such as MCP servers, bring their own). */
  description?: string;
  /** The JSON schema the model sees; default derived from `schema` (MCP tools send their server's schema as is). */
  parameters?: Record<string, unknown>;
  /**
   * Left out of the schemas until discovered (MCP tools: search_tools or a direct call discovers
   * them), so a session pays nothing up front for tools it never uses.
   */
  deferred?: boolean;
  /**
   * The approval step asks even though `readOnly` is set: the claim is someone else's (an MCP
   * server's readOnlyHint), good enough for plan mode and parallel runs but not for skipping consent.
   */
  askEvenIfReadOnly?: boolean;
  /**
   * What a person is asked about before a call runs, prepared once (a proposed edit's diff):
   * the approval gate judges it and every front end shows it. Default: the call itself (`kind: 'call'`).
   */
  approval?(args: z.infer<S>, ctx: ToolExecutionContext): ApprovalSubject | Promise<ApprovalSubject>;
  run(args: z.infer<S>, ctx: ToolExecutionContext): Promise<ToolResult>;
}
