import type { ToolLifecycle } from '../agent/tool-dispatcher';
import { parseToolArguments, type ToolCall } from '../messages';
import { toolFailure, type ToolExecutionContext, type ToolResult } from '../tools/tool';
import type { LoadedHooksConfig } from './config';
import { toolMatchNames } from './matcher';
import { runHooks, type RunHooksOptions } from './runner';
import type { HookEvent, HookInput, HookRunOutcome, HooksConfig } from './types';

/** Where hooks run and what they are told about the session. */
export interface HookSessionOptions {
  workspaceRoot: string;
  sessionId: string;
  transcriptPath?: string;
  /** Default per-hook timeout in ms (60 s). */
  defaultTimeoutMs?: number;
  /** Warnings (hook errors, timeouts, garbage output): shown to the user, never thrown. Default: dropped. */
  onWarning?(message: string): void;
}

export interface HooksLifecycleOptions extends HookSessionOptions {
  /** additionalContext from PreToolUse / PostToolUse / PostToolUseFailure hooks, for the lead to feed the model. */
  onContext?(event: HookEvent, call: ToolCall, context: string): void;
  /** A hook answered `continue: false`: the agent should stop (the call itself is refused). */
  onStop?(reason: string): void;
  /** systemMessage values for the user. */
  onSystemMessage?(message: string): void;
}

/** A `ToolLifecycle` plus `idle()`, which resolves when every post hook started so far has finished. */
export interface HooksLifecycle extends ToolLifecycle {
  idle(): Promise<void>;
}

type AnyConfig = HooksConfig | LoadedHooksConfig;

function unwrap(config: AnyConfig): HooksConfig | undefined {
  if (isLoaded(config)) return config.disabled ? undefined : config.hooks;
  return config;
}

function isLoaded(config: AnyConfig): config is LoadedHooksConfig {
  return typeof (config as LoadedHooksConfig).disabled === 'boolean' && typeof (config as LoadedHooksConfig).hooks === 'object' && Array.isArray((config as LoadedHooksConfig).warnings);
}

function hasEvent(hooks: HooksConfig | undefined, event: HookEvent): hooks is HooksConfig {
  return !!hooks && (hooks[event]?.length ?? 0) > 0;
}

/**
 * PreToolUse / PostToolUse / PostToolUseFailure hooks around every tool call.
 * `before`: deny, `decision: "block"` or exit 2 refuses the call (`toolFailure('permission', reason)`);
 * `ask` / `defer` ask the user (refused when no one can answer); `updatedInput` replaces the whole
 * argument object; allow (or nothing) proceeds. `after`: the post hooks start and are NOT awaited;
 * their failures become warnings. A hook that times out or fails never blocks.
 */
export function hooksLifecycle(config: AnyConfig, opts: HooksLifecycleOptions): HooksLifecycle {
  const hooks = unwrap(config);
  const pending = new Set<Promise<void>>();
  const refused = new Set<string>();
  const rewritten = new Map<string, string>();
  const warn = (m: string) => {
    try {
      opts.onWarning?.(m);
    } catch {
      /* a broken sink must not break the agent */
    }
  };
  const base = (event: HookEvent, ctx: ToolExecutionContext): HookInput => {
    const input: HookInput = { session_id: opts.sessionId, transcript_path: opts.transcriptPath ?? '', cwd: opts.workspaceRoot, hook_event_name: event, permission_mode: ctx.mode.mode };
    if (ctx.agent.isSubagent) input.agent_type = ctx.agent.name;
    return input;
  };
  const runOpts = (call: ToolCall, signal?: AbortSignal): RunHooksOptions => {
    const o: RunHooksOptions = { projectDir: opts.workspaceRoot, matchValue: toolMatchNames(call.name) };
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
      input.tool_input = parseToolArguments(call.arguments);
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
        rewritten.set(call.id, next.arguments);
      }
      if (outcome.permissionDecision === 'ask' || outcome.permissionDecision === 'defer') {
        const reason = outcome.permissionDecisionReason;
        if (!ctx.ui.requestApproval) return refuse(`A hook requires the user's approval for ${call.name}${reason ? ` (${reason})` : ''}, and no one is available to approve it.`);
        const decision = await ctx.ui.requestApproval({ kind: 'tool', toolName: call.name, title: reason ? `Hook asks: ${reason}` : `Allow ${call.name}? (a hook asks)`, args: next.arguments }, ctx.signal);
        if (decision.action === 'deny') return refuse(`The user denied ${call.name}${decision.feedback ? `: ${decision.feedback}` : '.'}`, 'rejected');
        if (decision.action === 'edit') {
          next = { ...next, arguments: JSON.stringify({ ...asObject(parseToolArguments(next.arguments)), command: decision.command }) };
          rewritten.set(call.id, next.arguments);
        }
      }
      return { proceed: true, call: next };
    },

    after(call, result, ctx) {
      if (refused.delete(call.id)) return; // never ran: PostToolUse* does not fire
      const args = rewritten.get(call.id) ?? call.arguments;
      rewritten.delete(call.id);
      const event: HookEvent = result.ok ? 'PostToolUse' : 'PostToolUseFailure';
      if (!hasEvent(hooks, event)) return;
      const input = base(event, ctx);
      input.tool_name = call.name;
      input.tool_input = parseToolArguments(args);
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

    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
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
      for (const l of lifecycles) {
        if (!l.before) continue;
        const gate = await l.before(current, ctx);
        if (!gate.proceed) return gate;
        current = gate.call;
      }
      return { proceed: true, call: current };
    },
    async after(call, result, ctx) {
      for (const l of lifecycles) await l.after?.(call, result, ctx);
    },
  };
}

// ---- the other events, as plain functions for the front ends ----

async function runEvent(config: AnyConfig, session: HookSessionOptions & { signal?: AbortSignal }, event: HookEvent, fields: Partial<HookInput>, matchValue?: string): Promise<HookRunOutcome> {
  const hooks = unwrap(config);
  const empty: HookRunOutcome = { blocked: false, systemMessages: [], warnings: [], results: [] };
  if (!hasEvent(hooks, event)) return empty;
  const input: HookInput = { session_id: session.sessionId, transcript_path: session.transcriptPath ?? '', cwd: session.workspaceRoot, hook_event_name: event, ...fields };
  const o: RunHooksOptions = { projectDir: session.workspaceRoot };
  if (matchValue !== undefined) o.matchValue = matchValue;
  if (session.signal) o.signal = session.signal;
  if (session.defaultTimeoutMs !== undefined) o.defaultTimeoutMs = session.defaultTimeoutMs;
  let outcome: HookRunOutcome;
  try {
    outcome = await runHooks(hooks, input, o);
  } catch (err) {
    outcome = { ...empty, warnings: [`${event} hooks failed: ${(err as Error).message}`] };
  }
  for (const w of outcome.warnings) session.onWarning?.(w);
  return outcome;
}

export type HookCallOptions = HookSessionOptions & { signal?: AbortSignal };

/** SessionStart: cannot block; `additionalContext` (JSON or plain stdout) goes into the model's context. */
export function runSessionStart(config: AnyConfig, session: HookCallOptions, source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork' = 'startup'): Promise<HookRunOutcome> {
  return runEvent(config, session, 'SessionStart', { source }, source);
}

/** Claude Code's default timeout for UserPromptSubmit command hooks (the user is waiting). */
export const USER_PROMPT_SUBMIT_TIMEOUT_MS = 30_000;

/** UserPromptSubmit: `blocked` erases the prompt (`blockReason` is for the user only); `additionalContext` goes next to it. */
export function runUserPromptSubmit(config: AnyConfig, session: HookCallOptions, prompt: string): Promise<HookRunOutcome> {
  return runEvent(config, { defaultTimeoutMs: USER_PROMPT_SUBMIT_TIMEOUT_MS, ...session }, 'UserPromptSubmit', { prompt });
}

/** Claude Code forces a stop after this many consecutive Stop-hook blocks. */
export const MAX_CONSECUTIVE_STOP_BLOCKS = 8;

export interface StopOptions {
  /** True when the agent is already continuing because a Stop hook blocked. */
  stopHookActive?: boolean;
  lastAssistantMessage?: string;
  /** How many times in a row Stop hooks have blocked; at 8 the block is ignored. */
  consecutiveBlocks?: number;
}

/** Stop: `blocked` means "do not stop yet", and `blockReason` tells the model why to go on. */
export async function runStop(config: AnyConfig, session: HookCallOptions, o: StopOptions = {}): Promise<HookRunOutcome> {
  return guardStop(await runEvent(config, session, 'Stop', stopFields(o)), o, session);
}

/** SubagentStart: cannot block; `additionalContext` goes to the subagent. */
export function runSubagentStart(config: AnyConfig, session: HookCallOptions, agentType: string, agentId?: string): Promise<HookRunOutcome> {
  return runEvent(config, session, 'SubagentStart', { agent_type: agentType, ...(agentId ? { agent_id: agentId } : {}) }, agentType);
}

/** SubagentStop: like Stop, for a subagent (matched on its type). */
export async function runSubagentStop(config: AnyConfig, session: HookCallOptions, agentType: string, o: StopOptions & { agentId?: string } = {}): Promise<HookRunOutcome> {
  const fields = { ...stopFields(o), agent_type: agentType, ...(o.agentId ? { agent_id: o.agentId } : {}) };
  return guardStop(await runEvent(config, session, 'SubagentStop', fields, agentType), o, session);
}

/** PreCompact: `blocked` cancels the compaction. */
export function runPreCompact(config: AnyConfig, session: HookCallOptions, trigger: 'manual' | 'auto', customInstructions = ''): Promise<HookRunOutcome> {
  return runEvent(config, session, 'PreCompact', { trigger, custom_instructions: customInstructions }, trigger);
}

/** SessionEnd: cannot block; for cleanup and logging. */
export function runSessionEnd(config: AnyConfig, session: HookCallOptions, reason: string): Promise<HookRunOutcome> {
  return runEvent(config, session, 'SessionEnd', { reason }, reason);
}

function stopFields(o: StopOptions): Partial<HookInput> {
  const f: Partial<HookInput> = { stop_hook_active: o.stopHookActive ?? false };
  if (o.lastAssistantMessage !== undefined) f.last_assistant_message = o.lastAssistantMessage;
  return f;
}

function guardStop(outcome: HookRunOutcome, o: StopOptions, session: HookSessionOptions): HookRunOutcome {
  if (outcome.blocked && (o.consecutiveBlocks ?? 0) >= MAX_CONSECUTIVE_STOP_BLOCKS) {
    const w = `Stop hooks blocked ${MAX_CONSECUTIVE_STOP_BLOCKS} times in a row; stopping anyway`;
    session.onWarning?.(w);
    return { ...outcome, blocked: false, warnings: [...outcome.warnings, w] };
  }
  return outcome;
}

function toolResponse(result: ToolResult): Record<string, unknown> {
  return { success: result.ok, output: result.output, summary: result.summary };
}


function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
