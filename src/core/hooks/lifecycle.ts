import type { ModeState } from '../tools/tool';
import type { LoadedHooksConfig } from './config';
import type { Logger } from '../logger';
import { runHooks, type RunHooksOptions } from './runner';
import type { HookEvent, HookInput, HookRunOutcome, HooksConfig } from './types';

// The session's hook events as plain functions (the tool events are in tool-hooks.ts). Each runs
// every matching hook, reports warnings through `onWarning` and returns the outcome; none throws.

/** Where hooks run and what they are told about the session. */
export interface HookSessionOptions {
  workspaceRoot: string;
  sessionId: string;
  /** The session's transcript (JSONL); omitted from the input when unknown. */
  transcriptPath?: string;
  /** Default per-hook timeout in ms (60 s). */
  defaultTimeoutMs?: number;
  /** Warnings (hook errors, timeouts, garbage output): shown to the user, never thrown. Default: dropped. */
  onWarning?(message: string): void;
  /** Which hooks ran, their decision and duration, for the host's log. */
  log?: Logger;
}

export type HookCallOptions = HookSessionOptions & {
  signal?: AbortSignal;
  /** Claude Code's `permission_mode` (see permissionModeOf); omitted when unset. */
  permissionMode?: string;
};

export type AnyHooksConfig = HooksConfig | LoadedHooksConfig;

/** The hooks that run: none when a settings file says `disableAllHooks`. */
export function unwrapHooks(config: AnyHooksConfig): HooksConfig | undefined {
  if (isLoaded(config)) return config.disabled ? undefined : config.hooks;
  return config;
}

function isLoaded(config: AnyHooksConfig): config is LoadedHooksConfig {
  const c = config as LoadedHooksConfig;
  return typeof c.disabled === 'boolean' && typeof c.hooks === 'object' && Array.isArray(c.warnings);
}

export function hasEvent(hooks: HooksConfig | undefined, event: HookEvent): hooks is HooksConfig {
  return !!hooks && (hooks[event]?.length ?? 0) > 0;
}

/** OpenDev's mode as Claude Code's `permission_mode`: plan, acceptEdits (an approved plan's edits) or default. */
export function permissionModeOf(mode: ModeState): string {
  if (mode.mode === 'plan') return 'plan';
  return mode.autoApproveEdits ? 'acceptEdits' : 'default';
}

const EMPTY = (): HookRunOutcome => ({ blocked: false, systemMessages: [], warnings: [], results: [] });

async function runEvent(config: AnyHooksConfig, session: HookCallOptions, event: HookEvent, fields: Partial<HookInput>, matchValue?: string): Promise<HookRunOutcome> {
  const hooks = unwrapHooks(config);
  if (!hasEvent(hooks, event)) return EMPTY();
  const input: HookInput = { session_id: session.sessionId, cwd: session.workspaceRoot, hook_event_name: event };
  if (session.transcriptPath) input.transcript_path = session.transcriptPath;
  if (session.permissionMode) input.permission_mode = session.permissionMode;
  Object.assign(input, fields);
  const o: RunHooksOptions = { projectDir: session.workspaceRoot, ...(session.log ? { log: session.log } : {}) };
  if (matchValue !== undefined) o.matchValue = matchValue;
  if (session.signal) o.signal = session.signal;
  if (session.defaultTimeoutMs !== undefined) o.defaultTimeoutMs = session.defaultTimeoutMs;
  let outcome: HookRunOutcome;
  try {
    outcome = await runHooks(hooks, input, o);
  } catch (err) {
    outcome = { ...EMPTY(), warnings: [`${event} hooks failed: ${(err as Error).message}`] };
  }
  for (const w of outcome.warnings) {
    try {
      session.onWarning?.(w);
    } catch {
      /* a broken sink must not break the agent */
    }
  }
  return outcome;
}

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact' | 'fork';

/** SessionStart: cannot block; `additionalContext` (JSON or plain stdout) goes into the model's context. */
export function runSessionStart(config: AnyHooksConfig, session: HookCallOptions, source: SessionStartSource = 'startup'): Promise<HookRunOutcome> {
  return runEvent(config, session, 'SessionStart', { source }, source);
}

/** Claude Code's default timeout for UserPromptSubmit command hooks (the user is waiting). */
export const USER_PROMPT_SUBMIT_TIMEOUT_MS = 30_000;

/** UserPromptSubmit: `blocked` erases the prompt (`blockReason` is for the user only); `additionalContext` goes next to it. */
export function runUserPromptSubmit(config: AnyHooksConfig, session: HookCallOptions, prompt: string): Promise<HookRunOutcome> {
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
export async function runStop(config: AnyHooksConfig, session: HookCallOptions, o: StopOptions = {}): Promise<HookRunOutcome> {
  return guardStop(await runEvent(config, session, 'Stop', stopFields(o)), o, session);
}

/** SubagentStart (matched on the type): `blocked` refuses the spawn (an OpenDev extension); `additionalContext` goes to the subagent. */
export function runSubagentStart(config: AnyHooksConfig, session: HookCallOptions, agentType: string, agentId?: string): Promise<HookRunOutcome> {
  return runEvent(config, session, 'SubagentStart', { agent_type: agentType, ...(agentId ? { agent_id: agentId } : {}) }, agentType);
}

/** SubagentStop: like Stop, for a subagent (matched on its type). */
export async function runSubagentStop(config: AnyHooksConfig, session: HookCallOptions, agentType: string, o: StopOptions & { agentId?: string } = {}): Promise<HookRunOutcome> {
  const fields = { ...stopFields(o), agent_type: agentType, ...(o.agentId ? { agent_id: o.agentId } : {}) };
  return guardStop(await runEvent(config, session, 'SubagentStop', fields, agentType), o, session);
}

/** PreCompact: `blocked` cancels the compaction. */
export function runPreCompact(config: AnyHooksConfig, session: HookCallOptions, trigger: 'manual' | 'auto', customInstructions = ''): Promise<HookRunOutcome> {
  return runEvent(config, session, 'PreCompact', { trigger, custom_instructions: customInstructions }, trigger);
}

/** SessionEnd hooks get this default timeout (a hook's own `timeout` wins): they must not hold up an exit. */
export const SESSION_END_TIMEOUT_MS = 1_500;

/** SessionEnd (matched on the reason): cannot block; for cleanup and logging. */
export function runSessionEnd(config: AnyHooksConfig, session: HookCallOptions, reason: string): Promise<HookRunOutcome> {
  return runEvent(config, { defaultTimeoutMs: SESSION_END_TIMEOUT_MS, ...session }, 'SessionEnd', { reason }, reason);
}

/** Claude Code's notification types: a request for consent, a question for the user. */
export type NotificationType = 'permission_prompt' | 'elicitation_dialog';

/** Notification (matched on the type): cannot block; exit codes are ignored. */
export function runNotification(config: AnyHooksConfig, session: HookCallOptions, n: { message: string; title?: string; type: NotificationType }): Promise<HookRunOutcome> {
  return runEvent(config, session, 'Notification', { message: n.message, ...(n.title ? { title: n.title } : {}), notification_type: n.type }, n.type);
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
