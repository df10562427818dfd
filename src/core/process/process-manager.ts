import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { opendevPaths } from '../config/opendev-home';
import { mkdirPrivateSync } from '../config/private-files';
import type { CommandView } from '../host';
import { BackgroundTask, type TaskInfo } from './background-task';
import { runForeground, type ForegroundOutcome } from './foreground-runner';
import { signalGroup, groupAlive, untrackGroup } from './process-group';
import { loadPty, type PtyModule } from './pty-loader';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { ResolvedShell, SessionShell } from './session-shell';

/** Every limit of run_command and the background tasks (appendix E and I); tests shorten them. */
export interface ProcessLimits {
  /** A foreground command printing nothing for this long is stopped. Paper: 60 s. */
  idleMs: number;
  /** A foreground command running this long is stopped. Paper: 600 s. */
  absoluteMs: number;
  /** The most the `timeout` argument may ask for. */
  maxAbsoluteMs: number;
  /** How long run_command waits on a new background task (or until it exits) before returning its output so far. Paper: 20 s. */
  initialWindowMs: number;
  /** kill_process: SIGTERM, then SIGKILL after this. Paper: 5 s. */
  killGraceMs: number;
  /** Timeout and Stop: SIGTERM, then SIGKILL after this. */
  stopGraceMs: number;
  /** The model sees at most head + tail characters of any output. Paper: 30k. */
  outputHeadChars: number;
  outputTailChars: number;
  /** get_process_output shows this many last lines. Paper: 100. */
  tailLines: number;
  /** Background tasks running at once. */
  maxRunningTasks: number;
  /** Finished tasks remembered by list_processes. */
  maxFinishedTasks: number;
  /** A task's output file stops growing at this size. */
  maxTaskFileBytes: number;
}

export const DEFAULT_PROCESS_LIMITS: Readonly<ProcessLimits> = {
  idleMs: 60_000,
  absoluteMs: 600_000,
  maxAbsoluteMs: 3_600_000,
  initialWindowMs: 20_000,
  killGraceMs: 5_000,
  stopGraceMs: 2_000,
  outputHeadChars: 10_000,
  outputTailChars: 20_000,
  tailLines: 100,
  maxRunningTasks: 16,
  maxFinishedTasks: 50,
  maxTaskFileBytes: 50 * 1024 * 1024,
};

export interface ProcessManagerOptions {
  limits?: Partial<ProcessLimits>;
  /** Where task output files go; default `OPENDEV_HOME/scratch/<manager id>/tasks`. Removed on dispose when it is the default. */
  tasksDir?: string;
  /** OPENDEV_HOME, for the default tasks folder. */
  home?: string;
  /** `false`: background tasks use pipes even when node-pty loads (tests of the fallback). */
  usePty?: boolean;
  /** More places to load node-pty from (VS Code's own copy). */
  ptyPaths?: readonly string[];
  /** The OS sandbox the session's commands run in (run_command wraps them); absent: they run as the user. */
  sandbox?: CommandSandbox;
  /** The user's shell and the environment their profile sets up (read once, by the first command); absent: bash and our own environment. */
  shell?: SessionShell;
}

export type TaskListener = (info: TaskInfo) => void;

export class TaskNotFoundError extends Error {}

/**
 * The processes of one agent session: foreground commands while they run, background tasks with
 * their output files, and the groups that foreground commands left running. One per main agent
 * (its subagents share it). `dispose()` kills everything; groups still alive when Node exits are
 * killed by the exit hook in process-group.ts.
 */
export class ProcessManager {
  readonly id = randomBytes(4).toString('hex');
  readonly limits: ProcessLimits;
  private readonly tasks = new Map<string, BackgroundTask>();
  private readonly listeners = new Set<TaskListener>();
  private readonly foreground = new Set<number>();
  private readonly strays = new Set<number>();
  private readonly tasksDir: string;
  private readonly ownsTasksDir: boolean;
  private pty: PtyModule | undefined | null = null; // null: not tried yet
  private ptyError: string | undefined;
  private disposed = false;

  constructor(private readonly options: ProcessManagerOptions = {}) {
    this.limits = { ...DEFAULT_PROCESS_LIMITS, ...options.limits };
    this.ownsTasksDir = options.tasksDir === undefined;
    this.tasksDir = options.tasksDir ?? join(opendevPaths(options.home).scratchDir, this.id, 'tasks');
  }

  /** How background tasks run here: `pty`, or `pipe` with the reason node-pty did not load. */
  backgroundMode(): { mode: 'pty' | 'pipe'; reason?: string } {
    const pty = this.loadPtyOnce();
    return pty ? { mode: 'pty' } : { mode: 'pipe', reason: this.ptyError ?? 'disabled' };
  }

  /** The sandbox of the session's commands, if it has one. */
  get sandbox(): CommandSandbox | undefined {
    return this.options.sandbox;
  }

  /** The session's shell, its environment read from the profile the first time this is asked; undefined when the session has none. */
  get shell(): SessionShell | undefined {
    return this.options.shell;
  }

  async runForeground(req: {
    command: string;
    /** What the shell runs instead of `command` (the sandbox's wrapper). */
    launch?: string;
    shell?: ResolvedShell;
    cwd: string;
    env: Record<string, string>;
    /** Overrides the absolute limit (capped at maxAbsoluteMs); the idle limit grows with it. */
    timeoutMs?: number;
    signal?: AbortSignal;
    view?: CommandView;
  }): Promise<ForegroundOutcome> {
    this.assertUsable();
    const absoluteMs = Math.min(req.timeoutMs ?? this.limits.absoluteMs, this.limits.maxAbsoluteMs);
    // A caller who says "this takes 5 minutes" knows it may be quiet for a while.
    const idleMs = Math.min(Math.max(this.limits.idleMs, req.timeoutMs ?? 0), absoluteMs);
    let pid: number | undefined;
    const outcome = await runForeground({
      command: req.command,
      ...(req.launch ? { launch: req.launch } : {}),
      ...(req.shell ? { shell: req.shell } : {}),
      cwd: req.cwd,
      env: req.env,
      idleMs,
      absoluteMs,
      killGraceMs: this.limits.stopGraceMs,
      headChars: this.limits.outputHeadChars,
      tailChars: this.limits.outputTailChars,
      signal: req.signal,
      onData: req.view ? (chunk) => req.view!.write(chunk) : undefined,
      onSpawn: (p) => {
        pid = p;
        this.foreground.add(p);
      },
    });
    if (pid !== undefined) {
      this.foreground.delete(pid);
      if (outcome.strays) this.strays.add(pid);
    }
    return outcome;
  }

  /** Starts a background task; its terminal view (if any) is made once the id is known. */
  startBackground(req: {
    command: string;
    /** What the shell runs instead of `command` (the sandbox's wrapper). */
    launch?: string;
    shell?: ResolvedShell;
    cwd: string;
    env: Record<string, string>;
    promotedBy?: string;
    view?: (taskId: string) => CommandView | undefined;
  }): TaskInfo {
    this.assertUsable();
    const running = [...this.tasks.values()].filter((t) => t.running).length;
    if (running >= this.limits.maxRunningTasks) {
      throw new Error(`${running} background tasks are already running (the limit is ${this.limits.maxRunningTasks}). Stop one with kill_process first (list_processes shows them).`);
    }
    mkdirPrivateSync(this.tasksDir);
    const id = this.newTaskId();
    const task = new BackgroundTask({
      id,
      command: req.command,
      ...(req.launch ? { launch: req.launch } : {}),
      ...(req.shell ? { shell: req.shell } : {}),
      cwd: req.cwd,
      env: req.env,
      outputFile: join(this.tasksDir, `${id}.log`),
      pty: this.loadPtyOnce(),
      headChars: this.limits.outputHeadChars,
      tailChars: this.limits.outputTailChars,
      keepLines: Math.max(this.limits.tailLines, 1) * 2,
      maxFileBytes: this.limits.maxTaskFileBytes,
      ...(req.promotedBy ? { promotedBy: req.promotedBy } : {}),
    });
    const view = req.view?.(id);
    if (view) {
      task.onOutput((chunk) => view.write(chunk));
      task.onEnd((info) =>
        view.end({
          exitCode: info.exitCode,
          ...(info.signal ? { signal: info.signal } : {}),
          status: info.state === 'KILLED' ? 'killed' : info.state === 'COMPLETED' ? 'completed' : 'failed',
        }),
      );
    }
    task.onEnd((info) => this.emit(info));
    task.start();
    this.tasks.set(id, task);
    this.pruneFinished();
    const info = task.snapshot();
    this.emit(info);
    return info;
  }

  /** Waits until the task ends, `ms` pass, or the signal aborts (the task keeps running then). */
  async waitForTask(id: string, ms: number, signal?: AbortSignal): Promise<TaskInfo> {
    const task = this.task(id);
    if (!task.running) return task.snapshot();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      task.ended,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = () => resolve();
        if (signal?.aborted) resolve();
        else signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return task.snapshot();
  }

  get(id: string): TaskInfo | undefined {
    return this.tasks.get(id)?.snapshot();
  }

  list(): TaskInfo[] {
    return [...this.tasks.values()].map((t) => t.snapshot());
  }

  /** All output so far (head/tail within the budget). */
  output(id: string): { text: string; truncated: boolean; lines: number } {
    return this.task(id).output();
  }

  lastLines(id: string, n = this.limits.tailLines): { lines: string[]; total: number } {
    return this.task(id).lastLines(n);
  }

  /** SIGTERM to the task's group, SIGKILL after the grace period. */
  kill(id: string, graceMs = this.limits.killGraceMs): Promise<TaskInfo> {
    return this.task(id).kill(graceMs);
  }

  onTaskChange(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Kills every task and every group a command left behind: SIGTERM now, SIGKILL after the stop
   * grace period (or at process exit, whichever comes first). Foreground commands end through
   * their turn's abort; their groups are signalled here too in case the turn outlives the agent.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const task of this.tasks.values()) task.killNow(this.limits.stopGraceMs);
    this.options.sandbox?.dispose();
    for (const pid of [...this.foreground, ...this.strays]) {
      if (!groupAlive(pid)) {
        untrackGroup(pid);
        continue;
      }
      signalGroup(pid, 'SIGTERM');
      setTimeout(() => {
        if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
        untrackGroup(pid);
      }, this.limits.stopGraceMs).unref();
    }
    this.strays.clear();
    const tasks = [...this.tasks.values()];
    if (this.ownsTasksDir) {
      // The output files go with the session, once every task has let go of its file.
      void Promise.all(tasks.map((t) => t.ended)).then(() => rmSync(join(this.tasksDir, '..'), { recursive: true, force: true }));
    }
  }

  /** dispose(), then waits until every task has ended (tests, orderly shutdown). */
  async shutdown(): Promise<void> {
    const tasks = [...this.tasks.values()];
    this.dispose();
    await Promise.all(tasks.map((t) => t.kill(this.limits.stopGraceMs)));
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  private task(id: string): BackgroundTask {
    const task = this.tasks.get(id.trim().toLowerCase());
    if (!task) {
      const known = [...this.tasks.keys()];
      throw new TaskNotFoundError(
        `No background task with id "${id}". ${known.length ? `Known tasks: ${known.join(', ')}.` : 'No background tasks have been started.'} Use list_processes to see them.`,
      );
    }
    return task;
  }

  private newTaskId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex').slice(0, 7);
      if (!this.tasks.has(id)) return id;
    }
  }

  private loadPtyOnce(): PtyModule | undefined {
    if (this.options.usePty === false) {
      this.ptyError = 'node-pty is turned off';
      return undefined;
    }
    if (this.pty === null) {
      const loaded = loadPty(this.options.ptyPaths);
      this.pty = loaded.ok ? loaded.pty : undefined;
      if (!loaded.ok) this.ptyError = `node-pty could not be loaded (${loaded.error})`;
    }
    return this.pty;
  }

  private pruneFinished(): void {
    const finished = [...this.tasks.values()].filter((t) => !t.running);
    for (const task of finished.slice(0, Math.max(0, finished.length - this.limits.maxFinishedTasks))) this.tasks.delete(task.id);
  }

  private emit(info: TaskInfo): void {
    for (const listener of this.listeners) {
      try {
        listener(info);
      } catch {
        // A listener's failure must not stop the task's bookkeeping.
      }
    }
  }

  private assertUsable(): void {
    if (this.disposed) throw new Error('the session that owned these processes has ended');
  }
}

let shared: ProcessManager | undefined;

/** The manager tools use when their context has none (a host that built its agent without one). */
export function defaultProcessManager(): ProcessManager {
  if (!shared || shared.isDisposed) shared = new ProcessManager();
  return shared;
}
