import { describeCall, recoveryReminder, recoveryVars } from '../context/error-recovery';
import { getReminder } from '../context/reminders';
import { toolArgumentsObject, type Message, type ToolCall } from '../messages';
import type { Todo } from '../todo';
import { PLAN_APPROVED_SUMMARY } from '../tools/present-plan';
import type { ToolExecutionContext, ToolResult } from '../tools/tool';

/** Paper appendix F: open-todo nudges per run, and reminders per error run. */
export const MAX_TODO_NUDGES = 2;
export const MAX_NUDGE_ATTEMPTS = 3;
/** Rounds of read-only calls in a row that make an exploration spiral. */
export const CONSECUTIVE_READS_LIMIT = 5;

export interface ReminderPolicyEnv {
  ctx: ToolExecutionContext;
  /** The registry's `readOnly` for a tool name. */
  isReadOnly(toolName: string): boolean;
  /** The tools the agent may call now (plan mode and explorers have no writing tool). */
  toolNames(): string[];
}

/** A spawn_subagent result that carries a finished subagent's outcome (not a refused call). */
const SUBAGENT_OUTCOME = /^\[[^\]\n]+ (?:completed|failed|stopped)\]/;

/**
 * When to remind the model of what (paper appendix F): the state of one agent run behind the
 * executor's injection points (one-shot flags, attempt budgets, counters). Each method returns the
 * reminders to inject now, in order; a reminder missing from the templates is left out.
 */
export class ReminderPolicy {
  // One-shot flags: each fires at most once per run.
  private planApprovedSignalInjected = false;
  private allTodosCompleteNudged = false;
  private completionNudgeSent = false;
  private todoNudges = 0;
  /** Reminders spent on the current error run (consecutive failing rounds); a clean round resets it. */
  private errorAttempts = 0;
  /** The last failure of the latest tool round, until the model has been told or moved on. */
  private lastFailure: { call: ToolCall; result: ToolResult } | undefined;
  private consecutiveReads = 0;
  private returnedSubagents: string[] = [];
  private hadOpenTodos = false;

  constructor(private readonly env: ReminderPolicyEnv) {}

  /** Step 3: the todo status the thinking call reasons about, while todos are open. */
  thinkingNote(): string | undefined {
    const { todos, agent } = this.env.ctx;
    if (agent.isSubagent || !todos.hasOpen()) return undefined;
    const list = todos.list();
    return getReminder('thinking_todos', { DONE: String(list.filter((t) => t.status === 'done').length), TOTAL: String(list.length), TODOS: renderTodoLines(list) });
  }

  /** Step 4: subagents that returned in the last round, and background ones that finished since. */
  subagentSignals(): string[] {
    const out: string[] = [];
    // In plan mode the Planner's return is followed by present_plan, which plan_mode already asks for.
    if (this.returnedSubagents.length > 0 && this.env.ctx.mode.mode !== 'plan') {
      add(out, getReminder('subagent_complete', { AGENTS: this.returnedSubagents.map((s) => `- ${s}`).join('\n') }));
    }
    this.returnedSubagents = [];
    const finished = this.env.ctx.subagents?.collectFinished?.() ?? [];
    if (finished.length > 0) {
      const lines = finished.map((o) => `- ${o.agentId} (${o.type}): ${o.status}: ${firstLine(o.summary)}`);
      add(out, getReminder('background_subagent_done', { AGENTS: lines.join('\n') }));
    }
    return out;
  }

  /** Before a tool round: the todo state, so the round that closes the last todo can be told. */
  beforeTools(): void {
    this.hadOpenTodos = this.env.ctx.todos.hasOpen();
  }

  /**
   * Step 8 after a tool round: error recovery (typed, before the next call), then the paper's
   * order: plan approved → all todos complete → tool rejected → consecutive reads.
   */
  afterTools(calls: readonly ToolCall[], results: readonly ToolResult[]): string[] {
    const out: string[] = [];
    this.trackFailures(calls, results, out);
    calls.forEach((call, i) => {
      if (call.name === 'spawn_subagent' && SUBAGENT_OUTCOME.test(results[i]!.output)) this.returnedSubagents.push(results[i]!.summary);
    });

    const approved = calls.findIndex((c, i) => c.name === 'present_plan' && results[i]!.ok && results[i]!.summary.startsWith(PLAN_APPROVED_SUMMARY));
    if (approved >= 0 && !this.planApprovedSignalInjected) {
      const todos = this.env.ctx.todos.list();
      const next = todos.find((t) => t.status !== 'done');
      const planPath = toolArgumentsObject(calls[approved]!.arguments).plan_file_path;
      const signal = getReminder('plan_approved_signal', {
        PLAN_PATH: typeof planPath === 'string' ? planPath : 'the plan',
        TODO_COUNT: String(todos.length),
        NEXT_TODO: next ? `${next.id}. ${next.title}` : '(no todo)',
      });
      if (signal) this.planApprovedSignalInjected = add(out, signal);
    }

    const { todos } = this.env.ctx;
    const finishing = calls.some((c) => c.name === 'task_complete');
    if (!this.allTodosCompleteNudged && !finishing && this.hadOpenTodos && todos.list().length > 0 && !todos.hasOpen()) {
      this.allTodosCompleteNudged = add(out, getReminder('all_todos_complete'));
    }

    const rejected = calls.filter((_, i) => results[i]!.errorKind === 'rejected');
    if (rejected.length > 0) add(out, getReminder('tool_rejected', { CALLS: rejected.map(describeCall).join(', ') }));

    this.consecutiveReads = calls.every((c) => this.env.isReadOnly(c.name)) ? this.consecutiveReads + 1 : 0;
    if (this.consecutiveReads >= CONSECUTIVE_READS_LIMIT && this.canWrite()) {
      add(out, getReminder('consecutive_reads', { COUNT: String(this.consecutiveReads) }));
      this.consecutiveReads = 0;
    }
    return out;
  }

  /** Step 8 for an answer without tool calls: failed tool → open todos → empty answer. */
  onAnswer(text: string): string | undefined {
    if (this.lastFailure && this.errorAttempts < MAX_NUDGE_ATTEMPTS) {
      const { call, result } = this.lastFailure;
      this.lastFailure = undefined;
      const nudge = getReminder('failed_tool_nudge', recoveryVars(call, result));
      if (nudge) {
        this.errorAttempts++;
        return nudge;
      }
    }
    return this.todoNudge() ?? this.emptyNudge(text);
  }

  /** task_complete: refused while todos are open, and once when its summary is empty. */
  onTaskComplete(summary: string): string | undefined {
    return this.todoNudge() ?? this.emptyNudge(summary);
  }

  /** A failing round continues the error run (at most 3 reminders); a clean round ends it. */
  private trackFailures(calls: readonly ToolCall[], results: readonly ToolResult[], out: string[]): void {
    // A rejection is the user's decision, not an error to recover from (tool_rejected covers it).
    const failed = results.map((r, i) => ({ call: calls[i]!, result: r })).filter(({ result }) => !result.ok && result.errorKind !== 'rejected');
    const last = failed[failed.length - 1];
    if (!last) {
      this.errorAttempts = 0;
      this.lastFailure = undefined;
      return;
    }
    this.lastFailure = last;
    if (this.errorAttempts >= MAX_NUDGE_ATTEMPTS) return;
    if (add(out, recoveryReminder(last.call, last.result))) this.errorAttempts++;
  }

  private todoNudge(): string | undefined {
    const { todos, agent } = this.env.ctx;
    if (agent.isSubagent || !todos.hasOpen() || this.todoNudges >= MAX_TODO_NUDGES) return undefined;
    const nudge = getReminder('todos_incomplete', { TODOS: renderTodoLines(todos.list().filter((t) => t.status !== 'done')) });
    if (nudge) this.todoNudges++;
    return nudge;
  }

  private emptyNudge(text: string): string | undefined {
    if (this.completionNudgeSent || /[\p{L}\p{N}]/u.test(text)) return undefined;
    const nudge = getReminder('empty_completion');
    if (nudge) this.completionNudgeSent = true;
    return nudge;
  }

  private canWrite(): boolean {
    return this.env.toolNames().some((name) => !this.env.isReadOnly(name));
  }
}

/**
 * The plan file approved in a conversation (the last one), for the reminder after a session is
 * resumed; undefined when no plan was approved in it.
 */
export function approvedPlanIn(messages: readonly Message[]): string | undefined {
  const calls = new Map<string, ToolCall>();
  let path: string | undefined;
  for (const m of messages) {
    if (m.role === 'assistant') for (const call of m.toolCalls) calls.set(call.id, call);
    if (m.role !== 'tool' || m.name !== 'present_plan' || m.isError || !m.summary?.startsWith(PLAN_APPROVED_SUMMARY)) continue;
    const planPath = toolArgumentsObject(calls.get(m.toolCallId)?.arguments ?? '').plan_file_path;
    if (typeof planPath === 'string') path = planPath;
  }
  return path;
}

function renderTodoLines(todos: readonly Todo[]): string {
  return todos.map((t) => `- [${t.status}] ${t.id}. ${t.title}`).join('\n');
}

function firstLine(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Appends a reminder that exists; true when it did. */
function add(out: string[], reminder: string | undefined): boolean {
  if (reminder) out.push(reminder);
  return reminder !== undefined;
}
