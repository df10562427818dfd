import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { AgentHooks } from '../hooks/agent-hooks';
import type { HostPorts } from '../host';
import type { Message } from '../messages';
import type { ProcessManager } from '../process/process-manager';
import type { SubagentLauncher } from '../subagents/launcher';
import type { Todo, TodoList } from '../todo';
import type { FileTimeTracker } from '../tools/file-time-tracker';
import type { ToolRegistry } from '../tools/registry';
import type { AgentIdentity, CompletionSlot, ModeState } from '../tools/tool';
import type { AgentMode, CostSnapshot, UICallback } from '../ui';
import { DoomLoopDetector } from './doom-loop-detector';
import { InjectionQueue } from './injection-queue';
import { InterruptToken } from './interrupt-token';
import { getReminder } from '../context/reminders';
import type { FullCompactionResult } from '../context/compaction/full-compaction';
import { guardModals } from './modal-guard';
import { approvedPlanIn } from './reminder-policy';
import { hasPlanningIntent } from './plan-intent';
import type { CostSink } from '../llm/model-call';
import type { ConversationMemory } from '../memory/conversation-memory';
import { ReactExecutor, type CompactionHook, type ExecutorSetup } from './react-executor';
import type { RoleResolver } from '../llm/role-resolver';
import type { ThinkingCadence } from '../config/thinking-cadence';
import type { ThinkingLevel } from '../config/thinking-level';
import type { ToolLifecycle } from '../tools/tool-lifecycle';
import { ToolDispatcher } from './tool-dispatcher';
import type { TurnResult } from './turn-result';
import type { TurnInput } from '../turn-input';
import { prepareTurnInput } from '../images/vision-input';
import { createVisionPort } from '../images/vision-port';
import { stepsLabel, type StepSummary, type UndoOutcome } from '../undo/describe-undo';
import type { UndoManager } from '../undo/undo-manager';
import type { SkillCatalog } from '../skills/skill-catalog';
import type { McpHubApi } from '../mcp/mcp-types';

/**
 * An agent is built from four parts: what it is told and which models answer (`model`), what it
 * can do (`tools`), how its context window is kept (`context`), and the session around it
 * (`session`). The main agent and every subagent differ only in these.
 */
export interface AgentConfig {
  identity: AgentIdentity;
  /** The session this agent belongs to: its scratch folder, hooks' session_id, undo history and saved session. */
  sessionId?: string;
  workspaceRoot: string;
  model: AgentModelConfig;
  tools: AgentToolsConfig;
  context?: AgentContextConfig;
  session?: AgentSessionConfig;
}

/** What the agent is told and which models answer it. */
export interface AgentModelConfig {
  roles: RoleResolver;
  systemPrompt: { stable: string; dynamic: string };
  promptVars: Record<string, string>;
  maxIterations: number;
  thinkingLevel: ThinkingLevel;
  /** Which steps make the thinking call; default every step (the paper's loop). */
  thinkingCadence?: ThinkingCadence;
}

/** What the agent can do: its tools, the seams around every call, and what each call is given. */
export interface AgentToolsConfig {
  registry: ToolRegistry;
  /** The tools this agent may use; undefined = every registered tool. Others are absent from its schema. */
  allowedTools?: ReadonlySet<string>;
  lifecycle?: ToolLifecycle;
  todos: TodoList;
  subagents?: SubagentLauncher;
  /** The host's ports (terminal view, ripgrep), passed to every tool call. */
  host?: HostPorts;
  /** The session's processes (shared by the main agent and its subagents), passed to every tool call. */
  processes?: ProcessManager;
  /** Read times and per-file locks for the stale-read check of edits. */
  files?: FileTimeTracker;
  /** Folders outside the workspace that read_file may read (the scratch folder of offloaded outputs). */
  readableDirs?: readonly string[];
  /** Where images the user attaches are saved for analyze_image (main agent: the session's scratch folder). */
  imagesDir?: string;
}

/** How the agent's context window is kept. */
export interface AgentContextConfig {
  compaction?: CompactionHook;
  /** The tool-result economy: large outputs offloaded before they join the history. */
  shapeResult?: ExecutorSetup['shapeResult'];
  /** Dual memory and playbook (main agent). */
  memory?: ConversationMemory;
  /** `/compact`: the full compaction with trigger "manual" (FullCompactor.run). */
  compact?: (history: Message[], request: { instructions: string; signal: AbortSignal }) => Promise<FullCompactionResult>;
}

/** The session around the agent: what it costs, the user's hooks, undo, skills, MCP, and its end. */
export interface AgentSessionConfig {
  cost?: CostSink;
  /** The user's hooks around prompts, turn ends and the session (tool hooks are in `tools.lifecycle`). */
  hooks?: AgentHooks;
  /** Snapshots after every step that changed files, and `/undo` (main agent). */
  undo?: Pick<UndoManager, 'afterStep' | 'undoLast' | 'restoreTo' | 'describeHistory' | 'stepHistory'>;
  /** The skills found for this agent (its prompt's index, invoke_skill, /skills). */
  skills?: SkillCatalog;
  /** The session's MCP servers (main agent), for /mcp and the servers view; it stops them on dispose. */
  mcp?: McpHubApi;
  /** Told which UI runs the current turn (undefined when it ends), for long-lived services. */
  onTurnUI?: (ui: UICallback | undefined) => void;
  /** Releases what the agent's services hold (background subagents, catalogue refresh). */
  dispose?: () => void | Promise<void>;
}

/**
 * The one concrete agent class: the main agent and every subagent differ only in their config
 * (allowed tools, prompt, models, iteration budget). It owns the conversation; each user turn
 * runs through the ReactExecutor. Prompt and tool schemas are built in the constructor, so the
 * agent is ready when it returns; refreshTools() rebuilds the schemas after tools change.
 */
export class Agent {
  private readonly history: Message[] = [];
  private readonly injections = new InjectionQueue();
  private readonly doomLoop = new DoomLoopDetector();
  private readonly modeState: ModeState = { mode: 'normal', autoApproveEdits: false };
  private readonly executor: ReactExecutor;
  private schemas: ReturnType<ToolRegistry['schemas']>;
  private planSchemas: ReturnType<ToolRegistry['schemas']>;
  private schemaVersion: number;
  private level: ThinkingLevel;
  private token: InterruptToken | undefined;
  /** One-shot notes for the next turn: the plan approved in a resumed conversation; the user left plan mode. */
  private resumedPlanPath: string | undefined;
  private leftPlanMode = false;
  private readonly historyListeners = new Set<(history: readonly Message[]) => void>();

  constructor(private readonly config: AgentConfig) {
    this.level = config.model.thinkingLevel;
    this.schemaVersion = config.tools.registry.version;
    this.schemas = config.tools.registry.schemas(config.tools.allowedTools);
    this.planSchemas = this.readOnlySchemas();
    this.executor = new ReactExecutor({
      roles: config.model.roles,
      dispatcher: new ToolDispatcher(config.tools.registry, config.tools.lifecycle),
      // Plan mode sees only what cannot change the workspace (the registry refuses the rest too).
      toolSchemas: () => {
        // Tools registered or discovered since the last call (MCP) join this one.
        if (config.tools.registry.version !== this.schemaVersion) this.refreshTools();
        return this.modeState.mode === 'plan' ? this.planSchemas : this.schemas;
      },
      systemPrompt: config.model.systemPrompt,
      promptVars: config.model.promptVars,
      maxIterations: config.model.maxIterations,
      thinkingLevel: () => this.level,
      ...(config.model.thinkingCadence ? { thinkingCadence: () => config.model.thinkingCadence! } : {}),
      compaction: config.context?.compaction,
      cost: config.session?.cost,
      memory: config.context?.memory,
      shapeResult: config.context?.shapeResult,
      afterStep: config.session?.undo ? (calls, results) => config.session!.undo!.afterStep(calls, results) : undefined,
      onHistory: (history) => this.historyGrew(history),
    });
  }

  /** The models per role (hosts use the compact one for background work such as session titles). */
  get roles(): RoleResolver {
    return this.config.model.roles;
  }

  /**
   * Calls `listener` whenever messages have joined the conversation during a turn (the session
   * recorder saves them as they come). A listener that throws is ignored. Returns the unsubscribe.
   */
  observeHistory(listener: (history: readonly Message[]) => void): () => void {
    this.historyListeners.add(listener);
    return () => void this.historyListeners.delete(listener);
  }

  private historyGrew(history: readonly Message[]): void {
    for (const listener of this.historyListeners) {
      try {
        listener(history);
      } catch {
        // saving is the listener's business; it never stops the turn
      }
    }
  }

  get name(): string {
    return this.config.identity.name;
  }

  /** The session id the factory gave this agent (undefined for agents built without one). */
  get sessionId(): string | undefined {
    return this.config.sessionId;
  }

  get messages(): readonly Message[] {
    return this.history;
  }

  get running(): boolean {
    return this.token !== undefined;
  }

  get mode(): AgentMode {
    return this.modeState.mode;
  }

  setMode(mode: AgentMode): void {
    if (mode === 'plan') this.leftPlanMode = false;
    else if (this.modeState.mode === 'plan') this.leftPlanMode = true;
    this.modeState.mode = mode;
    if (mode === 'plan') this.modeState.autoApproveEdits = false;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.level;
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.level = level;
  }

  /** The tool names in this agent's schema (what the model can call). */
  toolNames(): string[] {
    return this.schemas.map((s) => s.name);
  }

  refreshTools(): void {
    this.schemaVersion = this.config.tools.registry.version;
    this.schemas = this.config.tools.registry.schemas(this.config.tools.allowedTools);
    this.planSchemas = this.readOnlySchemas();
  }

  private readOnlySchemas(): ReturnType<ToolRegistry['schemas']> {
    return this.schemas.filter((s) => this.config.tools.registry.get(s.name)?.readOnly);
  }

  todos(): readonly Todo[] {
    return this.config.tools.todos.list();
  }

  cost(): CostSnapshot | undefined {
    return this.config.session?.cost?.snapshot();
  }

  /** The skills this agent was built with (/skills); undefined for agents built without a catalog. */
  skills(): SkillCatalog | undefined {
    return this.config.session?.skills;
  }

  /** The session's MCP servers; undefined when MCP is off (and for subagents). */
  get mcp(): McpHubApi | undefined {
    return this.config.session?.mcp;
  }

  /** The OS sandbox the session's commands run in; undefined where the host gave none. */
  get sandbox(): CommandSandbox | undefined {
    return this.config.tools.processes?.sandbox;
  }

  subagentTypes(): ReadonlyArray<{ name: string; description: string }> {
    return this.config.tools.subagents?.types() ?? [];
  }

  /**
   * Replaces the conversation (a resumed session, with its cost so far); not while a turn runs.
   * `resumed` false: the same session taken back to an earlier point (a failed turn sent again), no resume hooks.
   */
  restore(messages: readonly Message[], cost?: CostSnapshot, resumed = true): void {
    if (this.running) throw new Error('cannot restore a conversation while the agent is running');
    this.history.splice(0, this.history.length, ...messages);
    this.executor.resetCalibration();
    this.resumedPlanPath = approvedPlanIn(messages);
    if (cost) this.config.session?.cost?.restore?.(cost);
    if (resumed && messages.length > 0) this.config.session?.hooks?.restarted('resume');
  }

  /**
   * Stops the turn and everything in the background; the agent is not used afterwards. Resolves
   * when background work (the playbook's reflection) has settled; callers may ignore it.
   */
  dispose(): Promise<void> {
    this.interrupt();
    // SessionEnd hooks start now; their short timeout bounds how long this promise waits for them.
    return Promise.all([this.config.session?.dispose?.(), this.config.session?.hooks?.sessionEnd('other')]).then(() => undefined);
  }

  /**
   * `/undo`: puts back exactly the files the newest file-changing step changed; with `fromStep`,
   * every step from that one on (the files as they were just before it). The model is told what
   * was undone. Refused while a turn runs; while it undoes, the agent counts as running.
   */
  async undo(fromStep?: number): Promise<UndoOutcome> {
    if (this.running) return { status: 'unavailable', message: 'OpenDev is working. Wait for it to finish (or stop it) before undoing.' };
    const undo = this.config.session?.undo;
    if (!undo) return { status: 'unavailable', message: 'Undo is not available for this agent.' };
    this.token = new InterruptToken();
    try {
      const outcome = fromStep === undefined ? await undo.undoLast() : await undo.restoreTo(fromStep);
      if (outcome.note) {
        this.history.push({ role: 'user', content: outcome.note, origin: { kind: 'undo', steps: stepsLabel(outcome.steps ?? []) } });
        this.historyGrew(this.history);
      }
      return outcome;
    } finally {
      this.token = undefined;
    }
  }

  /** The files as they were just before `step` (that step and every later one undone): `/undo <step>`. */
  restoreTo(step: number): Promise<UndoOutcome> {
    return this.undo(step);
  }

  /** The steps of this session that changed files (with their tool call ids), once pending snapshots are in. */
  async undoSteps(): Promise<StepSummary[]> {
    return (await this.config.session?.undo?.stepHistory()) ?? [];
  }

  /** `/undo list`: this session's steps that changed files. */
  async undoHistory(): Promise<string> {
    return (await this.config.session?.undo?.describeHistory()) ?? 'Undo is not available for this agent.';
  }

  /**
   * Forgets the conversation (New Chat / `/clear`). `after`: the agent whose conversation this one
   * replaces; its SessionEnd hooks finish before this session's SessionStart hooks begin.
   */
  clear(options: { after?: Agent } = {}): void {
    this.restore([]);
    this.doomLoop.reset();
    this.config.session?.hooks?.restarted('clear', options.after?.sessionEnded());
  }

  /** Settles when this agent's latest SessionEnd hooks have run (at once without hooks). */
  sessionEnded(): Promise<void> {
    return this.config.session?.hooks?.ended() ?? Promise.resolve();
  }

  /**
   * `/compact`: summarises the conversation now, as the 99% stage does (archive, summary, artifact
   * index). Refused while a turn runs: the turn owns the history, and the 99% stage covers it. While
   * it runs the agent counts as running; Stop cancels it and leaves the conversation unchanged.
   */
  async compact(instructions = ''): Promise<FullCompactionResult> {
    if (this.running) return { status: 'skipped', reason: 'OpenDev is working. /compact runs between turns; while it works, the context is compacted automatically when it fills up.' };
    const compact = this.config.context?.compact;
    if (!compact) return { status: 'skipped', reason: 'Compaction is not available for this agent.' };
    const token = new InterruptToken();
    this.token = token;
    try {
      const result = await compact(this.history, { instructions, signal: token.signal });
      this.executor.resetCalibration();
      return result;
    } catch (err) {
      if (token.interrupted) return { status: 'skipped', reason: 'Stopped: the conversation was not changed.' };
      throw err;
    } finally {
      this.token = undefined;
    }
  }

  /**
   * Queues a follow-up typed while the agent runs; it joins the conversation at the next
   * iteration boundary. False when the agent is idle (send it as a turn) or the queue is full.
   */
  inject(text: string): boolean {
    return this.running && this.injections.push(text);
  }

  /** Stop: cancels an open modal first (approval, question, plan review), otherwise the turn. */
  interrupt(): 'modal_cancelled' | 'interrupted' | 'idle' {
    return this.token?.interrupt() ?? 'idle';
  }

  /** `input`: context and images the front end attached to the text (mentions, pasted images). */
  async runTurn(text: string, ui: UICallback, signal?: AbortSignal, input?: TurnInput): Promise<TurnResult> {
    if (this.token) throw new Error(`${this.name} is already running a turn`);
    const token = new InterruptToken(signal);
    this.token = token;
    const hooks = this.config.session?.hooks;
    const guarded = guardModals(hooks ? hooks.notifying(ui) : ui, token);
    const completion: CompletionSlot = {};
    this.config.session?.onTurnUI?.(guarded);
    try {
      // UserPromptSubmit (after SessionStart) first: a refused prompt changes nothing and never reaches the model.
      const verdict = await hooks?.beforePrompt(text, { mode: this.modeState, signal: token.signal });
      if (verdict?.blocked) {
        guarded.onNotice?.(`A UserPromptSubmit hook blocked this prompt: ${verdict.reason}`, 'warning');
        return { status: 'blocked', reason: verdict.reason, text: '', usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, iterations: 0 };
      }
      if (!this.config.identity.isSubagent && this.modeState.mode === 'normal' && hasPlanningIntent(text)) {
        this.setMode('plan');
        guarded.onModeChange?.('plan');
      }
      const modeNote = this.modeState.mode === 'plan' ? getReminder('plan_mode') : this.leftPlanMode ? getReminder('plan_mode_exited') : undefined;
      const resumedPlanPath = this.resumedPlanPath;
      this.leftPlanMode = false;
      this.resumedPlanPath = undefined;
      // Images the action model cannot read are described by the vision model first (or named).
      const services = { ui: guarded, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, cost: this.config.session?.cost, signal: token.signal };
      const prepared = input ? await prepareTurnInput(this.config.model.roles, text, input, services, { imagesDir: this.config.tools.imagesDir }) : undefined;
      // The text, what the front end attached, then the mode note (a resumed chat cuts both off again).
      const attached = prepared?.context ? `${text}\n\n${prepared.context}` : text;
      const prompt = modeNote ? `${attached}\n\n${modeNote}` : attached;
      return await this.executor.run(this.history, prompt, {
        typed: text,
        input: prepared?.images ? { images: prepared.images } : undefined,
        ui: guarded,
        token,
        injections: this.injections,
        doomLoop: this.doomLoop,
        resumedPlanPath,
        hooks: verdict?.turn,
        promptContext: verdict?.context,
        toolContext: {
          workspaceRoot: this.config.workspaceRoot,
          signal: token.signal,
          ui: guarded,
          agent: this.config.identity,
          todos: this.config.tools.todos,
          mode: this.modeState,
          completion,
          subagents: this.config.tools.subagents,
          host: this.config.tools.host,
          processes: this.config.tools.processes,
          files: this.config.tools.files,
          readableDirs: this.config.tools.readableDirs,
          // analyze_image's calls count toward the session's cost like the turn's own.
          vision: createVisionPort(this.config.model.roles, services),
          history: this.history,
        },
      });
    } finally {
      this.token = undefined;
      this.config.session?.onTurnUI?.(undefined);
    }
  }
}
