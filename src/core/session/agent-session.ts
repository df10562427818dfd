import type { Agent } from '../agent/agent';
import { carryConversation } from '../agent/carry-conversation';
import type { ModelInfo } from '../config/model-role-settings';
import type { SessionTitles } from '../config/session-titles-setting';
import type { ThinkingLevel } from '../config/thinking-level';
import type { AgentMode } from '../ui';
import { SessionRecorder } from './session-recorder';
import type { LoadedSession, SessionStore } from './session-store';

/** An agent built for the session, and the models it runs (for /models and greetings). */
export interface BuiltAgent {
  readonly agent: Agent;
  readonly models?: readonly ModelInfo[];
}

/**
 * Builds an agent with the current settings, under `sessionId` when given (a resumed session, or
 * the one a rebuilt agent goes on with: its scratch folder, hooks and undo history), or says why
 * it cannot (`P`: the front end's own report, e.g. a setup card). May throw: the front end decides.
 */
export type AgentBuilder<P> = (options: { sessionId?: string }) => Promise<BuiltAgent | { problem: P }>;

/** How an agent came to be the session's: the first, rebuilt for new settings, fresh after /clear, or a saved session's. */
export type AgentChange = 'started' | 'rebuilt' | 'renewed' | 'resumed';

/**
 * What `ready()` found: the agent to use (`change`: it was placed by this call); a problem (with
 * the agent still in place, if any: a rebuild or a renewal failed); or nothing, because the
 * session was dropped or disposed meanwhile.
 */
export type Ready<P> = { agent: Agent; change?: AgentChange } | { problem: P; current?: Agent } | { superseded: true };

/** Where the session's conversation is saved: a session of the project, as the CLI and the editor share. */
export interface SessionSaving {
  store: SessionStore;
  workingDir: string;
  /** Where titles come from (`opendev.sessionTitles`), read when a saved session starts. */
  titles: () => SessionTitles;
  /** A save that failed, or works again. */
  onProblem: (text: string) => void;
}

export interface AgentSessionOptions<P> {
  build: AgentBuilder<P>;
  /** Without it nothing is saved. */
  saving?: SessionSaving;
  /** The mode and thinking level the first agent takes; undefined: what it was built with. */
  mode?: AgentMode;
  thinkingLevel?: ThinkingLevel;
  /** An agent took its place (the front end follows it: status, sandbox state). */
  onAgent?: (agent: Agent, change: AgentChange) => void;
}

/**
 * One conversation's lifecycle, the same for every front end (the chat, the agent terminal, the
 * CLI); they keep only transport and rendering. It builds the agent on first use and rebuilds it
 * between turns when settings changed, carrying the conversation over under the same session id
 * (the old agent goes only once the new one exists, so a failed build loses nothing); renews it
 * after /clear (a fresh agent, a session of its own, the mode and thinking level kept); resumes a
 * saved session; saves each message as it joins; and disposes it all at the end. The user's mode
 * and thinking level hold across agents.
 */
export class AgentSession<P> {
  private current: Agent | undefined;
  private builtModels: readonly ModelInfo[] | undefined;
  private savingTo: SessionRecorder | undefined;
  private unfollow: (() => void) | undefined;
  private building: { promise: ReturnType<AgentBuilder<P>>; epoch: number } | undefined;
  /** Settings changed: rebuild before the next turn. */
  private outdated = false;
  /** Bumped by drop() and dispose(): a build begun before it is discarded. */
  private epoch = 0;
  private disposed = false;
  private chosenMode: AgentMode;
  private chosenLevel: ThinkingLevel | undefined;

  /** Where the conversation is saved; another place after rehome(). */
  private saving: SessionSaving | undefined;

  constructor(private readonly options: AgentSessionOptions<P>) {
    this.chosenMode = options.mode ?? 'normal';
    this.chosenLevel = options.thinkingLevel;
    this.saving = options.saving;
    this.savingTo = this.newRecorder();
  }

  /** The agent in place (undefined before the first build, and after drop()). */
  get agent(): Agent | undefined {
    return this.current;
  }

  get models(): readonly ModelInfo[] | undefined {
    return this.builtModels;
  }

  /** What saves the conversation (undefined without saving). */
  get recorder(): SessionRecorder | undefined {
    return this.savingTo;
  }

  /** The saved session being written, once the conversation has one. */
  get id(): string | undefined {
    return this.savingTo?.id;
  }

  get mode(): AgentMode {
    return this.current?.mode ?? this.chosenMode;
  }

  /** The agent's thinking level, else the one chosen for the next agent (undefined: its own). */
  get thinkingLevel(): ThinkingLevel | undefined {
    return this.current?.thinkingLevel ?? this.chosenLevel;
  }

  /** Whether the next ready() rebuilds the agent for new settings. */
  get stale(): boolean {
    return this.outdated && this.current !== undefined;
  }

  setMode(mode: AgentMode): void {
    this.chosenMode = mode;
    this.current?.setMode(mode);
  }

  /** A new thinking level (the setting, or /thinking): for this agent and the ones after it. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.chosenLevel = level;
    this.current?.setThinkingLevel(level);
  }

  /**
   * Settings or keys changed: the next ready() builds an agent with them, carrying the conversation
   * over. Not when `stillHolds` says the agent already runs as the new settings say.
   */
  invalidate(stillHolds?: (agent: Agent) => boolean): void {
    if (this.current && !stillHolds?.(this.current)) this.outdated = true;
  }

  /**
   * The agent for the next turn: the one in place, or one built now (the first, under `sessionId`
   * when given; or a rebuild for new settings, unless a turn runs: then after it).
   */
  async ready(options: { sessionId?: string } = {}): Promise<Ready<P>> {
    const previous = this.current;
    if (previous && !(this.outdated && !previous.running)) return { agent: previous };
    if (this.disposed) return { superseded: true };
    const epoch = this.epoch;
    const sessionId = previous?.sessionId ?? options.sessionId;
    // Two callers at once (a message and the MCP view) share one build.
    if (this.building?.epoch !== epoch) this.building = { promise: this.options.build(sessionId ? { sessionId } : {}), epoch };
    const building = this.building;
    let built: Awaited<ReturnType<AgentBuilder<P>>>;
    try {
      built = await building.promise;
    } finally {
      if (this.building === building) this.building = undefined;
    }
    if (epoch !== this.epoch) return this.discard(built);
    if ('problem' in built) return { problem: built.problem, ...(previous ? { current: previous } : {}) };
    // The other caller of a shared build put it in place.
    if (this.current !== previous) return this.current ? { agent: this.current } : { superseded: true };
    if (previous?.running) {
      void built.agent.dispose().catch(() => undefined);
      return { agent: previous }; // a turn started meanwhile: the rebuild waits for the next one
    }
    if (previous) {
      carryConversation(previous, built.agent);
      void previous.dispose().catch(() => undefined);
    }
    return this.place(built, previous ? 'rebuilt' : options.sessionId ? 'resumed' : 'started');
  }

  /**
   * /clear (the command has emptied the conversation): a fresh agent, with a session of its own,
   * takes over. When it cannot be built the session goes on with the agent it had.
   */
  async renew(): Promise<Ready<P>> {
    const previous = this.current;
    this.follow(undefined);
    this.savingTo?.detach();
    this.outdated = false;
    const epoch = ++this.epoch;
    this.building = undefined;
    let built: Awaited<ReturnType<AgentBuilder<P>>>;
    try {
      built = await this.options.build({});
    } catch (err) {
      if (epoch === this.epoch) this.follow(previous);
      throw err;
    }
    if (epoch !== this.epoch) return this.discard(built);
    if ('problem' in built) {
      this.follow(previous);
      return { problem: built.problem, ...(previous ? { current: previous } : {}) };
    }
    if (previous) this.chosenLevel = previous.thinkingLevel; // a /thinking choice holds for the run
    this.retire();
    // Its SessionStart hooks hear that it began with /clear, after the old one's SessionEnd.
    built.agent.clear({ after: previous });
    return this.place(built, 'renewed');
  }

  /** New Chat: the agent goes; the next ready() builds one for a new session. The mode holds. */
  drop(): void {
    this.epoch++;
    this.building = undefined;
    this.outdated = false;
    this.follow(undefined);
    this.savingTo?.detach();
    this.retire();
  }

  /**
   * The conversation moves to another project (a multi-root editor's chat switched folder): the
   * agent goes as with drop(), and the next conversation is saved with that project's sessions.
   */
  rehome(saving: SessionSaving): void {
    this.drop();
    this.savingTo?.dispose();
    this.saving = saving;
    this.savingTo = this.newRecorder();
  }

  /**
   * Continues a saved session: an agent built under its id (its undo history, scratch folder and
   * hooks go on) gets the conversation and cost back, and the saving writes on in that session.
   */
  async resume(loaded: LoadedSession): Promise<Ready<P>> {
    this.drop();
    const ready = await this.ready({ sessionId: loaded.record.meta.id });
    if (!('agent' in ready)) return ready;
    const cost = loaded.record.meta.cost;
    ready.agent.restore(loaded.messages, cost ? { ...cost, usd: cost.usd } : undefined);
    this.follow(undefined);
    this.savingTo?.dispose();
    this.savingTo = this.newRecorder(loaded);
    this.follow(ready.agent);
    return ready;
  }

  /** The full save at the end of a turn; rejects when it fails (the conversation stays in memory). */
  async save(): Promise<void> {
    if (this.current && this.savingTo) await this.savingTo.save(this.current);
  }

  /** Resolves when queued writes and titles are done. */
  settled(): Promise<void> {
    return this.savingTo?.settled() ?? Promise.resolve();
  }

  /**
   * The end: a running turn stops, background tasks go, SessionEnd hooks run, then a last save of
   * the conversation as that left it (each message was saved as it joined). Resolves when done.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.epoch++;
    const agent = this.current;
    const recorder = this.savingTo;
    this.follow(undefined);
    this.current = undefined;
    await agent?.dispose().catch(() => undefined);
    if (agent && recorder && agent.messages.length > 0) await recorder.save(agent).catch(() => undefined);
    await recorder?.settled();
    recorder?.dispose();
  }

  private place(built: BuiltAgent, change: AgentChange): Ready<P> {
    const { agent } = built;
    if (change !== 'rebuilt') {
      agent.setMode(this.chosenMode);
      if (this.chosenLevel) agent.setThinkingLevel(this.chosenLevel);
    }
    this.current = agent;
    this.builtModels = built.models;
    this.outdated = false;
    this.follow(agent);
    this.options.onAgent?.(agent, change);
    return { agent, change };
  }

  /** The agent in place goes (disposed, not awaited); its mode and thinking level hold for the next. */
  private retire(): void {
    const agent = this.current;
    if (!agent) return;
    this.chosenMode = agent.mode;
    this.current = undefined;
    void agent.dispose().catch(() => undefined);
  }

  private discard(built: Awaited<ReturnType<AgentBuilder<P>>>): Ready<P> {
    if ('agent' in built && built.agent !== this.current) void built.agent.dispose().catch(() => undefined);
    return { superseded: true };
  }

  /** Each message of `agent` is saved as it joins (none for undefined). */
  private follow(agent: Agent | undefined): void {
    this.unfollow?.();
    this.unfollow = agent && this.savingTo ? this.savingTo.follow(agent) : undefined;
  }

  private newRecorder(loaded?: LoadedSession): SessionRecorder | undefined {
    const saving = this.saving;
    return saving && new SessionRecorder(saving.store, saving.workingDir, loaded?.record, { titles: saving.titles(), onProblem: saving.onProblem });
  }
}
