import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { CommandView } from '../host';
import { prepareCommand } from '../process/command-prep';
import { checkDanger, COMMAND_TOO_LONG } from '../process/danger-gate';
import type { ForegroundOutcome } from '../process/foreground-runner';
import { defaultProcessManager, type ProcessManager } from '../process/process-manager';
import { ViewStream } from '../process/view-stream';
import { describeTask, formatDuration, oneLine, plural, stateText } from '../process/task-format';
import type { TaskInfo } from '../process/background-task';
import type { ResolvedShell } from '../process/session-shell';
import type { CommandSandbox, SandboxedLaunch } from '../sandbox/command-sandbox';
import type { SandboxViolation } from '../sandbox/sandbox-violations';
import { serverOutsideSandbox } from '../sandbox/outside-sandbox';
import { loadTemplateSections, renderTemplate } from '../templates';
import { ToolError, type Tool, type ToolExecutionContext, type ToolResult } from './tool';
import { runInHost } from './host-command';

const schema = z.lazy(() => z.object({
  command: z.string().describe('The command line, e.g. cd web && npm test.'),
  background: z
    .boolean()
    .optional()
    .describe('Run in the background; returns after 20 s (or when it exits) with its id and output so far.'),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe('Foreground seconds (default 600, max 3600); also extends the 60 s silence limit.'),
  sandbox: z
    .boolean()
    .optional()
    .describe('false: run unsandboxed (asks the user).'),
}));

/** A foreground command shows at most this much in the terminal view (then a note, and its end). */
const VIEW_MAX_CHARS = 1_000_000;

/** A short summary is the output itself; longer ones say how it ended and how much it printed. */
const SUMMARY_VERBATIM = 100;

export const runCommandTool: Tool<typeof schema> = {
  name: 'run_command',
  category: 'process',
  readOnly: false,
  schema,
  approval: (args) => ({ kind: 'command', command: args.command, sandbox: args.sandbox !== false, withCommand: (command) => ({ ...args, command }) }),
  async run(args, ctx) {
    const command = args.command.trim();
    if (!command) throw new ToolError('other', 'The command is empty. Pass the shell command line to run in `command`.');

    // Stage 1: the danger gate, before anything runs. Approvals and user rules cannot override it.
    const verdict = checkDanger(command, { cwd: ctx.workspaceRoot });
    // Too long to read or review: the reason says what to do instead.
    if (verdict.rule === COMMAND_TOO_LONG) throw new ToolError('permission', `Refused: ${verdict.reason}.`);
    if (verdict.blocked) {
      throw new ToolError(
        'permission',
        `Refused by the danger rule "${verdict.rule}": ${verdict.reason}. This rule cannot be overridden by approvals or settings. ` +
          'Do not retry it in another form; if the task really needs it, stop and ask the user to run it themselves.',
      );
    }
    if (ctx.signal.aborted) throw new ToolError('other', 'Interrupted before the command started.');

    // Stages 2–3: preparation and the background decision.
    const prepared = prepareCommand(command);
    const processes = ctx.processes ?? defaultProcessManager();
    const background = args.background === true || prepared.promotedBy !== undefined;
    // The user's shell and what their profile sets up (PATH from nvm, pyenv…): read once, by the session's first command.
    const shell = await processes.shell?.resolve();
    // The sandbox wraps it unless the user approved running it outside (the approval step asked).
    const server = (await processes.sandbox?.active()) ? serverOutsideSandbox(prepared.command) : undefined;
    if (server) prepared.notes.push(`Runs outside the sandbox: ${server}.`);
    const launch = args.sandbox === false || server ? undefined : await wrapInSandbox(processes.sandbox, prepared.command, ctx.workspaceRoot, shell?.file);
    const run: Launch = { command: prepared.command, env: { ...prepared.env, ...launch?.env }, notes: prepared.notes, ...(launch ? { sandboxed: launch } : {}), ...(shell ? { shell } : {}) };
    try {
      return background
        ? await runBackground(processes, run, prepared.promotedBy, ctx)
        : await runInForeground(processes, run, args.timeout, ctx);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError('other', `Could not run the command: ${(err as Error).message}`);
    }
  },
};

/** The command as it will run: prepared, and wrapped by the sandbox when it runs in one. */
interface Launch {
  command: string;
  env: Record<string, string>;
  notes: string[];
  sandboxed?: SandboxedLaunch;
  shell?: ResolvedShell;
}

async function wrapInSandbox(sandbox: CommandSandbox | undefined, command: string, cwd: string, shell: string | undefined): Promise<SandboxedLaunch | undefined> {
  if (!sandbox) return undefined;
  try {
    return await sandbox.wrap(command, cwd, shell);
  } catch (err) {
    // Never quietly unsandboxed: the model may ask to run it outside (sandbox: false), which asks the user.
    throw new ToolError('other', `The sandbox could not prepare the command: ${(err as Error).message}. Nothing ran.`);
  }
}

async function runInForeground(processes: ProcessManager, run: Launch, timeoutSeconds: number | undefined, ctx: ToolExecutionContext): Promise<ToolResult> {
  const { command, env, notes } = run;
  const limits = processes.limits;
  const requestedMs = timeoutSeconds !== undefined ? Math.round(timeoutSeconds * 1000) : undefined;
  if (requestedMs !== undefined && requestedMs > limits.maxAbsoluteMs) {
    notes.push(`The timeout was capped at ${limits.maxAbsoluteMs / 1000} s.`);
  }
  // A host with a terminal of its own (an ACP editor) runs what needs no sandbox there: only our own
  // process can hold a command in the sandbox and read what it blocked.
  const runner = run.sandboxed ? undefined : ctx.host?.commandRunner;
  const shown = runner ? undefined : safeView(() => ctx.host?.terminal?.showCommand({ id: randomBytes(4).toString('hex'), command, cwd: ctx.workspaceRoot }));
  const view = shown && new ViewStream(shown, { maxChars: VIEW_MAX_CHARS });
  let outcome: ForegroundOutcome;
  try {
    outcome = runner ? await runInHost(runner, { command, cwd: ctx.workspaceRoot, env, timeoutMs: requestedMs, signal: ctx.signal }, limits) : await processes.runForeground({ command, ...(run.sandboxed ? { launch: run.sandboxed.line } : {}), ...(run.shell ? { shell: run.shell } : {}), cwd: ctx.workspaceRoot, env, timeoutMs: requestedMs, signal: ctx.signal, view });
  } catch (err) {
    run.sandboxed?.finish('');
    throw err;
  }
  const blocked = run.sandboxed?.finish(outcome.output) ?? [];
  view?.end({
    exitCode: outcome.exitCode,
    ...(outcome.signal ? { signal: outcome.signal } : {}),
    status: outcome.status === 'exited' ? (outcome.exitCode === 0 ? 'completed' : 'failed') : outcome.status === 'aborted' ? 'killed' : outcome.status === 'spawn_error' ? 'failed' : 'timeout',
  });
  return withViolations(foregroundResult(outcome, notes), blocked, processes.sandbox, ctx);
}

function foregroundResult(outcome: ForegroundOutcome, notes: string[]): ToolResult {
  const header = notes.length ? `${notes.join('\n')}\n\n` : '';
  const body = outcome.output.trim() === '' ? '(no output)' : outcome.output.replace(/\s+$/, '');
  const stats = `${formatDuration(outcome.durationMs)}, ${plural(outcome.lines, 'line')}`;
  const strays = outcome.strays
    ? '\nNote: processes this command started in the background are still running (their output is no longer collected). Start long-running processes with background: true so they can be watched and stopped.'
    : '';

  switch (outcome.status) {
    case 'spawn_error':
      throw new ToolError('other', `The shell could not start: ${outcome.error}. Check that the workspace folder exists.`);
    case 'idle_timeout':
    case 'timeout': {
      const limit = outcome.status === 'timeout' ? `it ran longer than ${formatDuration(outcome.absoluteMs)}` : `it printed nothing for ${formatDuration(outcome.idleMs)}`;
      const message =
        `The command was stopped because ${limit} (its whole process group was killed). ` +
        'If it is a server or watcher, run it with background: true; if it waits for input, give the input in the command (a flag such as --yes, or a pipe); if it is just slow, pass a larger timeout.';
      return {
        ok: false,
        errorKind: 'timeout',
        output: `${header}Error (timeout): ${message}\n\nOutput so far (${stats}):\n${body}`,
        summary: outcome.status === 'timeout' ? `✗ timeout: stopped after ${formatDuration(outcome.absoluteMs)}` : `✗ timeout: no output for ${formatDuration(outcome.idleMs)}`,
      };
    }
    case 'aborted':
      return {
        ok: false,
        errorKind: 'other',
        output: `${header}Interrupted: the user stopped the command; its process group was killed.\n\nOutput so far (${stats}):\n${body}`,
        summary: '✗ interrupted by the user',
      };
    case 'exited': {
      const ended = outcome.signal ? `killed by ${outcome.signal}` : `exit code ${outcome.exitCode}`;
      const ok = outcome.exitCode === 0;
      return {
        ok,
        ...(ok ? {} : { errorKind: 'other' as const }),
        output: `${header}${body}\n\n[${ended} · ${stats}]${strays}`,
        summary: summarize(ok, outcome.signal ?? `exit ${outcome.exitCode}`, outcome.output, outcome.lines),
      };
    }
  }
}

function summarize(ok: boolean, how: string, output: string, lines: number): string {
  const text = output.trim();
  const mark = ok ? '✓' : '✗';
  // Short output verbatim, its line breaks shown as ↵ so the summary stays one line.
  const verbatim = text.split(/\r?\n/).map((l) => l.trim()).join(' ↵ ');
  if (text.length > 0 && text.length <= SUMMARY_VERBATIM) return ok ? `${mark} ${verbatim}` : `${mark} ${how}: ${verbatim}`;
  if (text.length === 0) return `${mark} ${how}, no output`;
  return `${mark} ${how}, ${plural(lines, 'line')}`;
}

async function runBackground(processes: ProcessManager, run: Launch, promotedBy: string | undefined, ctx: ToolExecutionContext): Promise<ToolResult> {
  const { command, env, notes, sandboxed, shell } = run;
  const terminal = ctx.host?.terminal;
  let started: TaskInfo;
  try {
    started = processes.startBackground({
      command,
      ...(sandboxed ? { launch: sandboxed.line } : {}),
      ...(shell ? { shell } : {}),
      cwd: ctx.workspaceRoot,
      env,
      ...(promotedBy ? { promotedBy } : {}),
      view: terminal
        ? (taskId) => {
            const shown = safeView(() => terminal.showBackgroundTask({ taskId, command, cwd: ctx.workspaceRoot }, () => void processes.kill(taskId).catch(() => undefined)));
            return shown && new ViewStream(shown);
          }
        : undefined,
    });
  } catch (err) {
    sandboxed?.finish('');
    throw err;
  }
  // What the sandbox blocked is read once the task has ended, from all its output.
  let blocked: SandboxViolation[] = [];
  if (sandboxed) {
    const stop = processes.onTaskChange((info) => {
      if (info.id !== started.id || info.state === 'RUNNING') return;
      stop();
      blocked = sandboxed.finish(processes.output(info.id).text);
    });
  }
  const result = await reportTask(processes, started, command, notes, promotedBy, ctx);
  return withViolations(result, blocked, processes.sandbox, ctx);
}

async function reportTask(processes: ProcessManager, started: TaskInfo, command: string, notes: string[], promotedBy: string | undefined, ctx: ToolExecutionContext): Promise<ToolResult> {
  const windowMs = processes.limits.initialWindowMs;
  const info = await processes.waitForTask(started.id, windowMs, ctx.signal);
  const output = processes.output(started.id);
  const mode = processes.backgroundMode();

  const lines: string[] = [];
  if (promotedBy) lines.push(`Started as a background task because ${promotedBy}.`);
  lines.push(...notes);
  lines.push(`Task ${describeTask(info)}`);
  lines.push(`Runs in ${mode.mode === 'pty' ? 'a pseudo-terminal' : `pipes (${mode.reason})`}; full output file: ${info.outputFile}`);
  const waited = formatDuration((info.endedAt ?? Date.now()) - info.startedAt);
  const body = output.text.trim() === '' ? '(no output yet)' : output.text.replace(/\s+$/, '');
  if (info.state === 'RUNNING') {
    const why = ctx.signal.aborted ? 'Interrupted while waiting; the task keeps running.' : `Still running after ${waited}.`;
    lines.push(`${why} Output so far:\n${body}`);
    lines.push(`\nUse get_process_output {"task_id": "${info.id}"} to see new output, kill_process {"task_id": "${info.id}"} to stop it.`);
    return { ok: true, output: lines.join('\n'), summary: `✓ background task ${info.id} running: ${oneLine(command, 80)}` };
  }
  lines.push(`It ended within ${waited}: ${stateText(info)}. Output:\n${body}`);
  const ok = info.state === 'COMPLETED';
  return {
    ok,
    ...(ok ? {} : { errorKind: 'other' as const }),
    output: lines.join('\n'),
    summary: summarize(ok, info.signal ?? `exit ${info.exitCode}`, output.text, output.lines),
  };
}

/**
 * The sandbox's refusals, told to the model with what it can do instead; a blocked host is put to
 * the user, who may allow it for the session or always, so the model's next try can work.
 */
async function withViolations(result: ToolResult, blocked: readonly SandboxViolation[], sandbox: CommandSandbox | undefined, ctx: ToolExecutionContext): Promise<ToolResult> {
  if (blocked.length === 0 || !sandbox) return result;
  const sections = loadTemplateSections('sandbox/violations.md');
  const lines = blocked.map((v) => `- ${v.kind === 'network' ? 'a connection to' : v.kind === 'read' ? 'reading' : 'writing'} ${v.target}: ${v.why}`);
  const parts = [renderTemplate(sections.get('blocked') ?? 'The sandbox blocked:\n${LIST}', { LIST: lines.join('\n') })];
  const hosts = [...new Set(blocked.filter((v) => v.kind === 'network').map((v) => hostToAllow(v.target)))].slice(0, MAX_HOST_QUESTIONS);
  const allowed: string[] = [];
  for (const host of hosts) {
    if (!ctx.ui.requestApproval || ctx.signal.aborted) break;
    const decision = await ctx.ui
      .requestApproval({ kind: 'sandbox_host', toolName: 'run_command', title: `The sandbox blocked a connection to ${host}. Allow it?`, args: JSON.stringify({ host }), host }, ctx.signal)
      .catch(() => ({ action: 'deny' as const }));
    if (decision.action === 'allow' || decision.action === 'always') {
      for (const name of namesOf(host)) await sandbox.allowHost(name, decision.action === 'always' ? 'always' : 'session');
      allowed.push(host);
    }
  }
  if (allowed.length) parts.push(renderTemplate(sections.get('hosts_allowed') ?? 'The user allowed ${HOSTS}: run the command again.', { HOSTS: allowed.join(', ') }));
  else {
    const kinds = new Set(blocked.map((v) => v.kind));
    for (const kind of ['write', 'read', 'network'] as const) if (kinds.has(kind)) parts.push(sections.get(`hint_${kind}`) ?? '');
  }
  return { ...result, output: `${result.output}\n\n${parts.filter(Boolean).join('\n')}` };
}

const LOOPBACK = /^(?:localhost|127\.0\.0\.1|\[::1\]):(\d+)$/;

/** A remote host is allowed on every port; a local server by its port alone (`localhost:3000`). */
function hostToAllow(target: string): string {
  return LOOPBACK.test(target) ? target.replace(/^(?:127\.0\.0\.1|\[::1\]):/, 'localhost:') : target.replace(/:\d+$/, '');
}

/** The proxy checks the name and the address it resolves to: a local server needs both spellings. */
function namesOf(host: string): string[] {
  const port = LOOPBACK.exec(host)?.[1];
  return port ? [`localhost:${port}`, `127.0.0.1:${port}`] : [host];
}

/** Hosts asked about after one command; more are listed but not asked about. */
const MAX_HOST_QUESTIONS = 3;

/** A terminal view must never break a command: its failures are swallowed. */
function safeView(make: () => CommandView | undefined): CommandView | undefined {
  let view: CommandView | undefined;
  try {
    view = make();
  } catch {
    return undefined;
  }
  if (!view) return undefined;
  const inner = view;
  return {
    write(chunk) {
      try {
        inner.write(chunk);
      } catch {
        // the view is gone; the command goes on
      }
    },
    end(outcome) {
      try {
        inner.end(outcome);
      } catch {
        // idem
      }
    },
  };
}
