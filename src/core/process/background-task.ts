import { childProcess } from '../lazy-builtins';
import { createWriteStream, type WriteStream } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../config/private-files';
import { childEnv } from './child-env';
import { HeadTailBuffer, LineTail } from './output-buffer';
import { groupAlive, shellCommand, signalGroup, terminateGroup, trackGroup, untrackGroup } from './process-group';
import type { PtyModule } from './pty-loader';
import { collapseCarriageReturns, TerminalTextCleaner } from './terminal-text';
import type { ResolvedShell } from './session-shell';

export type TaskState = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'KILLED';

export interface TaskInfo {
  id: string;
  command: string;
  cwd: string;
  pid: number | undefined;
  state: TaskState;
  exitCode: number | null;
  /** The signal that ended it, when one did. */
  signal: string | null;
  startedAt: number;
  endedAt: number | undefined;
  /** Raw output (terminal escapes included), also while it runs. */
  outputFile: string;
  /** `pty` normally; `pipe` when node-pty could not load. */
  mode: 'pty' | 'pipe';
  /** Why it runs in the background when the model did not ask for it. */
  promotedBy?: string;
  /** Total lines printed so far. */
  lines: number;
}

export interface BackgroundTaskOptions {
  id: string;
  command: string;
  /** The line the shell runs when it is not `command` itself (the sandbox's wrapper around it). */
  launch?: string;
  /** The session's shell and the environment its profile set up; absent: bash and our own environment. */
  shell?: ResolvedShell;
  cwd: string;
  env: Record<string, string>;
  outputFile: string;
  pty: PtyModule | undefined;
  headChars: number;
  tailChars: number;
  /** Lines kept in memory for get_process_output. */
  keepLines: number;
  /** The output file stops growing past this size (a note says so). */
  maxFileBytes: number;
  promotedBy?: string;
}

/** After an exit, output that is quiet this long is complete (node-pty delivers late data). */
const QUIET_MS = 100;
const SETTLE_MAX_MS = 2_000;
const isWindows = process.platform === 'win32';
/** An OSC sequence no program prints: the shell's last output, stripped before anyone sees it. */
const DONE_MARKER = '\x1b]777;opendev-done\x07';
/**
 * An EXIT trap prints it however the shell ends (also on `exit N`), keeping the exit status, then
 * waits for a line on its terminal (echo off), which the task writes once it has read the marker.
 */
const DONE_MARKER_TRAP = `trap 'stty -echo 2>/dev/null; printf "\\033]777;opendev-done\\007"; read _ 2>/dev/null' EXIT`;

/** Finds the done marker in the PTY stream (it may be split across chunks) and removes it. */
class DoneMarker {
  seen = false;
  private carry = '';
  private waiter: (() => void) | undefined;

  strip(chunk: string): string {
    const text = this.carry + chunk;
    this.carry = '';
    const at = text.indexOf(DONE_MARKER);
    if (at >= 0) {
      this.seen = true;
      const waiter = this.waiter;
      this.waiter = undefined;
      queueMicrotask(() => waiter?.());
      return text.slice(0, at) + text.slice(at + DONE_MARKER.length);
    }
    // Keep a possible start of the marker for the next chunk.
    for (let n = Math.min(DONE_MARKER.length - 1, text.length); n > 0; n--) {
      if (DONE_MARKER.startsWith(text.slice(-n))) {
        this.carry = text.slice(-n);
        return text.slice(0, -n);
      }
    }
    return text;
  }

  /** Calls `then` when the marker arrives, or after `maxMs` (the command used `exit`, or was killed). */
  onSeen(then: () => void, maxMs: number): void {
    let done = false;
    const once = () => {
      if (!done) {
        done = true;
        then();
      }
    };
    this.waiter = once;
    setTimeout(once, maxMs).unref();
  }
}
const PTY_COLS = 120;
const PTY_ROWS = 40;

/**
 * One background task: a shell running the command in a pseudo-terminal (or pipes), leading its own
 * process group. Output goes to its file, to listeners (the terminal tab) and into two bounded
 * in-memory copies: head/tail text for run_command's first answer, the last lines for
 * get_process_output. States: RUNNING → COMPLETED (exit 0) / FAILED / KILLED (by kill_process,
 * its tab, or the end of the session).
 */
export class BackgroundTask {
  private readonly info: TaskInfo;
  private readonly buffer: HeadTailBuffer;
  private readonly tail: LineTail;
  private readonly cleaner = new TerminalTextCleaner();
  private readonly file: WriteStream;
  private fileBytes = 0;
  private lastDataAt = Date.now();
  private readonly markers = new DoneMarker();
  private readonly dataListeners = new Set<(chunk: string) => void>();
  private readonly endListeners = new Set<(info: TaskInfo) => void>();
  private killedByUs = false;
  readonly ended: Promise<TaskInfo>;
  private resolveEnded!: (info: TaskInfo) => void;

  constructor(private readonly options: BackgroundTaskOptions) {
    this.buffer = new HeadTailBuffer(options.headChars, options.tailChars);
    this.tail = new LineTail(options.keepLines);
    this.file = createWriteStream(options.outputFile, { flags: 'a', mode: PRIVATE_FILE_MODE });
    this.file.on('error', () => {}); // a full disk must not crash the host; the in-memory copies remain
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.info = {
      id: options.id,
      command: options.command,
      cwd: options.cwd,
      pid: undefined,
      state: 'RUNNING',
      exitCode: null,
      signal: null,
      startedAt: Date.now(),
      endedAt: undefined,
      outputFile: options.outputFile,
      mode: options.pty ? 'pty' : 'pipe',
      lines: 0,
      ...(options.promotedBy ? { promotedBy: options.promotedBy } : {}),
    };
  }

  /** Starts the process; throws when it cannot be spawned. */
  start(): void {
    const line = this.options.launch ?? this.options.command;
    const shell = this.options.shell;
    const { file, args } = shell ? { file: shell.file, args: shell.args(line) } : shellCommand(line);
    const env = childEnv(this.options.env, shell?.env);
    if (this.options.pty) {
      // node-pty may report the exit before the last output, and closes the terminal 200 ms after the
      // exit whether its output has been read or not (after a stall on a loaded machine, it has not:
      // the last 4 KB were lost). So the shell prints a marker after the command (in order, after all
      // output) and does not exit until told that the marker has arrived; the task ends after both.
      const marked = isWindows || (shell && shell.family !== 'posix') ? args : [...args.slice(0, -1), `${DONE_MARKER_TRAP}\n${args[args.length - 1]}`];
      const proc = this.options.pty.spawn(file, marked, { name: 'xterm-256color', cols: PTY_COLS, rows: PTY_ROWS, cwd: this.options.cwd, env });
      this.info.pid = proc.pid;
      let released = false;
      proc.onData((data) => {
        const text = this.markers.strip(data);
        if (this.markers.seen && !released) {
          released = true;
          try {
            proc.write('\n');
          } catch {
            // the terminal is gone already: the shell has exited
          }
        }
        this.onData(text);
      });
      proc.onExit(({ exitCode, signal }) => {
        const end = () => this.onExit(signal ? null : exitCode, signal ? signalName(signal) : null);
        if (this.markers.seen || isWindows) this.whenQuiet(end);
        else this.markers.onSeen(end, SETTLE_MAX_MS);
      });
    } else {
      const child = childProcess().spawn(file, args, { cwd: this.options.cwd, env, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      this.info.pid = child.pid;
      child.stdout!.setEncoding('utf8');
      child.stderr!.setEncoding('utf8');
      child.stdout!.on('data', (d: string) => this.onData(d));
      child.stderr!.on('data', (d: string) => this.onData(d));
      child.on('error', (err) => {
        this.onData(`${err.message}\n`);
        this.onExit(null, null);
      });
      // 'close' comes after both pipes have ended, so no output is lost; a grandchild holding the
      // pipes open must not keep the task RUNNING, hence the quiet-period fallback after 'exit'.
      child.on('close', (code, signal) => this.onExit(code, signal));
      child.on('exit', (code, signal) => this.whenQuiet(() => this.onExit(code, signal)));
    }
    if (this.info.pid !== undefined) trackGroup(this.info.pid);
  }

  get id(): string {
    return this.info.id;
  }

  snapshot(): TaskInfo {
    return { ...this.info, lines: this.tail.totalLines };
  }

  get running(): boolean {
    return this.info.state === 'RUNNING';
  }

  /** Everything printed so far, cleaned, head and tail within the budget. */
  output(): { text: string; truncated: boolean; lines: number } {
    return { text: collapseCarriageReturns(this.buffer.text()), truncated: this.buffer.truncated, lines: this.buffer.lines };
  }

  /** The last `n` lines (cleaned), and how many there were in all. */
  lastLines(n: number): { lines: string[]; total: number } {
    return { lines: this.tail.last(n).map((l) => collapseCarriageReturns(l)), total: this.tail.totalLines };
  }

  onOutput(listener: (chunk: string) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onEnd(listener: (info: TaskInfo) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves with the final state. */
  async kill(graceMs: number): Promise<TaskInfo> {
    const pid = this.info.pid;
    if (this.running) this.killedByUs = true;
    if (pid !== undefined && (this.running || groupAlive(pid))) await terminateGroup(pid, graceMs);
    if (this.running) {
      // The group is gone; wait briefly for the exit event to settle the state.
      await Promise.race([this.ended, new Promise((r) => setTimeout(r, 1000))]);
    }
    if (this.running) this.onExit(null, 'SIGKILL');
    return this.snapshot();
  }

  /** Immediate SIGTERM (and SIGKILL later, without waiting): for disposal. */
  killNow(graceMs: number): void {
    const pid = this.info.pid;
    if (this.running) this.killedByUs = true;
    if (pid === undefined || !groupAlive(pid)) return;
    signalGroup(pid, 'SIGTERM');
    setTimeout(() => {
      if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
    }, graceMs).unref();
  }

  private onData(raw: string): void {
    this.lastDataAt = Date.now();
    if (this.fileBytes < this.options.maxFileBytes) {
      const bytes = Buffer.byteLength(raw);
      this.fileBytes += bytes;
      this.file.write(raw);
      if (this.fileBytes >= this.options.maxFileBytes) {
        this.file.write(`\n[OpenDev: the output file reached ${this.options.maxFileBytes} bytes; later output is not written here]\n`);
      }
    }
    for (const listener of this.dataListeners) listener(raw);
    const text = this.cleaner.push(raw);
    if (text) {
      this.buffer.append(text);
      this.tail.append(text);
    }
  }

  /** Runs `then` once no output has arrived for QUIET_MS (at most SETTLE_MAX_MS after the exit). */
  private whenQuiet(then: () => void): void {
    const exitedAt = Date.now();
    const check = () => {
      const now = Date.now();
      if (now - this.lastDataAt >= QUIET_MS || now - exitedAt >= SETTLE_MAX_MS) then();
      else setTimeout(later, QUIET_MS / 4);
    };
    // Timers run before the loop reads the pipes: after a stall (a loaded machine) output may be
    // waiting unread. setImmediate comes after that read, so "quiet" is judged on what has arrived.
    const later = () => setImmediate(check);
    setTimeout(later, QUIET_MS / 4);
  }

  private onExit(exitCode: number | null, signal: string | null): void {
    if (!this.running) return;
    const rest = this.cleaner.flush();
    if (rest) {
      this.buffer.append(rest);
      this.tail.append(rest);
    }
    this.info.exitCode = exitCode;
    this.info.signal = signal;
    this.info.endedAt = Date.now();
    this.info.state = this.killedByUs ? 'KILLED' : exitCode === 0 ? 'COMPLETED' : 'FAILED';
    this.file.end();
    const pid = this.info.pid;
    if (pid !== undefined && !groupAlive(pid)) untrackGroup(pid);
    const info = this.snapshot();
    this.resolveEnded(info);
    for (const listener of this.endListeners) listener(info);
  }
}

const SIGNALS: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 13: 'SIGPIPE', 15: 'SIGTERM' };

function signalName(n: number): string {
  return SIGNALS[n] ?? `signal ${n}`;
}
