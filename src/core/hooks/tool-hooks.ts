import type { ToolLifecycle } from '../tools/tool-lifecycle';
import type { ToolCall } from '../messages';
import { approvalSubject, rawArguments } from '../tools/call-arguments';
import { subjectQuestion } from '../tools/approval-subject';
import { toolFailure, type Tool, type ToolExecutionContext, type ToolResult } from '../tools/tool';
import { hasEvent, permissionModeOf, unwrapHooks, type AnyHooksConfig, type HookSessionOptions } from './lifecycle';
import { toolMatchNames } from './matcher';
import { runHooks, type RunHooksOptions } from './runner';
import type { HookEvent, HookInput, HookRunOutcome } from './types';

export interface HooksLifecycleOptions extends HookSessionOptions {
  /** additionalContext from PreToolUse / PostToolUse / PostToolUseFailure hooks, for the model's next call. */
  onContext?(event: HookEvent, call: ToolCall, context: string): void;
  /** A hook answered `continue: false`: the agent should stop (the call itself is refused). */
  onStop?(reason: string): void;
  /** systemMessage values for the user. */
  onSystemMessage?(message: string): void;
  /** The session's tools: a question a hook asks for shows what the tool says the call is about (its command, its diff). */
  tools?(name: string): Tool | undefined;
}

/** A `ToolLifecycle` plus `idle()`, which resolves when every post hook started so far has finished. */
export interface HooksLifecycle extends ToolLifecycle {
  /** Resolves when the post hooks started so far have finished, or at once when `signal` aborts. */
  idle(signal?: AbortSignal): Promise<void>;
}

/**
 * PreToolUse / PostToolUse / PostToolUseFailure hooks around every tool call.
 * `before`: deny, `decision: "block"` or exit 2 refuses the call (`toolFailure('permission', reason)`);
 * `ask` / `defer` ask the user (refused when no one can answer); `updatedInput` replaces the whole
 * argument object; allow (or nothing) proceeds. `after`: the post hooks start and are NOT awaited
 * (the next call of the batch runs meanwhile); their failures become warnings. A hook that times
 * out or fails never blocks.
 */
export function hooksLifecycle(config: AnyHooksConfig, opts: HooksLifecycleOptions): HooksLifecycle {
  const hooks = unwrapHooks(config);
  const pending = new Set<Promise<void>>();
  const refused = new Set<string>();
  const rewritten = new Map<string, ToolCall>();
  const warn = (m: string) => {
    try {
      opts.onWarning?.(m);
    } catch {
      /* a broken sink must not break the agent */
    }
  };
  const base = (event: HookEvent, ctx: ToolExecutionContext): HookInput => {
    const input: HookInput = { session_id: opts.sessionId, cwd: opts.workspaceRoot, hook_event_name: event, permission_mode: permissionModeOf(ctx.mode) };
    if (opts.transcriptPath) input.transcript_path = opts.transcriptPath;
    if (ctx.agent.isSubagent) input.agent_type = ctx.agent.name;
    return input;
  };
  const runOpts = (call: ToolCall, signal?: AbortSignal): RunHooksOptions => {
    const o: RunHooksOptions = { projectDir: opts.workspaceRoot, matchValue: toolMatchNames(call.name), ...(opts.log ? { log: opts.log } : {}) };
    if (signal) o.signal = signal;
    if (opts.defaultTimeoutMs !== undefined) o.defaultTimeoutMs = opts.defaultTimeoutMs;
    return o;
  };
  const report = (event: HookEvent, call: ToolCall, outcome: HookRunOutcome) => {
    outcome.warnings.forEach(warn);
    for (const m of outcome.systemMessages) opts.onSystemMessage?.(m);
    if (outcome.additionalContext) opts.onContext?.(event, call, outcome.additionalContext);
  };

  return {
    async before(call, ctx) {
      if (!hasEvent(hooks, 'PreToolUse')) return { proceed: true, call };
      const input = base('PreToolUse', ctx);
      input.tool_name = call.name;
      input.tool_input = rawArguments(call);
      input.tool_use_id = call.id;
      let outcome: HookRunOutcome;
      try {
        outcome = await runHooks(hooks, input, runOpts(call, ctx.signal));
      } catch (err) {
        warn(`PreToolUse hooks failed: ${(err as Error).message}`);
        return { proceed: true, call };
      }
      report('PreToolUse', call, outcome);
      const refuse = (message: string, kind: 'permission' | 'rejected' = 'permission') => {
        refused.add(call.id);
        return { proceed: false as const, result: toolFailure(kind, message) };
      };
      if (outcome.stop) {
        opts.onStop?.(outcome.stop.reason);
        return refuse(`A hook stopped the agent${outcome.stop.reason ? `: ${outcome.stop.reason}` : '.'}`);
      }
      if (outcome.blocked || outcome.permissionDecision === 'deny') {
        const reason = outcome.permissionDecisionReason ?? outcome.blockReason ?? 'no reason given';
        return refuse(`A PreToolUse hook blocked ${call.name}: ${reason}`);
      }
      let next = call;
      if (outcome.updatedInput) {
        next = { ...call, arguments: JSON.stringify(outcome.updatedInput) };
        rewritten.set(call.id, next);
      }
      if (outcome.permissionDecision === 'ask' || outcome.permissionDecision === 'defer') {
        const reason = outcome.permissionDecisionReason;
        if (!ctx.ui.requestApproval) return refuse(`A hook requires the user's approval for ${call.name}${reason ? ` (${reason})` : ''}, and no one is available to approve it.`);
        const tool = opts.tools?.(call.name);
        const subject = tool ? await approvalSubject(next, tool, ctx) : undefined;
        // The command (editable) and the diff, not the hunks: a verdict hunk by hunk is the approval step's.
        const shown: { command?: string; diff?: string } = subject && subject.kind !== 'none' ? subjectQuestion(call.name, subject) : {};
        const title = reason ? `Hook asks: ${reason}` : `Allow ${call.name}? (a hook asks)`;
        const request = { kind: 'tool' as const, toolName: call.name, title, args: next.arguments, ...(shown.command !== undefined ? { command: shown.command } : {}), ...(shown.diff !== undefined ? { diff: shown.diff } : {}) };
        const decision = await ctx.ui.requestApproval(request, ctx.signal);
        if (decision.action === 'deny') return refuse(`The user denied ${call.name}${decision.feedback ? `: ${decision.feedback}` : '.'}`, 'rejected');
        if (decision.action === 'edit' && subject?.kind === 'command') {
          next = { ...next, arguments: JSON.stringify(subject.withCommand(decision.command)) };
          rewritten.set(call.id, next);
        }
      }
      return { proceed: true, call: next };
    },

    after(call, result, ctx) {
      if (refused.delete(call.id)) return; // never ran: PostToolUse* does not fire
      const ran = rewritten.get(call.id) ?? call;
      rewritten.delete(call.id);
      const event: HookEvent = result.ok ? 'PostToolUse' : 'PostToolUseFailure';
      if (!hasEvent(hooks, event)) return;
      const input = base(event, ctx);
      input.tool_name = call.name;
      input.tool_input = rawArguments(ran);
      input.tool_use_id = call.id;
      if (result.ok) input.tool_response = toolResponse(result);
      else input.error = result.output;
      // Not awaited, and not tied to the turn's abort signal (the tool already ran); the timeout bounds it.
      const p: Promise<void> = runHooks(hooks, input, runOpts(call))
        .then((outcome) => report(event, call, outcome))
        .catch((err: unknown) => warn(`${event} hooks failed: ${String(err)}`))
        .finally(() => pending.delete(p));
      pending.add(p);
    },

    async idle(signal) {
      while (pending.size > 0 && !signal?.aborted) await settledOrAborted(Promise.all([...pending]), signal);
    },
  };
}

/**
 * Chains lifecycles: `before` runs in order, each seeing the call the previous one produced; the
 * first refusal wins and later ones do not run. `after` runs every lifecycle's `after` (in order).
 */
export function composeLifecycles(...lifecycles: ToolLifecycle[]): ToolLifecycle {
  return {
    async before(call, ctx) {
      let current = call;
      const notes: string[] = [];
      for (const l of lifecycles) {
        if (!l.before) continue;
        const gate = await l.before(current, ctx);
        if (!gate.proceed) return gate;
        current = gate.call;
        notes.push(...(gate.notes ?? []));
      }
      return notes.length ? { proceed: true, call: current, notes } : { proceed: true, call: current };
    },
    async after(call, result, ctx) {
      for (const l of lifecycles) await l.after?.(call, result, ctx);
    },
  };
}

/** Resolves when `work` settles or `signal` aborts, whichever is first; leaves no listener behind. */
function settledOrAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return work.then(() => undefined);
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void work.then(done, done);
  });
}

function toolResponse(result: ToolResult): Record<string, unknown> {
  return { success: result.ok, output: result.output, summary: result.summary };
}
