import { childProcess } from '../lazy-builtins';
import { childEnv } from './child-env';
import { afterExitGrace } from './exit-grace';
import { HeadTailBuffer } from './output-buffer';
import { groupAlive, shellCommand, terminateGroup, trackGroup, untrackGroup } from './process-group';
import { collapseCarriageReturns, TerminalTextCleaner } from './terminal-text';
import type { ResolvedShell } from './session-shell';

/** How a foreground command ended. */
export type ForegroundStatus = 'exited' | 'idle_timeout' | 'timeout' | 'aborted' | 'spawn_error';

export interface ForegroundRequest {
  command: string;
  /** The line the shell runs when it is not `command` itself (the sandbox's wrapper around it). */
  launch?: string;
  /** The session's shell and the environment its profile set up; absent: bash and our own environment. */
  shell?: ResolvedShell;
  cwd: string;
  /** Added to the inherited environment (which has no secret variables: see child-env.ts). */
  env: Record<string, string>;
  idleMs: number;
  absoluteMs: number;
  /** SIGTERM → SIGKILL delay when the command is stopped. */
  killGraceMs: number;
  headChars: number;
  tailChars: number;
  signal?: AbortSignal;
  /** Raw output as it arrives (stdout and stderr in arrival order), for the live view. */
  onData?: (chunk: string) => void;
  onSpawn?: (pid: number) => void;
}

export interface ForegroundOutcome {
  status: ForegroundStatus;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The cleaned output, head and tail kept within the budget. */
  output: string;
  lines: number;
  chars: number;
  truncated: boolean;
  durationMs: number;
  /** The limits it ran under. */
  idleMs: number;
  absoluteMs: number;
  pid?: number;
  /** Processes the command started in the background were still running when it returned (their group is `pid`). */
  strays: boolean;
  error?: string;
}

/** After the shell exits, how long to wait for its pipes to close (a backgrounded grandchild may hold them). */
const DRAIN_MS = 200;

/**
 * Stage 4–6 for a foreground command: `bash -c` with stdin from /dev/null and piped output, leading
 * its own process group; output kept head/tail and streamed; idle and absolute timeouts and an
 * abort kill the whole group (SIGTERM, then SIGKILL after the grace period).
 */
export function runForeground(req: ForegroundRequest): Promise<ForegroundOutcome> {
  const started = Date.now();
  const buffer = new HeadTailBuffer(req.headChars, req.tailChars);
  const cleaner = new TerminalTextCleaner();
  return new Promise((resolve) => {
    let status: ForegroundStatus = 'exited';
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let done = false;
    let stopping = false;
    let idleTimer: NodeJS.Timeout | undefined;
    let absoluteTimer: NodeJS.Timeout | undefined;
    let drain: { cancel(): void } | undefined;

    const line = req.launch ?? req.command;
    const { file, args } = req.shell ? { file: req.shell.file, args: req.shell.args(line) } : shellCommand(line);
    const child = childProcess().spawn(file, args, {
      cwd: req.cwd,
      env: childEnv(req.env, req.shell?.env),
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const pid = child.pid;
    if (pid !== undefined) {
      trackGroup(pid);
      req.onSpawn?.(pid);
    }

    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(idleTimer);
      clearTimeout(absoluteTimer);
      drain?.cancel();
      req.signal?.removeEventListener('abort', onAbort);
      child.stdout?.removeAllListeners('data');
      child.stderr?.removeAllListeners('data');
      child.stdout?.destroy();
      child.stderr?.destroy();
      const tailText = cleaner.flush();
      if (tailText) buffer.append(tailText);
      // Still-running members stay tracked (killed at exit); after a stop the SIGKILL is on its way.
      const lingering = pid !== undefined && groupAlive(pid);
      const strays = lingering && status === 'exited';
      if (pid !== undefined && !lingering) untrackGroup(pid);
      resolve({
        status: error ? 'spawn_error' : status,
        exitCode,
        signal: exitSignal,
        output: collapseCarriageReturns(buffer.text()),
        lines: buffer.lines,
        chars: buffer.totalChars,
        truncated: buffer.truncated,
        durationMs: Date.now() - started,
        idleMs: req.idleMs,
        absoluteMs: req.absoluteMs,
        ...(pid !== undefined ? { pid } : {}),
        strays,
        ...(error ? { error } : {}),
      });
    };

    const stop = (why: ForegroundStatus) => {
      if (stopping || done) return;
      stopping = true;
      status = why;
      if (pid !== undefined) void terminateGroup(pid, req.killGraceMs);
    };
    const onAbort = () => stop('aborted');
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => stop('idle_timeout'), req.idleMs);
    };

    const onData = (chunk: string) => {
      armIdle();
      req.onData?.(chunk);
      const text = cleaner.push(chunk);
      if (text) buffer.append(text);
    };
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', (err) => finish(err.message));
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Usually 'close' follows at once; if a background grandchild holds the pipes, stop waiting.
      drain = afterExitGrace(DRAIN_MS, () => finish());
    });
    child.on('close', () => finish());

    if (pid === undefined) return; // 'error' follows
    armIdle();
    absoluteTimer = setTimeout(() => stop('timeout'), req.absoluteMs);
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
