import { join } from 'node:path';
import type { ToolLifecycle } from '../tools/tool-lifecycle';
import { opendevPaths } from '../config/opendev-home';
import type { ToolCall } from '../messages';
import { argumentsObject } from '../tools/call-arguments';
import { encodeProjectPath } from '../config/project-folder';
import type { ToolResult } from '../tools/tool';
import { describeHistory, describeUndo, type StepSummary, type UndoOutcome } from './describe-undo';
import { gcIfDue } from './gc-schedule';
import { OperationLog, type InterruptedStep, type SessionHistory, type StepRecord } from './operation-log';
import { restoreStep } from './restore-step';
import { logUndoRecord } from './undo-log';
import type { Logger } from '../logger';
import { SnapshotScheduler, TIMED_OUT, type SnapshotResult } from './snapshot-scheduler';
import { ShadowRepo } from './shadow-repo';
import { SnapshotTaker, DEFAULT_MAX_FILE_BYTES, type Snapshot, type SkippedFile } from './snapshot-taker';

export interface UndoSettings {
  /**
   * How long a step waits for the snapshot before its first write; past it the step goes on
   * without one (and cannot be undone). The snapshot after a step runs in the background and may
   * take five times as long before it is abandoned.
   */
  budgetMs: number;
  /** Files over this size are not snapshotted (and said so). */
  maxFileBytes: number;
  /** Take a first snapshot as the session starts, so the first step's is incremental. */
  warmUp: boolean;
}

export const DEFAULT_UNDO_SETTINGS: UndoSettings = { budgetMs: 2000, maxFileBytes: DEFAULT_MAX_FILE_BYTES, warmUp: true };

/** The after-step snapshot is off the critical path: it may take this many budgets. */
const BACKGROUND_BUDGET_FACTOR = 5;

export interface UndoManagerOptions {
  workspaceRoot: string;
  /** OPENDEV_HOME: the shadow repo lives in `snapshot/`, the operation log in `projects/`. */
  home: string;
  sessionId: string;
  /** Whether a tool can change files (not read-only; the todo tools change only the list). */
  changesFiles(toolName: string): boolean;
  onNotice?(message: string, level: 'info' | 'warning'): void;
  settings?: Partial<UndoSettings>;
  /**
   * When the warm-up snapshot starts: `start` is handed over (a session holds it until its first
   * model request has left, so git does not compete with it); default at once. A step that begins
   * first takes its own snapshot, and then there is no warm-up.
   */
  holdWarmUp?(start: () => void): void;
  /** Checkpoints, restores and problems, for the host's log. */ trail?: Logger;
}

interface OpenStep {
  baseline: Promise<SnapshotResult>;
  tools: string[];
  /** Ids of the calls that ran in the step (the chat finds its tool cards by them). */
  calls: string[];
}

/**
 * Undo for one session (§2.5.2). Every call that may change files is recorded in the operation log;
 * the first one of a step waits (within the budget) for a snapshot of the workspace as it is and for
 * the step's start record to be flushed to disk, and when the step ends a second snapshot is taken in
 * the background. The two trees say exactly which paths the step changed, a shell command's side
 * effects included. /undo writes those paths back. A step its process never finished (a crash) is
 * closed when the session is opened again, against the files as they are then.
 */
export class UndoManager {
  readonly lifecycle: ToolLifecycle;
  private readonly settings: UndoSettings;
  private readonly repo: ShadowRepo;
  private readonly snapshots: SnapshotScheduler;
  private readonly log: OperationLog;
  private readonly background = new Set<Promise<unknown>>();
  /** Steps whose after-snapshot (which records them) is still being taken. */
  private readonly pendingSteps = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  private readonly undone = new Set<number>();
  private readonly noticedOversized = new Set<string>();
  /** Ids of file-changing calls that passed every check and are running. */
  private readonly running = new Set<string>();
  private stepCount = 0;
  private open: OpenStep | undefined;
  private housekeeping: Promise<unknown> = Promise.resolve();

  /**
   * The manager for a session, with its earlier steps when the session id was used before (a host
   * that resumes a session under its own id): numbering goes on, and /undo reaches those steps too.
   */
  static async open(options: UndoManagerOptions): Promise<UndoManager> {
    const history = await new OperationLog(operationLogPath(options)).readSession(options.sessionId);
    return new UndoManager(options, history);
  }

  constructor(
    private readonly options: UndoManagerOptions,
    history?: SessionHistory,
  ) {
    this.settings = { ...DEFAULT_UNDO_SETTINGS, ...options.settings };
    this.repo = new ShadowRepo(join(opendevPaths(options.home).snapshotDir, encodeProjectPath(options.workspaceRoot)), options.workspaceRoot, options.sessionId);
    const taker = new SnapshotTaker(this.repo, { opendevHome: options.home, maxFileBytes: this.settings.maxFileBytes });
    this.snapshots = new SnapshotScheduler(this.repo, taker, this.abort.signal, (m) => this.warn(m));
    this.log = new OperationLog(operationLogPath(options), (m) => this.warn(m), (record) => logUndoRecord(options.trail, record));
    if (history) {
      this.log.seed(history.steps);
      for (const n of history.undone) this.undone.add(n);
      this.stepCount = history.lastStep;
    }
    this.lifecycle = { before: (call) => this.beforeCall(call), after: (call, result) => this.afterCall(call, result) };
    const interrupted = history?.interrupted ?? [];
    if (interrupted.length > 0) {
      // Taken before any step of this process can write: the files as the interrupted steps left them.
      const first = this.snapshots.snapshot(Infinity);
      this.track(first);
      this.track(this.closeInterrupted(interrupted, first));
      if (this.settings.warmUp) this.houseKeepAfter(first);
    } else if (this.settings.warmUp) {
      const start = () => {
        if (this.abort.signal.aborted || this.open || this.stepCount > 0) return;
        const first = this.snapshots.snapshot(Infinity);
        this.track(first);
        this.houseKeepAfter(first);
      };
      if (options.holdWarmUp) options.holdWarmUp(start);
      else start();
    }
  }

  /** Housekeeping after the first snapshot, outside the queue (git allows gc beside add); /undo never waits for it. */
  private houseKeepAfter(first: Promise<unknown>): void {
    const gc = first.then(() => (this.abort.signal.aborted ? undefined : gcIfDue(this.repo, { signal: this.abort.signal })));
    this.housekeeping = gc.catch(() => undefined);
  }

  /** The operations recorded in memory (the last 50). */
  get operations(): OperationLog['operations'] {
    return this.log.operations;
  }

  /** The executor's step boundary: the step's after-snapshot is taken off the critical path. */
  afterStep(_calls: readonly ToolCall[], _results: readonly ToolResult[]): void {
    this.stepCount++;
    const open = this.open;
    this.open = undefined;
    if (!open) return;
    const finishing = this.finishStep(this.stepCount, open).finally(() => this.pendingSteps.delete(finishing));
    this.pendingSteps.add(finishing);
    this.track(finishing);
  }

  /** `/undo`: the newest step that changed files and is not undone yet. */
  async undoLast(): Promise<UndoOutcome> {
    await this.idle();
    const last = this.log.steps.filter((s) => !this.undone.has(s.step)).at(-1);
    if (!last) return nothingToUndo(this.log.steps.length > 0);
    return this.undoSteps([last]);
  }

  /** `/undo <step>`: the files as they were just before `step` (it and every later step undone). */
  async restoreTo(step: number): Promise<UndoOutcome> {
    await this.idle();
    let steps = this.log.steps.filter((s) => s.step >= step);
    const oldestInMemory = this.log.steps[0]?.step ?? Infinity;
    if (step < oldestInMemory) {
      const disk = await this.log.readSession(this.options.sessionId);
      for (const n of disk.undone) this.undone.add(n);
      steps = disk.steps.filter((s) => s.step >= step);
    }
    const todo = steps.filter((s) => !this.undone.has(s.step)).sort((a, b) => b.step - a.step);
    if (todo.length === 0) return { status: 'nothing', message: step > this.stepCount ? `There is no step ${step} yet (this session has had ${this.stepCount}).` : `Nothing to undo from step ${step} on: no later step changed files, or they are undone already.` };
    return this.undoSteps(todo);
  }

  /** The steps that changed files (the last 50), for `/undo list`. */
  history(): StepSummary[] {
    return this.log.steps.map((s) => this.summary(s));
  }

  /**
   * Every step of this session that changed files, earlier processes' included (from the operation
   * log, with what is still only in memory), once the snapshots being taken are in.
   */
  async stepHistory(): Promise<StepSummary[]> {
    await this.idle();
    const disk = await this.log.readSession(this.options.sessionId);
    for (const n of disk.undone) this.undone.add(n);
    const steps = new Map(disk.steps.map((s) => [s.step, s]));
    for (const s of this.log.steps) steps.set(s.step, s);
    return [...steps.values()].sort((a, b) => a.step - b.step).map((s) => this.summary(s));
  }

  private summary(s: StepRecord): StepSummary {
    return { step: s.step, tools: s.tools, changed: s.changed.length, at: s.at, undone: this.undone.has(s.step), calls: s.calls ?? [] };
  }

  /** `/undo list`, once the snapshots still being taken are in. */
  async describeHistory(): Promise<string> {
    await this.idle();
    return describeHistory(this.history());
  }

  /** Resolves when every snapshot and log write started so far has finished. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.snapshots.idle();
    await this.log.flushed();
  }

  /**
   * Stops running git processes and hands the session's index on to the next session. A step's
   * after-snapshot still being taken gets its background budget first: it is what records the step,
   * so a host that exits right after a turn (`opendev -p`) can undo it when the session is resumed.
   */
  async dispose(): Promise<void> {
    const budget = this.settings.budgetMs * BACKGROUND_BUDGET_FACTOR;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.pendingSteps]), new Promise((r) => (timer = setTimeout(r, budget)))]);
    clearTimeout(timer);
    this.abort.abort();
    await Promise.allSettled([...this.background, this.housekeeping]);
    await this.snapshots.idle();
    await this.repo.persistIndex().catch(() => undefined);
    await this.log.flushed();
  }

  private async beforeCall(call: ToolCall): Promise<{ proceed: true; call: ToolCall }> {
    if (!this.options.changesFiles(call.name)) return { proceed: true, call };
    if (this.snapshots.off) {
      this.running.add(call.id);
      return { proceed: true, call };
    }
    if (!this.open) this.open = { baseline: this.begin(this.stepCount + 1, call), tools: [], calls: [] };
    await this.open.baseline;
    this.running.add(call.id);
    return { proceed: true, call };
  }

  /** Calls that ran are logged; one refused earlier (hooks, approval) never reached `before` here. */
  private afterCall(call: ToolCall, result: ToolResult): void {
    if (!this.running.delete(call.id)) return;
    this.open?.tools.push(call.name);
    this.open?.calls.push(call.id);
    const args = argumentsObject(call);
    const paths = [args.file_path, args.path].filter((p): p is string => typeof p === 'string');
    const command = typeof args.command === 'string' ? args.command : undefined;
    this.log.recordOperation({ type: 'operation', session: this.options.sessionId, step: this.stepCount + 1, tool: call.name, paths, ...(command !== undefined ? { command } : {}), ok: result.ok, at: new Date().toISOString() });
  }

  /**
   * The step's before-state: a snapshot (within the budget), then its start record, flushed to disk
   * before the first call may write (the snapshot's objects are flushed by git as they are written).
   */
  private async begin(step: number, call: ToolCall): Promise<SnapshotResult> {
    const result = await this.snapshots.snapshot(this.settings.budgetMs);
    if (result === TIMED_OUT) this.warn(`Step ${step} cannot be undone: the snapshot before it took longer than ${this.settings.budgetMs} ms, so the step went ahead without it.`);
    if (!result || result === TIMED_OUT) return result;
    await this.log.recordStart({ type: 'start', session: this.options.sessionId, step, before: result.tree, oversized: result.oversized, tool: call.name, call: call.id, at: new Date().toISOString() });
    return result;
  }

  private async finishStep(step: number, open: OpenStep): Promise<void> {
    const before = await open.baseline;
    if (!before || before === TIMED_OUT) return;
    const afterBudget = this.settings.budgetMs * BACKGROUND_BUDGET_FACTOR;
    const after = await this.snapshots.snapshot(afterBudget);
    if (after === TIMED_OUT) this.warn(`Step ${step} cannot be undone: the snapshot after it took longer than ${afterBudget} ms and was abandoned.`);
    const record = after && after !== TIMED_OUT ? await this.stepRecord(step, before, after, open.tools, open.calls) : undefined;
    if (record) this.log.recordStep(record);
    // Stopped by dispose: left open, so the session's next process closes it (closeInterrupted).
    else if (!this.abort.signal.aborted) this.endStep(step);
  }

  /** The record of a step between two snapshots; undefined when it changed nothing (or the diff failed). */
  private async stepRecord(step: number, before: Pick<Snapshot, 'tree' | 'oversized'>, after: Snapshot, tools: readonly string[], calls: readonly string[]): Promise<StepRecord | undefined> {
    this.noticeOversized(after.oversized);
    const big = oversizedChanges(before.oversized, after.oversized);
    if (after.tree === before.tree && big.created.length === 0 && big.lost.length === 0) return undefined;
    const changed = await this.snapshots.exclusive(() => this.repo.diff(before.tree, after.tree)).catch(() => undefined);
    if (!changed) return undefined;
    // A file created over the cap has no snapshot, but undoing its creation needs none.
    for (const path of big.created) if (!changed.some((c) => c.path === path)) changed.push({ path, change: 'added' });
    return { type: 'step', session: this.options.sessionId, step, before: before.tree, after: after.tree, changed, skipped: big.lost, tools: [...new Set(tools)], calls: [...calls], at: new Date().toISOString() };
  }

  private endStep(step: number): void {
    this.log.recordEnd({ type: 'end', session: this.options.sessionId, step, at: new Date().toISOString() });
  }

  /**
   * Steps an earlier process of this session started and never closed (it was killed mid-step): each
   * one ends where the next one began, the last one at the files as they are now (`first`, taken
   * before this process writes anything). What they changed so far is then undoable like any step.
   */
  private async closeInterrupted(steps: readonly InterruptedStep[], first: Promise<SnapshotResult>): Promise<void> {
    const now = await first;
    for (const { start, tools, nextBefore } of steps) {
      if (this.abort.signal.aborted) return;
      const after = nextBefore ? { tree: nextBefore, oversized: start.oversized, newNestedRepos: [] } : now && now !== TIMED_OUT ? now : undefined;
      const kept = after && (await this.snapshots.exclusive(() => this.repo.hasTree(start.before)).catch(() => false));
      const record = kept ? await this.stepRecord(start.step, { tree: start.before, oversized: start.oversized }, after, tools, [start.call]) : undefined;
      if (this.abort.signal.aborted) return;
      if (record) {
        this.log.recordStep(record);
        this.options.onNotice?.(`Step ${start.step} was cut short (OpenDev stopped during it); the changes it made are recorded, and /undo undoes them.`, 'info');
      } else {
        if (!kept) this.warn(`Step ${start.step} was cut short (OpenDev stopped during it) and cannot be undone: ${after ? 'its snapshot is no longer in the snapshot store' : 'the files could not be snapshotted now'}.`);
        this.endStep(start.step);
      }
    }
  }

  private undoSteps(steps: StepRecord[]): Promise<UndoOutcome> {
    return this.snapshots.exclusive(async () => {
      for (const s of steps) {
        if (!(await this.repo.hasTree(s.before))) {
          return { status: 'failed' as const, message: `Step ${s.step} cannot be undone: its snapshot is no longer in the snapshot store (pruned after 7 days, or the store was re-created). Nothing was changed.` };
        }
      }
      const current = await this.snapshots.takeSafely();
      const newest = steps[0]!;
      const touched = new Set(steps.flatMap((s) => s.changed.map((c) => c.path)));
      const since = current ? await this.repo.diff(newest.after, current.tree).catch(() => []) : [];
      const restored = new Set<string>();
      const removed = new Set<string>();
      try {
        for (const s of steps) {
          const r = await restoreStep(this.repo, s);
          // Newest first: an older step's verdict on a path is the final one.
          for (const p of r.restored) {
            removed.delete(p);
            restored.add(p);
          }
          for (const p of r.removed) {
            restored.delete(p);
            removed.add(p);
          }
          this.undone.add(s.step);
        }
      } catch (err) {
        return { status: 'failed' as const, message: `Undo stopped part-way: ${(err as Error).message}` };
      } finally {
        const done = steps.filter((s) => this.undone.has(s.step)).map((s) => s.step);
        if (done.length > 0) this.log.recordUndo({ type: 'undo', session: this.options.sessionId, steps: done, ...(current ? { savedTree: current.tree } : {}), at: new Date().toISOString() });
      }
      return describeUndo({
        steps,
        restored: [...restored].sort(),
        removed: [...removed].sort(),
        changedSince: since.map((c) => c.path).filter((p) => touched.has(p)),
        notRestored: [...new Set(steps.flatMap((s) => s.skipped.map((k) => k.path)))],
      });
    });
  }

  private noticeOversized(files: readonly SkippedFile[]): void {
    for (const f of files) {
      if (this.noticedOversized.has(f.path)) continue;
      this.noticedOversized.add(f.path);
      this.options.onNotice?.(`Not snapshotted: ${f.path} (${(f.bytes / 1024 / 1024).toFixed(1)} MB, over the ${(this.settings.maxFileBytes / 1024 / 1024).toFixed(0)} MB cap); /undo cannot restore it.`, 'info');
    }
  }

  private warn(message: string): void {
    this.options.trail?.warn(`undo: ${message}`);
    this.options.onNotice?.(message, 'warning');
  }

  private track<T>(promise: Promise<T>): void {
    const p = promise.catch(() => undefined).finally(() => this.background.delete(p));
    this.background.add(p);
  }
}

/**
 * Over-cap files the step touched. `lost`: over the cap before the step and changed or gone after it;
 * their earlier content was never snapshotted, so undo cannot bring it back (nor remove the file).
 * `created`: new files over the cap, which undo can simply remove. A file that grew past the cap was
 * in the tree before: the tree diff already restores it.
 */
function oversizedChanges(before: readonly SkippedFile[], after: readonly SkippedFile[]): { lost: Array<{ path: string; bytes: number }>; created: string[] } {
  const was = new Map(before.map((f) => [f.path, f]));
  const lost: Array<{ path: string; bytes: number }> = [];
  for (const [path, a] of was) {
    const b = after.find((f) => f.path === path);
    if (!b || a.bytes !== b.bytes || a.mtimeMs !== b.mtimeMs) lost.push({ path, bytes: (b ?? a).bytes });
  }
  const created = after.filter((f) => !was.has(f.path)).map((f) => f.path);
  return { lost: lost.sort((x, y) => x.path.localeCompare(y.path)), created };
}

/** `OPENDEV_HOME/projects/<encoded project>/operations.jsonl`, beside the project's sessions. */
function operationLogPath(options: Pick<UndoManagerOptions, 'home' | 'workspaceRoot'>): string {
  return join(opendevPaths(options.home).projectsDir, encodeProjectPath(options.workspaceRoot), 'operations.jsonl');
}

function nothingToUndo(hadSteps: boolean): UndoOutcome {
  return { status: 'nothing', message: hadSteps ? 'Nothing left to undo: every step of this session that changed files is undone.' : 'Nothing to undo: no step of this session has changed files yet.' };
}
