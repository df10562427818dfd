import { randomBytes } from 'node:crypto';
import { askQuestions, HEADLESS_ASK_MESSAGE, parseAskUserTask } from '../tools/ask-user';
import { ToolError } from '../tools/tool';
import type { SubagentInfo, UICallback } from '../ui';
import type { SubagentLauncher, SubagentOutcome, SubagentRequest } from './launcher';
import { findSpec, idPrefixOf, normalizeTypeName, subagentTools, unknownTypeMessage, type SubagentSpec } from './specs';

export type SubagentRunStatus = 'completed' | 'failed' | 'stopped';

export interface SubagentRunOptions {
  agentId: string;
  /** The spawn call's model, else the spec's; undefined = the parent's model. */
  model?: string;
  signal: AbortSignal;
  /** The conversation of an earlier run of this agent (resume); undefined for a fresh start. */
  history?: unknown;
}

export interface SubagentRunResult {
  status: SubagentRunStatus;
  /** The subagent's final answer (its task_complete summary or last text). */
  summary: string;
  /** Whatever the runner needs to continue this agent later (resume). Opaque to the manager. */
  history: unknown;
}

/** Runs one subagent to its end: the lead wires this to the real executor (filtered tools, own budget). */
export type SubagentRunner = (spec: SubagentSpec, task: string, options: SubagentRunOptions) => Promise<SubagentRunResult>;

export interface SubagentManagerOptions {
  specs: readonly SubagentSpec[];
  run: SubagentRunner;
  ui: UICallback;
  /** The types this launcher may spawn (matched like subagent_type); default: every spec. */
  allowedTypes?: readonly string[];
  /** Whether a tool can change the workspace (the registry's `readOnly: false`), for plan mode. */
  isWriteTool?: (tool: string) => boolean;
}

/** What the parent reads is capped: the subagent's intermediate work stays in its own context. */
export const MAX_PARENT_SUMMARY_CHARS = 2000;

interface AgentRecord {
  agentId: string;
  spec: SubagentSpec;
  task: string;
  background: boolean;
  outcome: SubagentOutcome;
  history: unknown;
  /** Settles (never rejects) with the final outcome of the current run. */
  done: Promise<SubagentOutcome>;
  controller: AbortController;
  /** The launcher (scope) that started it: only that one reports it as finished. */
  owner: SubagentManager;
  /** A background run finished and its result has not been read (output, wait or collectFinished). */
  unread: boolean;
}

/**
 * Spawns subagents (paper §2.2.7, §2.4.8): foreground runs are awaited, background runs return
 * "running" at once and are collected with get_subagent_output, `resume` continues an earlier
 * agent's conversation. Nothing here serializes runs: several spawn_subagent calls of one response
 * run concurrently. The Ask-User type never reaches the runner; it goes straight to ui.askUser.
 *
 * Background runs are not tied to the signal of the call that started them (the turn may end while
 * they work); stop them with `stop(agentId)` or `stopAll()`.
 */
export class SubagentManager implements SubagentLauncher {
  private readonly specs: readonly SubagentSpec[];
  private readonly runner: SubagentRunner;
  private readonly ui: UICallback;
  private readonly allowed: readonly SubagentSpec[];
  private readonly isWriteTool: ((tool: string) => boolean) | undefined;
  /** Shared with the scoped launchers made by launcherFor(), so ids resolve across scopes. */
  private records = new Map<string, AgentRecord>();

  constructor(options: SubagentManagerOptions) {
    this.specs = options.specs;
    this.runner = options.run;
    this.ui = options.ui;
    this.isWriteTool = options.isWriteTool;
    this.allowed = options.allowedTypes
      ? this.specs.filter((s) => options.allowedTypes!.some((t) => normalizeTypeName(t) === normalizeTypeName(s.name)))
      : this.specs;
  }

  types(): ReadonlyArray<{ name: string; description: string }> {
    return this.allowed.map((s) => ({ name: s.name, description: s.description }));
  }

  /** The spec a `subagent_type` means among the allowed types, or undefined. */
  spec(type: string): SubagentSpec | undefined {
    return findSpec(this.allowed, type);
  }

  /**
   * A launcher over the same agents restricted to some types: what a subagent that may spawn
   * (the Planner) gets as its ctx.subagents. Undefined when the spec may not spawn.
   */
  launcherFor(spec: SubagentSpec): SubagentManager | undefined {
    if (!spec.canSpawn) return undefined;
    const scoped = new SubagentManager({
      specs: this.specs,
      run: this.runner,
      ui: this.ui,
      allowedTypes: spec.spawnableTypes ?? ['Code-Explorer'],
      ...(this.isWriteTool ? { isWriteTool: this.isWriteTool } : {}),
    });
    scoped.records = this.records;
    return scoped;
  }

  writeToolsOf(type: string): string[] {
    const spec = findSpec(this.specs, type);
    if (!spec || spec.planModeSafe || !this.isWriteTool) return [];
    return subagentTools(spec).filter(this.isWriteTool);
  }

  async spawn(request: SubagentRequest, signal: AbortSignal): Promise<SubagentOutcome> {
    const { spec, agentId, history } = this.prepare(request);
    const controller = new AbortController();
    // Foreground runs stop with the caller; background runs only through stop()/stopAll().
    const runSignal = request.background ? controller.signal : AbortSignal.any([signal, controller.signal]);
    const info: SubagentInfo = { agentId, type: spec.name, task: request.task, background: request.background };
    notify(() => this.ui.onSubagentStart?.(info));
    // The run settles asynchronously, after `record` below exists.
    const done = this.execute(spec, request, agentId, history, runSignal).then((result) => {
      record.history = result.history;
      record.outcome = { agentId, type: spec.name, status: result.status, summary: capSummary(result.summary) };
      record.unread = request.background;
      notify(() => this.ui.onSubagentEnd?.({ ...info, status: result.status, summary: record.outcome.summary }));
      return record.outcome;
    });
    const record: AgentRecord = {
      agentId,
      spec,
      task: request.task,
      background: request.background,
      outcome: { agentId, type: spec.name, status: 'running', summary: '' },
      history,
      done,
      controller,
      owner: this,
      unread: false,
    };
    this.records.set(agentId, record);
    if (!request.background) return { ...(await record.done) };
    return { ...record.outcome };
  }

  output(agentId: string): SubagentOutcome | undefined {
    const record = this.records.get(agentId.trim());
    return record ? this.read(record) : undefined;
  }

  collectFinished(): SubagentOutcome[] {
    return [...this.records.values()].filter((r) => r.owner === this && r.unread).map((r) => this.read(r));
  }

  /** The outcome as the model receives it; a finished result counts as read from then on. */
  private read(record: AgentRecord): SubagentOutcome {
    if (record.outcome.status !== 'running') record.unread = false;
    return { ...record.outcome };
  }

  async wait(agentId: string, signal: AbortSignal): Promise<SubagentOutcome | undefined> {
    const record = this.records.get(agentId.trim());
    if (!record) return undefined;
    if (record.outcome.status !== 'running' || signal.aborted) return this.read(record);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([record.done, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
    return this.read(record);
  }

  /** Every agent started through this manager (any scope), for UIs such as /agents. */
  list(): SubagentOutcome[] {
    return [...this.records.values()].map((r) => ({ ...r.outcome }));
  }

  /** Stops one running agent; false when it is unknown or not running. */
  stop(agentId: string): boolean {
    const record = this.records.get(agentId);
    if (!record || record.outcome.status !== 'running') return false;
    record.controller.abort();
    return true;
  }

  /** Stops every running agent (the session ends, the user interrupts everything). */
  stopAll(): void {
    for (const record of this.records.values()) if (record.outcome.status === 'running') record.controller.abort();
  }

  private prepare(request: SubagentRequest): { spec: SubagentSpec; agentId: string; history: unknown } {
    if (request.resume !== undefined && request.resume.trim() !== '') {
      const id = request.resume.trim();
      const earlier = this.records.get(id);
      if (!earlier || !this.allowed.includes(earlier.spec)) {
        throw new ToolError('not_found', `No subagent "${id}" to resume. ${this.knownIds()}`);
      }
      if (normalizeTypeName(request.subagentType) !== normalizeTypeName(earlier.spec.name)) {
        throw new ToolError('other', `${id} is a ${earlier.spec.name} subagent, not ${request.subagentType}; pass subagent_type "${earlier.spec.name}" to resume it.`);
      }
      if (earlier.outcome.status === 'running') {
        throw new ToolError('other', `${id} is still running; wait for it with get_subagent_output before resuming it.`);
      }
      return { spec: earlier.spec, agentId: id, history: earlier.history };
    }
    const spec = findSpec(this.allowed, request.subagentType);
    if (!spec) throw new ToolError('not_found', unknownTypeMessage(request.subagentType, this.types()));
    return { spec, agentId: this.newId(spec), history: undefined };
  }

  /** Runs to the end and never rejects: a crash is a failed outcome, an abort a stopped one. */
  private async execute(
    spec: SubagentSpec,
    request: SubagentRequest,
    agentId: string,
    history: unknown,
    signal: AbortSignal,
  ): Promise<SubagentRunResult> {
    try {
      if (spec.uiOnly) return await this.askUser(request.task, signal);
      const model = request.model ?? spec.model;
      const result = await this.runner(spec, request.task, { agentId, signal, history, ...(model ? { model } : {}) });
      const summary = result.summary.trim() === '' ? '(the subagent finished without a summary)' : result.summary;
      return { ...result, status: signal.aborted && result.status !== 'failed' ? 'stopped' : result.status, summary };
    } catch (err) {
      if (signal.aborted) return { status: 'stopped', summary: 'The subagent was stopped before it finished.', history };
      return { status: 'failed', summary: `The subagent crashed: ${(err as Error)?.message ?? String(err)}`, history };
    }
  }

  private async askUser(task: string, signal: AbortSignal): Promise<SubagentRunResult> {
    const parsed = parseAskUserTask(task);
    if ('error' in parsed) return { status: 'failed', summary: parsed.error, history: undefined };
    if (!this.ui.askUser) return { status: 'failed', summary: HEADLESS_ASK_MESSAGE, history: undefined };
    const result = await askQuestions(this.ui, parsed.questions, signal);
    if (signal.aborted) return { status: 'stopped', summary: 'The questions were cancelled.', history: undefined };
    return { status: result.ok ? 'completed' : 'failed', summary: result.output, history: undefined };
  }

  private newId(spec: SubagentSpec): string {
    const prefix = idPrefixOf(spec);
    for (;;) {
      const id = `${prefix}-${randomBytes(3).toString('hex')}`;
      if (!this.records.has(id)) return id;
    }
  }

  private knownIds(): string {
    const ids = [...this.records.values()].filter((r) => this.allowed.includes(r.spec)).map((r) => `${r.agentId} (${r.spec.name})`);
    return ids.length === 0 ? 'No subagents have been started yet.' : `Known agents: ${ids.join(', ')}.`;
  }
}

/** A front end's event handler must not break (or, in the background, crash) a subagent run. */
function notify(event: () => void): void {
  try {
    event();
  } catch {
    // The UI's problem; the run and its outcome stand.
  }
}

/** Caps what the parent reads, saying so when text was cut. */
export function capSummary(summary: string, max = MAX_PARENT_SUMMARY_CHARS): string {
  if (summary.length <= max) return summary;
  return `${summary.slice(0, max)}\n\n[summary cut: showing ${max.toLocaleString('en-US')} of ${summary.length.toLocaleString('en-US')} chars; resume this agent and ask for the part you need]`;
}
