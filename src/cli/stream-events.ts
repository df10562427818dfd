// The machine-readable output of `opendev -p`: `--output-format json` prints one PrintResult;
// `--output-format stream-json` prints one StreamEvent per line as things happen, the last one
// `{"type":"result", …PrintResult}`.
import type { TurnResult } from '../core/agent/turn-result';
import type { CommandResult } from '../core/commands/slash-commands';
import type { TokenUsage } from '../core/llm/provider';
import type { Todo } from '../core/todo';
import type { AgentMode, ContextInfo, CostSnapshot, ThinkingPhase } from '../core/ui';

export interface PrintResult {
  /** How the turn ended (`completed`, `stopped`, `iteration_limit`, `failed`, `blocked` by a UserPromptSubmit hook); a slash command is `completed` or `failed`. */
  status: TurnResult['status'];
  /** The final answer, or the slash command's output. */
  result: string;
  /** task_complete's verdict, when the agent called it. */
  taskStatus?: 'success' | 'failure';
  usage: TokenUsage;
  /** Null when cost tracking is not available. */
  cost: CostSnapshot | null;
  /** The session the conversation is saved in (null when nothing was saved, e.g. a slash command). */
  sessionId: string | null;
  iterations: number;
  /** Set for a slash command (without the slash). */
  command?: string;
  error?: { kind: string; message: string };
}

export type StreamEvent =
  | { type: 'text'; delta: string }
  /** Native reasoning as it streams (`delta`), or a harness thinking trace (`phase` + `text`). */
  | { type: 'thinking'; delta: string }
  | { type: 'thinking'; phase: ThinkingPhase; text: string }
  /** `args` is the parsed JSON when the model sent valid JSON, else the raw text. */
  | { type: 'tool_call'; id: string; name: string; args: unknown }
  | { type: 'tool_result'; id: string; name: string; ok: boolean; summary: string; errorKind?: string }
  /**
   * How a request for consent was answered without a human; `kind` is `tool`, `doom_loop` or `plan`;
   * `concern`, on a refusal that no --approval level lifts: outside-workspace, protected, caution, hidden or secret.
   */
  | { type: 'approval'; tool: string; kind: string; decision: 'allow' | 'deny'; reason: string; concern?: string }
  | { type: 'notice'; level: 'info' | 'warning'; text: string }
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  | { type: 'todos'; todos: readonly Todo[] }
  | ({ type: 'usage' } & TokenUsage)
  | ({ type: 'cost' } & CostSnapshot)
  /** Context pressure at the start of each iteration, or a compaction stage with what it freed. */
  | ({ type: 'context' } & ContextInfo)
  | { type: 'subagent_start'; agentId: string; subagentType: string; task: string; background: boolean }
  | { type: 'subagent_end'; agentId: string; subagentType: string; task: string; background: boolean; status: string; summary: string }
  | { type: 'mode'; mode: AgentMode }
  | ({ type: 'result' } & PrintResult);

const NO_USAGE: TokenUsage = { promptTokens: 0, cachedTokens: 0, outputTokens: 0 };

export function turnResultJson(result: TurnResult, cost: CostSnapshot | undefined, sessionId: string | undefined): PrintResult {
  return {
    status: result.status,
    result: result.text,
    ...(result.status === 'completed' && result.taskStatus ? { taskStatus: result.taskStatus } : {}),
    usage: result.usage,
    cost: cost ?? null,
    sessionId: sessionId ?? null,
    iterations: result.iterations,
    ...(result.status === 'failed' ? { error: { kind: result.error.kind, message: result.error.message } } : {}),
    ...(result.status === 'blocked' ? { error: { kind: 'hook_blocked', message: result.reason } } : {}),
  };
}

export function commandResultJson(name: string, result: CommandResult, cost: CostSnapshot | undefined, sessionId: string | undefined): PrintResult {
  return {
    status: result.error ? 'failed' : 'completed',
    result: result.output,
    usage: { ...NO_USAGE },
    cost: cost ?? null,
    sessionId: sessionId ?? null,
    iterations: 0,
    command: name,
    ...(result.error ? { error: { kind: result.error, message: result.output } } : {}),
  };
}
