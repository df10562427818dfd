import { childProcess } from '../lazy-builtins';
import { childEnv } from '../process/child-env';
import { afterExitGrace } from '../process/exit-grace';
import { parseHookStdout, type HookJsonOutput } from './hook-output';
import { getMatchingHookGroups } from './matcher';
import { logHookRun } from './hook-log';
import type { Logger } from '../logger';
import type { HookCommandResult, HookEvent, HookHandler, HookInput, HookRunOutcome, HooksConfig, PermissionDecision } from './types';
import { BLOCKING_EVENTS, PLAIN_STDOUT_CONTEXT_EVENTS } from './types';

/** Default per-hook timeout (a hook's own `timeout` field, in seconds, overrides it). */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** Each stream of a hook is kept up to this many characters. */
const MAX_STREAM_CHARS = 1_000_000;
/** Context and reasons from hooks are capped like Claude Code's output strings. */
export const HOOK_OUTPUT_CAP_CHARS = 10_000;
/** After the shell exits, how long to wait for pipes held open by its background children. */
const EXIT_GRACE_MS = 200;

const PRECEDENCE: readonly PermissionDecision[] = ['deny', 'defer', 'ask', 'allow'];

export interface RunHooksOptions {
  /** The hook's working directory and `CLAUDE_PROJECT_DIR` / `OPENDEV_PROJECT_DIR`. Default: `input.cwd`. */
  projectDir?: string;
  /** Matched against each group's matcher (tool name and aliases, agent type, trigger, source, reason). */
  matchValue?: string | readonly string[];
  signal?: AbortSignal;
  defaultTimeoutMs?: number;
  /** Extra environment for the hook processes. */
  env?: NodeJS.ProcessEnv;
  /** One line per event that ran hooks: which, the decision, the duration. */
  log?: Logger;
}

export interface RunCommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Fire-and-forget hooks: the child, its pipes and its timer do not keep the process alive. */
  detach?: boolean;
}

/**
 * Runs one command hook with `bash -c`, the input JSON on stdin. On timeout or abort the whole
 * process group is killed; the promise always settles (a hook can never hang the agent).
 */
export function runCommandHook(command: string, stdin: string, opts: RunCommandOptions): Promise<HookCommandResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    let timedOut = false;
    let aborted = false;
    let timer: NodeJS.Timeout | undefined;
    let grace: { cancel(): void } | undefined;
    const finish = (exitCode: number, extraErr = '') => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      grace?.cancel();
      opts.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const result: HookCommandResult = { command, exitCode, stdout, stderr: stderr + extraErr };
      if (timedOut) result.timedOut = true;
      if (aborted) result.aborted = true;
      resolve(result);
    };
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        try {
          child.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
    };
    const onAbort = () => {
      aborted = true;
      killGroup();
      finish(-1);
    };
    // stdin is a socket here: bash would take itself for an rsh session and read ~/.bashrc (slow, and
    // a killed hook can leave what it runs, such as a pyenv rehash lock, making every later hook wait)
    // unless it is nested; SHLVL says it is. A host started without SHLVL (a GUI, a service) has none.
    const env = { ...opts.env, SHLVL: String(Math.max(1, Number(opts.env.SHLVL) || 0)) };
    const child = childProcess().spawn('bash', ['-c', command], { cwd: opts.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (stdout.length < MAX_STREAM_CHARS) stdout += d.slice(0, MAX_STREAM_CHARS - stdout.length);
    });
    child.stderr.on('data', (d: string) => {
      if (stderr.length < MAX_STREAM_CHARS) stderr += d.slice(0, MAX_STREAM_CHARS - stderr.length);
    });
    child.on('error', (err) => finish(-1, `${stderr ? '\n' : ''}${err.message}`));
    child.on('close', (code, sig) => finish(code ?? (sig ? 128 : -1)));
    child.on('exit', (code, sig) => {
      // Background children may keep the pipes open: don't wait for them beyond a short grace.
      grace = afterExitGrace(EXIT_GRACE_MS, () => finish(code ?? (sig ? 128 : -1)));
    });
    child.stdin.on('error', () => {
      /* the hook did not read its input (EPIPE): fine */
    });
    child.stdin.end(stdin);
    timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      finish(-1);
    }, opts.timeoutMs);
    if (opts.detach) {
      child.unref();
      for (const s of [child.stdin, child.stdout, child.stderr] as unknown as Array<{ unref?: () => void } | null>) s?.unref?.();
      timer.unref();
    }
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs every hook of `input.hook_event_name` whose matcher fits (in parallel, identical commands
 * once), then interprets the results per the protocol. Never throws: errors become `warnings`.
 */
export async function runHooks(config: HooksConfig, input: HookInput, options: RunHooksOptions = {}): Promise<HookRunOutcome> {
  const event = input.hook_event_name;
  const outcome: HookRunOutcome = { blocked: false, systemMessages: [], warnings: [], results: [] };
  const groups = getMatchingHookGroups(config, event, options.matchValue);
  const seen = new Set<string>();
  const handlers: HookHandler[] = [];
  for (const group of groups) {
    for (const h of group.hooks) {
      const key = h.type === 'command' ? `command:${h.command ?? ''}` : undefined;
      if (key !== undefined) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      handlers.push(h);
    }
  }
  if (handlers.length === 0) return outcome;

  const projectDir = options.projectDir ?? input.cwd;
  // Ours without the secret variables (child-env.ts), plus what the hook protocol adds.
  const env: NodeJS.ProcessEnv = childEnv({ ...options.env, CLAUDE_PROJECT_DIR: projectDir, OPENDEV_PROJECT_DIR: projectDir });
  const stdin = JSON.stringify(input);
  const runOne = (h: HookHandler, detach = false) => {
    const seconds = typeof h.timeout === 'number' && h.timeout > 0 ? h.timeout : undefined;
    const timeoutMs = seconds !== undefined ? seconds * 1000 : (options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
    const opts: RunCommandOptions = { cwd: projectDir, env, timeoutMs };
    if (options.signal) opts.signal = options.signal;
    if (detach) opts.detach = true;
    return runCommandHook(h.command ?? '', stdin, opts);
  };

  const pending: Array<Promise<HookCommandResult>> = [];
  for (const h of handlers) {
    if (h.type !== 'command') {
      outcome.warnings.push(`${event} hook of type "${h.type}" is not supported; skipped`);
      pending.push(Promise.resolve({ command: '', exitCode: 0, stdout: '', stderr: '' }));
      continue;
    }
    if (h.async === true) {
      // Fire and forget: not awaited, its output is not interpreted (it is still killed on timeout).
      void runOne(h, true).catch(() => undefined);
      continue;
    }
    pending.push(runOne(h).catch((err: unknown) => ({ command: h.command ?? '', exitCode: -1, stdout: '', stderr: String(err) })));
  }
  const started = Date.now();
  outcome.results = await Promise.all(pending);
  interpretResults(event, outcome.results, outcome);
  if (options.log) logHookRun(options.log, event, outcome, Date.now() - started, options.matchValue);
  return outcome;
}

/** Folds command results into `outcome` per the protocol table (exported for tests). */
export function interpretResults(event: HookEvent | string, results: readonly HookCommandResult[], outcome: HookRunOutcome): void {
  const contexts: string[] = [];
  const canBlock = BLOCKING_EVENTS.has(event as HookEvent);
  const blockReasons: string[] = [];
  let decisionRank = Number.POSITIVE_INFINITY;
  const block = (reason: string) => {
    outcome.blocked = true;
    blockReasons.push(cap(reason));
  };
  const decide = (d: PermissionDecision, reason: string | undefined) => {
    const rank = PRECEDENCE.indexOf(d);
    if (rank < decisionRank) {
      decisionRank = rank;
      outcome.permissionDecision = d;
      if (reason !== undefined) outcome.permissionDecisionReason = cap(reason);
      else delete outcome.permissionDecisionReason;
    }
  };

  for (const r of results) {
    const label = `${event} hook \`${r.command}\``;
    if (r.timedOut) {
      outcome.warnings.push(`${label} timed out and was killed; ignored`);
      continue;
    }
    if (r.aborted) {
      outcome.warnings.push(`${label} was cancelled`);
      continue;
    }
    const stdout = parseHookStdout(r.stdout);
    const json = stdout.kind === 'json' ? stdout.output : undefined;
    if (r.exitCode === 2) {
      const jsonReason = json ? blockingReason(json) : undefined;
      const reason = jsonReason ?? (r.stderr.trim() || `blocked by ${label}`);
      if (canBlock) {
        block(reason);
        if (event === 'PreToolUse') decide('deny', reason);
      } else if (event === 'PostToolUse' || event === 'PostToolUseFailure') {
        if (r.stderr.trim()) contexts.push(r.stderr.trim());
      } else if (event === 'Notification') {
        // The protocol table: a Notification hook's exit code and stderr are ignored.
      } else if (r.stderr.trim()) {
        outcome.warnings.push(`${label}: ${firstLine(r.stderr)}`);
      }
      continue;
    }
    if (r.exitCode !== 0) {
      // Non-blocking error, unless a valid JSON object on stdout decides (current Claude Code docs).
      if (json) applyJson(event, json, { canBlock, block, decide, contexts, outcome });
      else outcome.warnings.push(`${label} failed (exit ${r.exitCode})${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ''}`);
      continue;
    }
    if (stdout.kind === 'json') applyJson(event, stdout.output, { canBlock, block, decide, contexts, outcome });
    else if (stdout.kind === 'invalid') outcome.warnings.push(`${label} printed output that ${stdout.problem}; ignored`);
    else if (stdout.text && PLAIN_STDOUT_CONTEXT_EVENTS.has(event as HookEvent)) contexts.push(stdout.text);
  }
  if (blockReasons.length > 0) outcome.blockReason = blockReasons.join('\n');
  if (contexts.length > 0) outcome.additionalContext = cap(contexts.join('\n'));
}

interface JsonSink {
  canBlock: boolean;
  block(reason: string): void;
  decide(d: PermissionDecision, reason: string | undefined): void;
  contexts: string[];
  outcome: HookRunOutcome;
}

function applyJson(event: string, json: HookJsonOutput, sink: JsonSink): void {
  const { outcome } = sink;
  if (event !== 'PreCompact') {
    if (json.continue === false) outcome.stop = { reason: json.stopReason ?? '' };
    if (json.systemMessage) outcome.systemMessages.push(json.systemMessage);
  }
  const reason = json.reason;
  if (json.decision === 'block') {
    if (event === 'PreToolUse') {
      sink.decide('deny', reason);
      sink.block(reason ?? 'blocked by a PreToolUse hook');
    } else if (sink.canBlock) {
      sink.block(reason ?? `blocked by a ${event} hook`);
    } else if (reason && (event === 'PostToolUse' || event === 'PostToolUseFailure')) {
      sink.contexts.push(reason);
    }
  } else if (json.decision === 'approve' && event === 'PreToolUse') {
    sink.decide('allow', reason);
  }
  const h = json.hookSpecificOutput;
  if (!h) return;
  if (event === 'PreToolUse') {
    const d = h.permissionDecision;
    if (d) {
      sink.decide(d, h.permissionDecisionReason);
      if (d === 'deny') sink.block(h.permissionDecisionReason ?? 'denied by a PreToolUse hook');
    }
    if (h.updatedInput) outcome.updatedInput = h.updatedInput;
  }
  if (h.additionalContext?.trim()) sink.contexts.push(h.additionalContext.trim());
}

function blockingReason(json: HookJsonOutput): string | undefined {
  if (json.decision === 'block' && json.reason !== undefined) return json.reason;
  const h = json.hookSpecificOutput;
  if (h?.permissionDecision === 'deny' && h.permissionDecisionReason !== undefined) return h.permissionDecisionReason;
  return undefined;
}

function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}

function cap(s: string): string {
  return s.length > HOOK_OUTPUT_CAP_CHARS ? `${s.slice(0, HOOK_OUTPUT_CAP_CHARS)}… [truncated]` : s;
}
