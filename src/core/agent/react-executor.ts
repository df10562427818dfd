import { getReminder } from '../context/reminders';
import type { ToolSchema } from '../llm/provider';
import { ModelWithoutToolsError, ProviderError } from '../llm/provider-error';
import { noteMessage, type AssistantMessage, type Message, type ToolCall } from '../messages';
import type { ConversationMemory } from '../memory/conversation-memory';
import type { TurnHooks } from '../hooks/agent-hooks';
import type { CompletionSlot, ToolExecutionContext, ToolResult } from '../tools/tool';
import type { DoomLoopDetector } from './doom-loop-detector';
import type { InjectionQueue } from './injection-queue';
import type { InterruptToken } from './interrupt-token';
import { callModel, type CostSink, type TurnServices } from '../llm/model-call';
import { withUniqueIds } from './unique-call-ids';
import type { ResolvedRoleModel, RoleResolver } from '../llm/role-resolver';
import { runThinkingPhase } from './thinking-phase';
import { ThinkingSchedule, type StepOutcome, type ThinkingCadence } from '../config/thinking-cadence';
import type { ThinkingLevel } from '../config/thinking-level';
import { ReminderPolicy } from './reminder-policy';
import type { ToolDispatcher } from './tool-dispatcher';
import type { TurnResult } from './turn-result';
import { userMessage, type TurnInput } from '../turn-input';

/**
 * Phase 0's seam: the staged compactor (context issue) reduces `history` in place by pressure.
 * `lastPromptTokens` is the API-reported size of the previous call (0 before the first).
 */
export type CompactionHook = (history: Message[], lastPromptTokens: number, contextWindow: number | undefined, signal?: AbortSignal) => Promise<void>;

export interface ExecutorSetup {
  roles: RoleResolver;
  dispatcher: ToolDispatcher;
  toolSchemas: () => ToolSchema[];
  systemPrompt: { stable: string; dynamic: string };
  /** Variables for the thinking templates (workspace root…). */
  promptVars: Record<string, string>;
  maxIterations: number;
  thinkingLevel: () => ThinkingLevel;
  /** Which steps make the thinking call (default every step, the paper's loop; createMainAgent passes the setting). */
  thinkingCadence?: () => ThinkingCadence;
  compaction?: CompactionHook;
  cost?: CostSink;
  /** Dual memory for the thinking phase and the playbook (optional). */
  memory?: ConversationMemory;
  /**
   * Applied to every tool result before it joins the history (the tool-result economy: large
   * outputs offloaded to a scratch file with a preview). Default: the result as is.
   */
  shapeResult?: (call: ToolCall, result: ToolResult) => Promise<ToolResult>;
  /** Told when a step (one response's tool calls) has run: undo snapshots the files it changed. */
  afterStep?: (calls: readonly ToolCall[], results: readonly ToolResult[]) => void;
  /** Told when messages have joined the history (turn start, every iteration): sessions save them as they come. */
  onHistory?: (history: readonly Message[]) => void;
}

export interface RunState {
  /** What the user typed of the prompt (it adds what the chat attached and the plan-mode note); default the whole prompt. */
  typed?: string;
  ui: TurnServices['ui'];
  token: InterruptToken;
  injections: InjectionQueue;
  doomLoop: DoomLoopDetector;
  toolContext: ToolExecutionContext;
  /** The plan approved in a resumed conversation: referenced once at the start of this turn. */
  resumedPlanPath?: string;
  /** The user's hooks for this turn: tool-hook context before each call, Stop before the turn ends. */
  hooks?: TurnHooks;
  /** Hook context for the prompt (SessionStart, UserPromptSubmit), right after it. */
  promptContext?: readonly string[];
  /** What the front end attached to the prompt (mention context, images the model reads). */
  input?: TurnInput;
}

/** Per-turn state (the paper's IterationContext); the reminders' flags and budgets live in `policy`. */
interface IterationContext {
  iteration: number;
  policy: ReminderPolicy;
  lastPromptTokens: number;
  services: TurnServices;
  /** Which of this turn's steps think. */
  thinking: ThinkingSchedule;
  /** Follow-ups from the user joined in this step (the next one may think about them). */
  followedUp: boolean;
  /** The system prompt of this turn: the setup's, with the memory's addendum for the query. */
  systemParts: { stable: string; dynamic: string };
}

/**
 * The extended ReAct loop of the paper (algorithm 1), with the reminders injected in the 9-step
 * order of appendix F: 1 staged compaction → 2 interrupt check → 3 thinking (no tools; on the steps
 * the thinking cadence picks) [+ critique at HIGH] → 4 subagent-completion signal → 5 follow-ups
 * typed meanwhile → 6 interrupt check → 7 action call (with the trace) → 8 dispatch (doom-loop
 * check, tools, reminders) → 9 memory.
 * It ends on task_complete, an answer without tool calls, or the iteration cap (with a forced
 * summary); completion waits while todos are open (at most 2 nudges), once for an empty answer,
 * while follow-ups are queued, and while a Stop hook blocks (at most 8 times). Which reminder
 * fires when is ReminderPolicy's business.
 */
export class ReactExecutor {
  /**
   * The prompt size the API reported for this conversation's last action call, kept across turns so
   * the first pressure reading of a turn is calibrated too (0 until the first call, and after the
   * conversation is replaced or compacted between turns).
   */
  private reportedPromptTokens = 0;

  constructor(private readonly setup: ExecutorSetup) {}

  /** The conversation was replaced or rewritten between turns: the last reported size no longer applies. */
  resetCalibration(): void {
    this.reportedPromptTokens = 0;
  }

  async run(history: Message[], userText: string, state: RunState): Promise<TurnResult> {
    const action = this.setup.roles.forRole('action');
    if (!action) throw new Error('no model is configured for the action role');
    // A model known not to call tools would answer without ever acting: refused before anything is sent or kept.
    if (action.capabilities?.toolCalls === false) {
      return { status: 'failed', text: '', usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, iterations: 0, error: new ModelWithoutToolsError(action.model) };
    }
    history.push(userMessage(userText, state.input, state.typed));
    if (state.resumedPlanPath) this.remind(history, [getReminder('plan_file_reference', { PLAN_PATH: state.resumedPlanPath })]);
    this.remind(history, state.promptContext ?? []);
    this.setup.onHistory?.(history);
    const dispatcher = this.setup.dispatcher;
    const isReadOnly = (name: string) => dispatcher.isReadOnly({ id: '', name, arguments: '' });
    const it: IterationContext = {
      iteration: 0,
      policy: new ReminderPolicy({ ctx: state.toolContext, isReadOnly, toolNames: () => this.setup.toolSchemas().map((s) => s.name) }),
      lastPromptTokens: this.reportedPromptTokens,
      services: { ui: state.ui, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, cost: this.setup.cost, signal: state.token.signal },
      thinking: new ThinkingSchedule(this.setup.thinkingCadence?.() ?? 'every-step'),
      followedUp: false,
      systemParts: this.setup.systemPrompt,
    };

    try {
      const addendum = await this.setup.memory?.promptAddendum?.(userText);
      if (addendum) it.systemParts = { ...this.setup.systemPrompt, dynamic: `${this.setup.systemPrompt.dynamic}\n\n${addendum}` };
      while (it.iteration < this.setup.maxIterations) {
        it.iteration++;
        const done = await this.iterate(action, history, state, it);
        this.setup.onHistory?.(history);
        await this.setup.memory?.afterIteration?.(history, it.services);
        if (done) return done;
      }
      return await this.forcedSummary(action, history, it);
    } catch (err) {
      const error = err instanceof ProviderError ? err : new ProviderError('server', (err as Error).message ?? String(err));
      if (error.kind === 'aborted' || state.token.interrupted) return this.end('stopped', '', it);
      return { status: 'failed', text: '', usage: it.services.usage, iterations: it.iteration, error };
    }
  }

  /** One iteration of algorithm 1 in the 9-step order; a result when the turn is over. */
  private async iterate(action: ResolvedRoleModel, history: Message[], state: RunState, it: IterationContext): Promise<TurnResult | undefined> {
    // What the tool hooks of the last step added (post hooks still running are waited for).
    if (state.hooks) this.remind(history, await state.hooks.takeContext(state.token.signal));
    await this.setup.compaction?.(history, it.lastPromptTokens, action.capabilities?.contextWindow, state.token.signal);
    if (state.token.interrupted) return this.end('stopped', '', it);
    const trace = await this.think(history, it);
    this.remind(history, it.policy.subagentSignals());
    it.followedUp = this.drainInjections(history, state) > 0;
    if (state.token.interrupted) return this.end('stopped', '', it);

    const reply = await this.actionCall(action, history, trace, it);
    history.push(reply);
    if (state.token.interrupted) return this.interrupted(history, reply, it);

    if (reply.toolCalls.length > 0) return this.handleToolCalls(history, reply.toolCalls, state, it);
    return this.handleAnswer(history, reply.content, state, it);
  }

  /** The thinking phase when this step is due for it, over the memory's view when there is one, told about open todos. */
  private async think(history: Message[], it: IterationContext): Promise<string | undefined> {
    const level = this.setup.thinkingLevel();
    if (level === 'off' || !it.thinking.thinkNow()) return undefined;
    const view = this.setup.memory?.thinkingView ? await this.setup.memory.thinkingView(history, it.services) : history;
    const note = it.policy.thinkingNote();
    const conversation = note ? [...view, { role: 'user' as const, content: note }] : view;
    return runThinkingPhase(level, this.setup.roles, conversation, this.setup.promptVars, it.services);
  }

  private async actionCall(action: ResolvedRoleModel, history: Message[], trace: string | undefined, it: IterationContext): Promise<AssistantMessage> {
    // The thinking trace guides this one call only; it is not kept in the history.
    const traceNote = trace ? getReminder('thinking_trace', { TRACE: trace }) : undefined;
    const messages = traceNote ? [...history, { role: 'user' as const, content: traceNote }] : history;
    const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    try {
      it.lastPromptTokens = this.reportedPromptTokens = await callModel(
        reply,
        action,
        { messages: withoutSystem(messages), tools: this.setup.toolSchemas(), systemParts: it.systemParts, purpose: 'action' },
        it.services,
        { streamText: true, onThinkingDelta: (d) => it.services.ui.onThinkingDelta?.(d) },
      );
    } catch (err) {
      // Keep what streamed so the conversation reads coherently; unfinished tool calls are dropped.
      if (reply.content) history.push({ ...reply, toolCalls: [] });
      throw err;
    }
    reply.toolCalls = withUniqueIds(reply.toolCalls, history);
    return reply;
  }

  /** Returns a result when the turn is over, undefined to keep iterating. */
  private async handleToolCalls(history: Message[], calls: ToolCall[], state: RunState, it: IterationContext): Promise<TurnResult | undefined> {
    const verdict = state.doomLoop.check(calls);
    if (verdict.kind === 'warn') {
      const warning = getReminder('doom_loop_warning', { TOOL: verdict.toolName, COUNT: String(verdict.count) });
      this.skipCalls(history, calls, getReminder('doom_loop_skipped') ?? 'Not run: repeated call.');
      if (warning) history.push(noteMessage(warning));
      state.ui.onNotice?.(`The agent repeated ${verdict.toolName} with the same arguments ${verdict.count} times; it was warned and the calls were skipped.`, 'warning');
      this.stepDone(it, { usedTools: true, failed: true, steered: true });
      return undefined;
    }
    if (verdict.kind === 'pause') {
      const decision = state.toolContext.ui.requestApproval
        ? await state.toolContext.ui.requestApproval(
            {
              kind: 'doom_loop',
              toolName: verdict.toolName,
              title: `The agent is repeating the same action (${verdict.toolName}, ${verdict.count} times). Allow it once more, or abort?`,
              args: calls.find((c) => c.name === verdict.toolName)?.arguments ?? '',
            },
            state.token.signal,
          )
        : ({ action: 'deny' } as const);
      if (decision.action === 'allow' || decision.action === 'always') {
        state.doomLoop.allowOnce(calls);
      } else {
        state.doomLoop.reset();
        this.skipCalls(history, calls, getReminder('doom_loop_skipped') ?? 'Not run: repeated call.');
        const guidance = getReminder('doom_loop_aborted', { TOOL: verdict.toolName });
        if (guidance) history.push(noteMessage(guidance));
        state.ui.onNotice?.(`Stopped the repeated ${verdict.toolName} calls.`, 'warning');
        if (state.token.interrupted) return this.end('stopped', '', it);
        this.stepDone(it, { usedTools: true, failed: true, steered: true });
        return undefined;
      }
    }

    const completion = state.toolContext.completion;
    completion.result = undefined;
    it.policy.beforeTools();
    const raw = await this.setup.dispatcher.dispatch(calls, state.toolContext);
    this.setup.afterStep?.(calls, raw);
    const shape = this.setup.shapeResult;
    const results = shape ? await Promise.all(calls.map((call, i) => shape(call, raw[i]!))) : raw;
    calls.forEach((call, i) => history.push(toolMessage(call, results[i]!)));
    if (state.token.interrupted) return this.end('stopped', '', it);

    const reminders = it.policy.afterTools(calls, results);
    // task_complete may have filled the slot during dispatch; accepted, it ends the turn as it is.
    const verdictOfTask = (completion as CompletionSlot).result;
    if (verdictOfTask) {
      const deferral = it.policy.onTaskComplete(verdictOfTask.summary);
      const goOn = !deferral && state.injections.size === 0 ? await this.stopHookSaysGoOn(verdictOfTask.summary, state) : undefined;
      if (!deferral && state.injections.size === 0 && !goOn) {
        return { status: 'completed', taskStatus: verdictOfTask.status, text: verdictOfTask.summary, usage: it.services.usage, iterations: it.iteration };
      }
      if (goOn) reminders.push(goOn);
      completion.result = undefined;
      if (deferral) reminders.push(deferral);
    }
    this.remind(history, reminders);
    // Steered: the agent meant to finish and was sent on (open todos, a Stop hook, a follow-up).
    this.stepDone(it, { usedTools: true, failed: results.some((r) => !r.ok), steered: verdictOfTask !== undefined });
    return undefined;
  }

  /** An answer without tool calls ends the turn unless a reminder (failed tool, open todos, empty answer) or a follow-up is due. */
  private async handleAnswer(history: Message[], text: string, state: RunState, it: IterationContext): Promise<TurnResult | undefined> {
    const nudge = it.policy.onAnswer(text);
    if (nudge) {
      this.remind(history, [nudge]);
      this.stepDone(it, { usedTools: false, failed: false, steered: true });
      return undefined;
    }
    if (state.injections.size > 0) {
      this.stepDone(it, { usedTools: false, failed: false, steered: true });
      return undefined;
    }
    const goOn = await this.stopHookSaysGoOn(text, state);
    if (goOn) {
      this.remind(history, [goOn]);
      this.stepDone(it, { usedTools: false, failed: false, steered: true });
      return undefined;
    }
    return { status: 'completed', text, usage: it.services.usage, iterations: it.iteration };
  }

  /** Stop (SubagentStop) hooks may keep the agent going: the message to go on with, or undefined to finish. */
  private async stopHookSaysGoOn(answer: string, state: RunState): Promise<string | undefined> {
    return state.hooks ? state.hooks.beforeStop(answer, state.token.signal) : undefined;
  }

  /** Reminders join the conversation as user messages; missing ones (undefined) are skipped. */
  private remind(history: Message[], reminders: ReadonlyArray<string | undefined>): void {
    for (const content of reminders) if (content) history.push(noteMessage(content));
  }

  /** Follow-ups typed meanwhile join the conversation; returns how many. */
  private drainInjections(history: Message[], state: RunState): number {
    const texts = state.injections.drain();
    for (const text of texts) history.push({ role: 'user', content: getReminder('injected_followup', { MESSAGE: text }) ?? text, origin: { kind: 'followup', text } });
    return texts.length;
  }

  /** A step that did not end the turn: the thinking schedule learns how it went. */
  private stepDone(it: IterationContext, outcome: StepOutcome): void {
    it.thinking.after({ ...outcome, steered: outcome.steered || it.followedUp });
  }

  /** At the cap the model gets one call without tools to tell the user where things stand. */
  private async forcedSummary(action: ResolvedRoleModel, history: Message[], it: IterationContext): Promise<TurnResult> {
    const ask = getReminder('iteration_cap_summary');
    if (ask) history.push(noteMessage(ask));
    const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    await callModel(reply, action, { messages: withoutSystem(history), tools: [], systemParts: it.systemParts, purpose: 'action' }, it.services, { streamText: true });
    history.push({ ...reply, toolCalls: [] });
    return { status: 'iteration_limit', text: reply.content, usage: it.services.usage, iterations: it.iteration };
  }

  /** Interrupted after the model asked for tools: they get a result each, so the history stays valid. */
  private interrupted(history: Message[], reply: AssistantMessage, it: IterationContext): TurnResult {
    this.skipCalls(history, reply.toolCalls, 'Not run: the user stopped the agent.');
    return this.end('stopped', reply.content, it);
  }

  private skipCalls(history: Message[], calls: readonly ToolCall[], why: string): void {
    for (const call of calls) history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: why, isError: true });
  }

  private end(status: 'stopped', text: string, it: IterationContext): TurnResult {
    return { status, text, usage: it.services.usage, iterations: it.iteration };
  }
}

function toolMessage(call: ToolCall, result: ToolResult): Message {
  return { role: 'tool', toolCallId: call.id, name: call.name, content: result.output, isError: !result.ok, summary: result.summary };
}

/** The system prompt travels as `systemParts`; system messages in the history would duplicate it. */
function withoutSystem(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.role !== 'system');
}
