import type { ModeState } from '../tools/tool';
import type { UICallback } from '../ui';
import { hookContextMessage, stopBlockedMessage, type AgentHooks, type PromptVerdict, type TurnHooks } from './agent-hooks';
import {
  hasEvent,
  permissionModeOf,
  runNotification,
  runSessionEnd,
  runSessionStart,
  runStop,
  runSubagentStart,
  runSubagentStop,
  runUserPromptSubmit,
  unwrapHooks,
  type AnyHooksConfig,
  type HookCallOptions,
  type HookSessionOptions,
  type SessionStartSource,
} from './lifecycle';
import { notifyingUI } from './notification-ui';
import { hooksLifecycle, type HooksLifecycle, type HooksLifecycleOptions } from './tool-hooks';
import type { HookEvent, HookRunOutcome } from './types';

export interface SessionHooksOptions extends HookSessionOptions, Pick<HooksLifecycleOptions, 'tools'> {
  /** `systemMessage`s from hooks, for the user. */
  onSystemMessage?(message: string): void;
}

/** Who an AgentHooks set serves: the main agent, or one run of a subagent. */
type Owner = { kind: 'main' } | { kind: 'subagent'; type: string; agentId: string; startContext?: string };

/**
 * The project's and the user's hooks for one session (settings read once, when the session is
 * built). It hands each agent its own AgentHooks (its own post-hook queue, its own Stop count) and
 * runs SubagentStart for the factory.
 */
export class SessionHooks {
  constructor(
    private readonly config: AnyHooksConfig,
    private readonly session: SessionHooksOptions,
  ) {}

  forMainAgent(): AgentHooks {
    return new AgentHookSet(this.config, this.session, { kind: 'main' });
  }

  /** A subagent run's hooks: SubagentStop instead of Stop, `startContext` (from SubagentStart) with its task. */
  forSubagent(type: string, agentId: string, startContext?: string): AgentHooks {
    return new AgentHookSet(this.config, this.session, { kind: 'subagent', type, agentId, ...(startContext ? { startContext } : {}) });
  }

  /** SubagentStart: `refused` (exit 2 / `decision: "block"`) is the reason the spawn is refused; `context` goes to the subagent. */
  async subagentStart(type: string, agentId: string, signal?: AbortSignal): Promise<{ refused?: string; context?: string }> {
    const outcome = await runSubagentStart(this.config, { ...this.session, ...(signal ? { signal } : {}) }, type, agentId);
    this.tell(outcome);
    if (outcome.blocked || outcome.stop) return { refused: outcome.blockReason || outcome.stop?.reason || 'no reason given' };
    return outcome.additionalContext ? { context: outcome.additionalContext } : {};
  }

  private tell(outcome: HookRunOutcome): void {
    for (const m of outcome.systemMessages) this.session.onSystemMessage?.(m);
  }
}

class AgentHookSet implements AgentHooks {
  readonly tools: HooksLifecycle;
  /** Tool-hook context waiting for the next model call, already wrapped. */
  private readonly toolContext: string[] = [];
  /** Context of SessionStart (or SubagentStart) waiting for the first prompt that goes through. */
  private startContext: string[] = [];
  private pendingStart: SessionStartSource | undefined;
  private started = false;
  /** The SessionEnd of a replaced conversation: the next SessionStart waits for it, so hooks see them in order. */
  private ending: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: AnyHooksConfig,
    private readonly session: SessionHooksOptions,
    private readonly owner: Owner,
  ) {
    this.tools = hooksLifecycle(config, {
      ...session,
      onContext: (event, _call, context) => this.toolContext.push(hookContextMessage(event, context)),
    });
    if (owner.kind === 'main') this.pendingStart = 'startup';
    else if (owner.startContext) this.startContext.push(hookContextMessage('SubagentStart', owner.startContext));
  }

  async beforePrompt(prompt: string, ctx: { mode: ModeState; signal: AbortSignal }): Promise<PromptVerdict> {
    const call: HookCallOptions = { ...this.session, signal: ctx.signal, permissionMode: permissionModeOf(ctx.mode) };
    if (this.owner.kind === 'main') {
      if (this.pendingStart) {
        const source = this.pendingStart;
        this.pendingStart = undefined;
        this.started = true;
        await this.ending;
        const start = await runSessionStart(this.config, call, source);
        this.tell(start);
        if (start.additionalContext) this.startContext.push(hookContextMessage('SessionStart', start.additionalContext));
      }
      const submit = await runUserPromptSubmit(this.config, call, prompt);
      this.tell(submit);
      // The prompt is erased; SessionStart's context waits for the next prompt.
      if (submit.blocked || submit.stop) return { blocked: true, reason: submit.blockReason || submit.stop?.reason || 'no reason given' };
      if (submit.additionalContext) this.startContext.push(hookContextMessage('UserPromptSubmit', submit.additionalContext));
    }
    const context = this.startContext.splice(0);
    return { blocked: false, context, turn: this.turn(ctx.mode) };
  }

  notifying(ui: UICallback): UICallback {
    // Subagents' requests reach the user through the main agent's front end, which notifies once.
    if (this.owner.kind !== 'main' || !hasEvent(unwrapHooks(this.config), 'Notification')) return ui;
    return notifyingUI(ui, (n) => void runNotification(this.config, this.session, n).then((o) => this.tell(o)));
  }

  restarted(source: 'resume' | 'clear', after?: Promise<void>): void {
    if (this.owner.kind !== 'main') return;
    if (this.started) void this.sessionEnd(source === 'clear' ? 'clear' : 'other');
    if (after) this.ending = Promise.all([this.ending, after.catch(() => undefined)]).then(() => undefined);
    this.toolContext.length = 0;
    this.startContext = [];
    this.pendingStart = source;
  }

  sessionEnd(reason: string): Promise<void> {
    if (this.owner.kind !== 'main' || !this.started) return Promise.resolve();
    this.started = false;
    // Set before anything is awaited, so ended() and the next SessionStart see it at once.
    this.ending = runSessionEnd(this.config, this.session, reason).then(
      (outcome) => this.tell(outcome),
      () => undefined,
    );
    return this.ending;
  }

  ended(): Promise<void> {
    return this.ending;
  }

  private turn(mode: ModeState): TurnHooks {
    let blocks = 0;
    return {
      takeContext: async (signal) => {
        await this.tools.idle(signal);
        return this.toolContext.splice(0);
      },
      beforeStop: async (answer, signal) => {
        const call: HookCallOptions = { ...this.session, signal, permissionMode: permissionModeOf(mode) };
        const stop = { stopHookActive: blocks > 0, lastAssistantMessage: answer, consecutiveBlocks: blocks };
        const event: HookEvent = this.owner.kind === 'main' ? 'Stop' : 'SubagentStop';
        const outcome =
          this.owner.kind === 'main'
            ? await runStop(this.config, call, stop)
            : await runSubagentStop(this.config, call, this.owner.type, { ...stop, agentId: this.owner.agentId });
        this.tell(outcome);
        // `continue: false` ends the turn whatever else a hook said.
        if (!outcome.blocked || outcome.stop || signal.aborted) return undefined;
        blocks++;
        return stopBlockedMessage(event, outcome.blockReason || 'no reason given');
      },
    };
  }

  private tell(outcome: HookRunOutcome): void {
    for (const m of outcome.systemMessages) this.session.onSystemMessage?.(m);
  }
}
