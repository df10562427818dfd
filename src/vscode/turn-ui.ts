import type { TokenUsage } from '../core/llm/provider';
import type { Todo } from '../core/todo';
import type { ToolResult } from '../core/tools/tool';
import type { AgentMode, ApprovalDecision, ContextInfo, CostSnapshot, FileChange, PlanDecision, RetryInfo, UICallback } from '../core/ui';
import type { PendingRequests } from './pending-requests';
import type { RetryLine } from './retry-line';
import { toolHeadline } from '../wording/tool-headline';
import type { Transcript } from './transcript';

/** What a turn's UICallback reports to besides the transcript (the controller's live state). */
export interface TurnUiHost {
  transcript: Transcript;
  requests: PendingRequests;
  /** The one line for provider retries (with "Retry now"). */
  retry: RetryLine;
  /** False once the chat was reset (New Chat): late events of an old turn are dropped. */
  live(): boolean;
  todos(todos: readonly Todo[]): void;
  cost(cost: CostSnapshot): void;
  usage(usage: TokenUsage): void;
  mode(mode: AgentMode): void;
  context(info: ContextInfo): void;
  /** Keeps a finished edit's before/after for "Show diff"; its id, or undefined when not kept. */
  recordEdit?(change: FileChange): string | undefined;
}

const STALE_APPROVAL: ApprovalDecision = { action: 'deny', feedback: 'the chat was reset' };
const STALE_PLAN: PlanDecision = { action: 'modify', feedback: 'The chat was reset.' };

/**
 * The chat view's implementation of the core's UICallback for one turn: every event becomes a
 * transcript entry (streamed text, thinking cards, tool cards, notices, subagent cards, request
 * cards) or a piece of live state (todos, cost, mode).
 */
export function turnUi(host: TurnUiHost): UICallback {
  const { transcript } = host;
  /** The assistant entry the current model call streams into, and its native reasoning entry. */
  let textId: string | undefined;
  let reasoningId: string | undefined;
  const subagentEntries = new Map<string, string>();
  /** Running tool cards by entry id → tool name; a question or plan card stands in for its tool's card. */
  const runningTools = new Map<string, string>();
  const absorbed = new Set<string>();
  const absorbToolCard = (toolName: string) => {
    const id = [...runningTools].reverse().find(([, name]) => name === toolName)?.[0];
    if (!id) return;
    runningTools.delete(id);
    absorbed.add(id);
    transcript.remove(id);
  };
  /** Text after a tool card, a trace or a finished call starts a new entry below it. */
  const breakStreams = () => {
    textId = undefined;
    reasoningId = undefined;
  };
  const live = <A extends unknown[]>(handler: (...args: A) => void) => (...args: A) => {
    if (host.live()) handler(...args);
  };
  /** When each running tool started: its card says how long it took. */
  const started = new Map<string, number>();
  /** Something came from the model after a retry: that try answered, the retry line goes. */
  const answered = () => host.retry.clear();

  return {
    onTextDelta: live((delta: string) => {
      answered();
      if (!textId) {
        textId = transcript.newId();
        transcript.upsert({ kind: 'assistant', id: textId, text: '' });
      }
      transcript.appendText(textId, delta);
    }),
    onThinkingDelta: live((delta: string) => {
      answered();
      if (!reasoningId) {
        reasoningId = transcript.newId();
        transcript.upsert({ kind: 'thinking', id: reasoningId, phase: 'reasoning', text: '' });
      }
      transcript.appendText(reasoningId, delta);
    }),
    onThinkingTrace: live((trace, phase) => {
      breakStreams();
      transcript.upsert({ kind: 'thinking', id: transcript.newId(), phase, text: trace });
    }),
    onToolStart: live((call) => {
      breakStreams();
      answered();
      runningTools.set(`tool-${call.id}`, call.name);
      started.set(call.id, Date.now());
      const headline = toolHeadline({ name: call.name, args: call.args });
      transcript.upsert({ kind: 'tool', id: `tool-${call.id}`, name: call.name, args: call.args, status: 'running', headline });
    }),
    onToolEnd: live((call, result: ToolResult) => {
      runningTools.delete(`tool-${call.id}`);
      const durationMs = Date.now() - (started.get(call.id) ?? Date.now());
      started.delete(call.id);
      if (absorbed.delete(`tool-${call.id}`)) return; // its card says how it ended
      const entry = transcript.find(`tool-${call.id}`);
      if (entry?.kind !== 'tool') return;
      // An edit's before/after is kept (bounded) so its card can show the diff, auto-approved or not.
      const diffId = result.ok && result.change ? host.recordEdit?.(result.change) : undefined;
      const headline = toolHeadline({ name: entry.name, args: entry.args, ended: { ok: result.ok, summary: result.summary, durationMs } });
      transcript.upsert({ ...entry, status: result.ok ? 'ok' : 'error', headline, summary: result.summary, output: outputForView(result.output), ...(diffId ? { diffId } : {}) });
    }),
    onUsage: live((usage) => {
      answered();
      breakStreams(); // usage closes a model call: the next call's text is a new message
      host.usage(usage);
    }),
    onCost: live((cost) => host.cost(cost)),
    onContext: live((info) => host.context(info)),
    onRetry: live((info: RetryInfo) => {
      // The retried call starts over: what it streamed so far is discarded here too.
      for (const id of [textId, reasoningId]) if (id) transcript.remove(id);
      breakStreams();
      host.retry.show(info); // one line for consecutive retries, not a card each
    }),
    onNotice: live((text, level) => {
      breakStreams();
      transcript.upsert({ kind: 'notice', id: transcript.newId(), text, level });
    }),
    onTodos: live((todos) => host.todos(todos)),
    onModeChange: live((mode) => host.mode(mode)),
    onSubagentStart: live((info) => {
      breakStreams();
      const id = transcript.newId();
      subagentEntries.set(info.agentId, id);
      transcript.upsert({ kind: 'subagent', id, agentId: info.agentId, type: info.type, task: info.task, background: info.background, status: 'running' });
    }),
    onSubagentEnd: live((info) => {
      const id = subagentEntries.get(info.agentId);
      const base = { kind: 'subagent' as const, agentId: info.agentId, type: info.type, task: info.task, background: info.background };
      transcript.upsert({ ...base, id: id ?? transcript.newId(), status: info.status, summary: info.summary });
    }),
    requestApproval: (request, signal) => {
      if (!host.live()) return Promise.resolve(STALE_APPROVAL);
      breakStreams();
      return host.requests.approval(request, signal);
    },
    askUser: (questions, signal) => {
      if (!host.live()) return Promise.resolve(undefined);
      breakStreams();
      absorbToolCard('ask_user');
      return host.requests.questions(questions, signal);
    },
    reviewPlan: (plan, signal) => {
      if (!host.live()) return Promise.resolve(STALE_PLAN);
      breakStreams();
      absorbToolCard('present_plan');
      return host.requests.plan(plan, signal);
    },
  };
}

/** The expanded card shows the whole output up to this size (beyond it, its start and a note). */
const VIEW_OUTPUT_MAX_CHARS = 100_000;

function outputForView(output: string): string {
  if (output.length <= VIEW_OUTPUT_MAX_CHARS) return output;
  return `${output.slice(0, VIEW_OUTPUT_MAX_CHARS)}\n… (${(output.length - VIEW_OUTPUT_MAX_CHARS).toLocaleString('en-US')} more characters not shown)`;
}
