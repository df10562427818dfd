// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { Agent } from '../core/agent/agent';
import type { ThinkingLevel } from '../core/config/thinking-level';
import type { TurnResult } from '../core/agent/turn-result';
import type { AgentMode } from '../core/ui';
import type { AnswerMessage, ChatEntry, ContextView, ExtensionToWebview, ImageUpload, SlashCompletion } from '../shared/protocol';
import { AgentSession, type Ready } from '../core/session/agent-session';
import type { AgentSource } from './agent-source';
import type { ChatControllerOptions } from './chat-controller-options';
import { ChatHistory, type HistoryHost } from './chat-history';
import { ChatInput } from './chat-input';
import { ChatLiveState } from './chat-live-state';
import { PendingRequests, type AnswerOutcome } from './pending-requests';
import { Transcript } from './transcript';
import { turnUi } from './turn-ui';
import type { ChatSessions } from './chat-sessions';
import { ChatSetup, type WaitingQuestion } from './chat-setup';
import { RetryLine } from './retry-line';
import { TurnOutcomes } from './failed-turn';
import { ChatNotices } from './chat-notices';
import { ChatRunState } from './chat-run-state';
import { runSlashCommand, type SlashHost } from './chat-slash-command';
import { runChatTurn, type TurnHost } from './chat-turn';

export type { ChatControllerOptions } from './chat-controller-options';

/**
 * One chat: the transcript the webview shows, the agent behind it, the running turn and the live
 * state around it. The single source of truth; the webview renders what it is sent and answers its
 * cards. It wires the parts: the agent's lifecycle (the core's AgentSession), a turn (chat-turn), a
 * slash command (chat-slash-command), what the user types (chat-input), saved sessions and restore
 * points (chat-history), the live state (chat-live-state) and whether it is busy (chat-run-state).
 */
export class ChatController {
  private readonly entries = new Transcript();
  private readonly requests: PendingRequests;
  private readonly session: AgentSession<ChatEntry>;
  private readonly input: ChatInput;
  private readonly history: ChatHistory;
  private readonly live = new ChatLiveState(this.entries);
  private readonly setup: ChatSetup;
  private readonly retryLine = new RetryLine(this.entries);
  private readonly notices = new ChatNotices(this.entries);
  private readonly outcomes = new TurnOutcomes(this.entries, (text) => this.notices.notice(text));
  /** The running turn, its winding down, and the generation New Chat bumps. */
  private readonly run = new ChatRunState(this.entries);

  constructor(
    agentSource: AgentSource,
    private readonly options: ChatControllerOptions = {},
  ) {
    this.requests = new PendingRequests(this.entries, options.editReview);
    this.session = new AgentSession({
      build: agentSource,
      ...(options.sessions ? { saving: options.sessions.saving } : {}),
      ...(options.thinkingLevel ? { thinkingLevel: options.thinkingLevel } : {}),
      // A new agent took its place: the view gets its mode, thinking level and sandbox state.
      onAgent: (agent) => {
        this.emitAgentState();
        this.live.followSandbox(agent);
      },
    });
    options.sessions?.attach(this.session);
    this.input = new ChatInput(this.entries, options, (text, level) => this.notices.notice(text, level));
    this.history = new ChatHistory(this.historyHost());
    this.setup = new ChatSetup(
      { entries: this.entries, idle: () => !this.run.busy, resume: (question) => void this.runTurn(question.entry.text, question.images, question) },
      options.setupCheck,
    );
    void this.setup.refresh();
    options.tasks?.onDidChange(() => this.entries.emit({ type: 'tasks', tasks: this.options.tasks?.running() ?? [] }));
  }

  /** The project's sessions (undefined without a folder). */
  get sessions(): ChatSessions | undefined {
    return this.options.sessions;
  }

  /** The chat's agent, built now if needed (the MCP view needs its servers); undefined when it cannot be, and the chat says why. */
  agentNow(): Promise<Agent | undefined> {
    return this.readyAgent(this.session.ready());
  }

  get busy(): boolean {
    return this.run.busy;
  }

  /** The agent the chat runs on (undefined before the first message and after New Chat or /clear). */
  get agent(): Agent | undefined {
    return this.session.agent;
  }

  transcript(): readonly ChatEntry[] {
    return this.entries.list();
  }

  onMessage(listener: (message: ExtensionToWebview) => void): { dispose(): void } {
    return this.entries.onMessage(listener);
  }

  snapshot(): ExtensionToWebview {
    const { cost, context } = this.live;
    return {
      type: 'snapshot',
      conversation: this.run.generation,
      entries: [...this.entries.list()],
      busy: this.busy,
      todos: this.live.todos,
      ...(cost ? { cost } : {}),
      ...(context ? { context } : {}),
      mode: this.currentMode,
      thinkingLevel: this.currentThinkingLevel,
      ...(this.options.tasks ? { tasks: this.options.tasks.running() } : {}),
      ...(this.live.sandbox ? { sandbox: this.live.sandbox } : {}),
    };
  }

  get context(): ContextView | undefined {
    return this.live.context;
  }

  get currentMode(): AgentMode {
    return this.session.mode;
  }

  get currentThinkingLevel(): ThinkingLevel {
    return this.session.thinkingLevel ?? 'off';
  }

  /**
   * What the user typed: a slash command runs through the registry (no model call); while the
   * agent works, a message joins the running turn as a queued follow-up; otherwise it starts a
   * turn. Resolves when the turn (if any) has ended, whatever the outcome. `@` mentions become
   * context for the model and `images` vision input.
   */
  async send(text: string, images: readonly ImageUpload[] = []): Promise<TurnResult | undefined> {
    const typed = text.trim();
    if (!typed) return undefined;
    if (!this.started) this.options.beforeStart?.();
    const parsed = this.input.parse(typed, images);
    if ('command' in parsed) return runSlashCommand(this.slashHost(), parsed.command, parsed.name);
    if (this.run.winding) {
      // Stopped or answered, still saving: a follow-up now would wait for a turn that reads no more.
      const generation = this.run.generation;
      await this.run.idle();
      return generation === this.run.generation ? this.send(text, images) : undefined;
    }
    if (this.run.busy) {
      await this.input.followUp(() => this.agent, parsed.prompt, images);
      return undefined;
    }
    return this.runTurn(parsed.prompt, images);
  }

  /** `@` completions for what follows the `@` being typed; offered to the view. */
  sendMentionCompletions(query: string): Promise<void> {
    return this.input.sendMentionCompletions(query);
  }

  /** The indicator's button: shows a background task's terminal tab. */
  openTask(id: string): void {
    this.options.tasks?.open(id);
  }

  /**
   * Stop. An open card (approval, question, plan review) is cancelled first and the agent goes
   * on without it, as the core's interrupt does; the next Stop ends the turn.
   */
  stop(): void {
    const running = this.run.running;
    if (!running) return;
    const agent = this.agent;
    if (agent?.running) {
      if (agent.interrupt() === 'modal_cancelled') {
        this.notices.notice(l10n.t('Cancelled the open request; OpenDev goes on without it. Press Stop again to stop it.'));
      }
      return;
    }
    running.abort(); // still building the agent: the turn stops before its first call
  }

  /** Forgets the conversation; the next message starts a fresh agent with the current settings. */
  newChat(): void {
    this.halt();
    this.run.nextGeneration();
    this.session.drop();
    this.entries.clear();
    this.live.reset();
    this.input.followUps.reset();
    this.outcomes.forget();
    this.entries.emit(this.snapshot());
    void this.setup.reset();
  }

  /** Whether a conversation is under way (a message sent, an agent built, a session resumed). */
  get started(): boolean {
    return this.busy || this.agent !== undefined || this.entries.list().some((e) => e.kind === 'user');
  }

  /**
   * The chat works in `workingDir` from now on (a multi-root workspace's other folder). A
   * conversation under way is not moved: it ends as with New Chat, and `notice` says so; the next
   * one is saved with that folder's sessions.
   */
  moveTo(workingDir: string, notice?: string): void {
    if (this.started) this.newChat();
    this.options.workingDir = workingDir;
    const sessions = this.options.sessions;
    if (sessions) {
      sessions.moveTo(workingDir);
      this.session.rehome(sessions.saving);
    } else {
      this.session.drop();
    }
    if (notice) this.notices.notice(notice);
  }

  /** Continues a saved session of this project in a fresh chat (chat-history). False when it cannot (said in the chat). */
  resumeSession(id: string): Promise<boolean> {
    return this.history.resume(id);
  }

  /** The history view: the project's sessions, newest first (a `sessions` message to the view). */
  listSessions(problem?: string): Promise<void> {
    return this.history.list(problem);
  }

  /** Deletes a saved session (the view asked the user first), then lists the sessions again. */
  deleteSession(id: string): Promise<void> {
    return this.history.remove(id);
  }

  /** "Restore to here": the files as they were just before `step` (chat-history). */
  restoreTo(step: number): Promise<void> {
    return this.history.restoreTo(step);
  }

  /** Stops everything at once (the extension shuts down). */
  dispose(): void {
    this.halt();
    void this.session.dispose();
  }

  /**
   * Settings or keys changed: the next message runs on an agent built with them, the conversation
   * carried over in the same session (a turn that runs now finishes on the old one). Not when
   * `stillHolds` says the agent already runs as the new settings say (a host it allows for the session, saved).
   */
  invalidateAgent(stillHolds?: (agent: Agent) => boolean): void {
    this.session.invalidate(stillHolds);
    // A key saved, a provider chosen: the setup card goes (or changes) and a waiting question runs.
    void this.setup.refresh();
  }

  /** Resolves once the settings were checked again (tests wait on it). */
  checkSetup(): Promise<void> {
    return this.setup.refresh();
  }

  /** An answer to a card, from the view (already validated against the protocol). */
  answer(message: AnswerMessage): AnswerOutcome {
    return this.requests.answer(message);
  }

  /** One hunk of a pending edit decided in the chat card; the editor's CodeLens shows it too. */
  decideHunk(id: string, index: number, verdict: 'accepted' | 'rejected' | undefined): AnswerOutcome {
    return this.requests.decideHunk(id, index, verdict);
  }

  /** "Retry now" on the retry line: the provider call waiting to be retried goes at once. */
  retryNow(id: string): boolean {
    return this.retryLine.retryNow(id);
  }

  /** Retry on a failed turn's error card: the conversation goes back to before that turn and it is sent again. */
  async retryTurn(id: string): Promise<TurnResult | undefined> {
    const turn = this.outcomes.take(id, this.busy, this.agent);
    return turn && this.runTurn(turn.text, turn.images);
  }

  /** Slash commands (or argument values) completing what the user typed. */
  complete(text: string): SlashCompletion[] {
    return this.input.completions(text);
  }

  /** Offers completions to the view. */
  sendCompletions(text: string): void {
    this.input.sendCompletions(text);
  }

  setMode(mode: AgentMode): void {
    this.session.setMode(mode);
    this.emitAgentState();
  }

  /** Switch Mode (Alt+M in the chat input): plan ⇄ normal. Returns the new mode. */
  toggleMode(): AgentMode {
    this.setMode(this.currentMode === 'plan' ? 'normal' : 'plan');
    return this.currentMode;
  }

  /** The `opendev.thinkingLevel` setting changed: applies to the agent, mid-conversation too. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.session.setThinkingLevel(level);
    this.emitAgentState();
  }

  /** A turn, then the undo history's steps onto its tool cards. `waited`: a question sent before the setup was done. */
  private async runTurn(text: string, images: readonly ImageUpload[] = [], waited?: WaitingQuestion): Promise<TurnResult | undefined> {
    const result = await runChatTurn(this.turnHost(), text, images, waited);
    if (result) await this.history.refreshSteps();
    return result;
  }

  /**
   * The agent a message or command runs on; undefined when none could be built (the chat says
   * why: no message runs on an agent the settings no longer describe) or New Chat came first.
   */
  private async readyAgent(ready: Promise<Ready<ChatEntry>>, question?: WaitingQuestion): Promise<Agent | undefined> {
    const outcome = await ready;
    // One card for what is missing, after the question that waits for it; gone once an agent is built.
    if ('problem' in outcome) this.setup.report(outcome.problem, question);
    else if ('agent' in outcome) this.setup.built();
    return 'agent' in outcome ? outcome.agent : undefined;
  }

  private slashHost(): SlashHost {
    const { options, entries, input, notices, run, session, requests, setup, live, history } = this;
    return { options, entries, input, notices, run, session, requests, setup, live, history, readyAgent: () => this.readyAgent(session.ready()), syncFromAgent: () => this.syncFromAgent(), snapshot: () => this.snapshot(), runTurn: (text) => this.runTurn(text) };
  }

  private historyHost(): HistoryHost {
    return {
      entries: this.entries,
      sessions: this.options.sessions,
      busy: () => this.busy,
      agent: () => this.agent,
      generation: () => this.run.generation,
      newChat: () => this.newChat(),
      resume: (loaded) => this.readyAgent(this.session.resume(loaded)),
      showAgentState: () => {
        this.syncFromAgent();
        this.entries.emit(this.snapshot());
      },
      notice: (text, level) => this.notices.notice(text, level),
    };
  }

  private turnHost(): TurnHost {
    const { entries, run, input, setup, retryLine, outcomes, notices } = this;
    const readyAgent = (question: WaitingQuestion) => this.readyAgent(this.session.ready(), question);
    return { entries, run, input, setup, retryLine, outcomes, notices, readyAgent, ui: (generation) => this.turnUi(generation), save: () => this.session.save().catch((err: Error) => this.options.sessions?.saving.onProblem(err.message)), syncFromAgent: () => this.syncFromAgent() };
  }

  private turnUi(generation: number) {
    return turnUi({
      transcript: this.entries,
      requests: this.requests,
      retry: this.retryLine,
      live: () => generation === this.run.generation,
      todos: (todos) => this.live.setTodos(todos),
      cost: (cost) => this.live.setCost(cost),
      usage: (usage) => this.live.addUsage(usage),
      context: (info) => this.live.setContext(info),
      recordEdit: (change) => this.options.editReview?.recordEdit(change),
      mode: () => this.emitAgentState(),
    });
  }

  /** After a command or a turn: the agent's own view of todos, cost, mode and thinking level. */
  private syncFromAgent(): void {
    const agent = this.agent;
    if (!agent) return;
    this.emitAgentState();
    this.live.syncFrom(agent);
  }

  private emitAgentState(): void {
    this.entries.emit({ type: 'agentState', mode: this.currentMode, thinkingLevel: this.currentThinkingLevel });
  }

  /** Stops the turn (an open card first, then the turn itself) and withdraws every card. */
  private halt(): void {
    const agent = this.agent;
    if (agent?.running) {
      for (let i = 0; i < 3 && agent.interrupt() === 'modal_cancelled'; i++);
    }
    this.run.running?.abort();
    this.requests.cancelAll();
  }
}
