import type { Agent } from '../core/agent/agent';
import type { ThinkingLevel } from '../core/agent/thinking-level';
import type { TurnResult } from '../core/agent/turn-result';
import type { ModelInfo } from '../core/commands/slash-commands';
import type { TokenUsage } from '../core/llm/provider';
import type { Todo } from '../core/todos/todo';
import type { AgentMode, ContextInfo, CostSnapshot } from '../core/ui';
import type { AnswerMessage, ChatEntry, ContextView, CostView, ExtensionToWebview, ImageUpload, SlashCompletion, TodoView } from '../shared/protocol';
import { imageRoute } from '../core/images/vision-input';
import { imageChips, prepareInput, type BackgroundTaskPort, type MentionPort } from './chat-input';
import { stepMarks } from './step-marks';
import { transcriptFromMessages } from './transcript-from-session';
import { FollowUps } from './follow-ups';
import { PendingRequests, type AnswerOutcome } from './pending-requests';
import type { EditReviewPort } from './diff-approval/edit-review-port';
import type { SlashCommandPort } from './slash-port';
import { Transcript } from './transcript';
import { turnUi } from './turn-ui';
import type { ChatSessions } from './chat-sessions';

/**
 * Builds the agent for the current settings, or says why it cannot (no key, no folder…);
 * `sessionId`: a resumed session's, so the agent's scratch folder, hooks and undo history go on under it.
 */
export type AgentSource = (options?: { sessionId?: string }) => Promise<{ agent: Agent; models?: readonly ModelInfo[] } | { problem: ChatEntry }>;

export interface ChatControllerOptions {
  /** The shared slash-command registry; without it every message goes to the model. */
  slash?: SlashCommandPort;
  /** The `opendev.thinkingLevel` setting; undefined keeps the level the agent was built with. */
  thinkingLevel?: ThinkingLevel;
  /** The workspace folder, for commands that list project state. */
  workingDir?: string;
  /** Saves the conversation as a session of the project (and resumes one); without it nothing is saved. */
  sessions?: ChatSessions;
  /** `@` mentions: completion and expansion into context; without it `@` is plain text. */
  mentions?: MentionPort;
  /** The background tasks for the indicator; without it none are shown. */
  tasks?: BackgroundTaskPort;
  /** Edits shown in the diff editor for approval, and finished edits' diffs; without it only the cards show them. */
  editReview?: EditReviewPort;
}

/**
 * One chat: the transcript the webview shows, the agent behind it, the running turn and the
 * live state around it (todos, cost, mode, open requests). It is the single source of truth;
 * the webview only renders what it is sent and answers the cards it is shown.
 */
export class ChatController {
  private readonly entries = new Transcript();
  private readonly requests: PendingRequests;
  private agent: Agent | undefined;
  private models: readonly ModelInfo[] | undefined;
  private building: ReturnType<AgentSource> | undefined;
  private running: AbortController | undefined;
  /** Bumped by New Chat: whatever an older turn still reports is dropped. */
  private generation = 0;
  private mode: AgentMode = 'normal';
  private level: ThinkingLevel | undefined;
  private todoList: readonly Todo[] = [];
  private costView: CostView | undefined;
  private costFromSink = false;
  private contextView: ContextView | undefined;
  private readonly followUps = new FollowUps(this.entries, (text) => this.notice(text, 'warning'));

  constructor(
    private readonly agentSource: AgentSource,
    private readonly options: ChatControllerOptions = {},
  ) {
    this.level = options.thinkingLevel;
    this.requests = new PendingRequests(this.entries, options.editReview);
    options.tasks?.onDidChange(() => this.entries.emit({ type: 'tasks', tasks: this.options.tasks?.running() ?? [] }));
  }

  /** The project's sessions (undefined without a folder). */
  get sessions(): ChatSessions | undefined {
    return this.options.sessions;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  transcript(): readonly ChatEntry[] {
    return this.entries.list();
  }

  onMessage(listener: (message: ExtensionToWebview) => void): { dispose(): void } {
    return this.entries.onMessage(listener);
  }

  snapshot(): ExtensionToWebview {
    return {
      type: 'snapshot',
      entries: [...this.entries.list()],
      busy: this.busy,
      todos: this.todoList.map(todoView),
      ...(this.costView ? { cost: this.costView } : {}),
      ...(this.contextView ? { context: this.contextView } : {}),
      mode: this.currentMode,
      thinkingLevel: this.currentThinkingLevel,
      ...(this.options.tasks ? { tasks: this.options.tasks.running() } : {}),
    };
  }

  get context(): ContextView | undefined {
    return this.contextView;
  }

  get currentMode(): AgentMode {
    return this.agent?.mode ?? this.mode;
  }

  get currentThinkingLevel(): ThinkingLevel {
    return this.agent?.thinkingLevel ?? this.level ?? 'off';
  }

  /**
   * What the user typed: a slash command runs through the registry (no model call); while the
   * agent works, a message joins the running turn as a queued follow-up; otherwise it starts a
   * turn. Resolves when the turn (if any) has ended, whatever the outcome. `@` mentions become
   * context for the model and `images` vision input.
   */
  async send(text: string, images: readonly ImageUpload[] = []): Promise<TurnResult | undefined> {
    let prompt = text.trim();
    if (!prompt) return undefined;
    if (this.options.slash) {
      const parsed = this.options.slash.parse(prompt);
      if ('command' in parsed) {
        if (images.length > 0) this.notice('Images go with messages, not with slash commands: they were not sent.', 'warning');
        return this.runCommand(parsed.command, parsed.name);
      }
      prompt = parsed.prompt;
    }
    if (this.running) {
      if (images.length > 0) this.notice('Images cannot join a running task: send them again once OpenDev has finished (or been stopped).', 'warning');
      const { turn, mentions } = await prepareInput(prompt, [], this.options.mentions, (problem) => this.notice(problem, 'warning'));
      this.followUps.add(this.agent, turn.context ? `${prompt}\n\n${turn.context}` : prompt, { text: prompt, mentions });
      return undefined;
    }
    return this.runTurn(prompt, images);
  }

  /** `@` completions for what follows the `@` being typed; offered to the view. */
  async sendMentionCompletions(query: string): Promise<void> {
    const items = (await this.options.mentions?.complete(query).catch(() => [])) ?? [];
    this.entries.emit({ type: 'mentionCompletions', query, items });
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
    if (!this.running) return;
    const agent = this.agent;
    if (agent?.running) {
      if (agent.interrupt() === 'modal_cancelled') {
        this.notice('Cancelled the open request; OpenDev goes on without it. Press Stop again to stop it.');
      }
      return;
    }
    this.running.abort(); // still building the agent: the turn stops before its first call
  }

  /** Forgets the conversation; the next message starts a fresh agent with the current settings. */
  newChat(): void {
    this.mode = this.currentMode;
    this.generation++;
    this.halt();
    this.agent?.dispose();
    this.agent = undefined;
    this.building = undefined;
    this.options.sessions?.newConversation();
    this.entries.clear();
    this.todoList = [];
    this.costView = undefined;
    this.costFromSink = false;
    this.contextView = undefined;
    this.followUps.reset();
    this.running = undefined;
    this.entries.emit(this.snapshot());
  }

  /**
   * Continues a saved session of this project in a fresh chat: the agent is built under the
   * session's id (its undo history, scratch folder and hooks go on), the conversation and cost go
   * back to it, and the transcript is rebuilt from the saved messages. False when it cannot
   * (reported in the chat).
   */
  async resumeSession(id: string): Promise<boolean> {
    const sessions = this.options.sessions;
    if (!sessions) return false;
    if (this.running) {
      this.notice('A session can be resumed once OpenDev has finished (or been stopped).', 'warning');
      return false;
    }
    // Resuming the chat's own session: what it still has queued goes to disk first.
    if (id === sessions.currentId) await sessions.settled();
    const loaded = await sessions.load(id);
    if (!loaded) {
      this.notice(`There is no session ${id} in this project.`, 'warning');
      return false;
    }
    this.newChat();
    const generation = this.generation;
    const agent = await this.ensureAgent({ sessionId: id });
    if (!agent || generation !== this.generation) return false;
    sessions.resume(loaded, agent);
    const { title } = loaded.record.meta;
    const notice: ChatEntry = { kind: 'notice', id: this.entries.newId(), text: `Resumed session ${id}${title ? ` "${title}"` : ''} (${loaded.messages.length} messages): OpenDev remembers the conversation.` };
    // One snapshot, not an upsert per entry: a long session reaches the view in a single message.
    this.entries.replaceAll([notice, ...transcriptFromMessages(loaded.messages, () => this.entries.newId())]);
    this.syncFromAgent();
    this.entries.emit(this.snapshot());
    await this.refreshSteps();
    return true;
  }

  /** The history view: the project's sessions, newest first (a `sessions` message to the view). */
  async listSessions(problem?: string): Promise<void> {
    const sessions = this.options.sessions;
    if (!sessions) {
      this.entries.emit({ type: 'sessions', items: [], problem: 'Open a folder first: sessions belong to a project.' });
      return;
    }
    let items;
    try {
      items = await sessions.summaries();
    } catch (err) {
      this.entries.emit({ type: 'sessions', items: [], problem: `The sessions could not be listed: ${(err as Error).message}` });
      return;
    }
    const current = sessions.currentId;
    this.entries.emit({ type: 'sessions', items, ...(current ? { currentId: current } : {}), ...(problem ? { problem } : {}) });
  }

  /** Deletes a saved session (the view asked the user first), then lists the sessions again. */
  async deleteSession(id: string): Promise<void> {
    const problem = this.options.sessions ? await this.options.sessions.remove(id) : undefined;
    await this.listSessions(problem);
  }

  /**
   * "Restore to here": the files as they were just before `step` (that step and every later one
   * undone); the transcript says what was restored and the cards of undone steps say so.
   */
  async restoreTo(step: number): Promise<void> {
    const agent = this.agent;
    if (this.running || agent?.running) {
      this.notice('Files can be restored once OpenDev has finished (or been stopped).', 'warning');
      return;
    }
    if (!agent) {
      this.notice('There is nothing to restore in this chat.', 'warning');
      return;
    }
    const outcome = await agent.restoreTo(step);
    const restored = outcome.status === 'undone';
    this.notice(restored ? `Restored the files to just before step ${step}.\n${outcome.message}` : outcome.message, restored ? 'info' : 'warning');
    await this.refreshSteps();
  }

  /** Stops everything at once (the extension shuts down). */
  dispose(): void {
    this.halt();
    this.agent?.dispose();
  }

  /** Settings or keys changed: the next turn builds a new agent (the transcript stays visible). */
  invalidateAgent(): void {
    if (this.running) return;
    this.mode = this.currentMode;
    this.agent?.dispose();
    this.agent = undefined;
  }

  /** An answer to a card, from the view (already validated against the protocol). */
  answer(message: AnswerMessage): AnswerOutcome {
    return this.requests.answer(message);
  }

  /** Slash commands (or argument values) completing what the user typed. */
  complete(text: string): SlashCompletion[] {
    return this.options.slash?.complete(text) ?? [];
  }

  /** Offers completions to the view. */
  sendCompletions(text: string): void {
    this.entries.emit({ type: 'completions', text, items: this.complete(text) });
  }

  setMode(mode: AgentMode): void {
    this.mode = mode;
    this.agent?.setMode(mode);
    this.emitAgentState();
  }

  /** Switch Mode (Shift+Tab): plan ⇄ normal. Returns the new mode. */
  toggleMode(): AgentMode {
    this.setMode(this.currentMode === 'plan' ? 'normal' : 'plan');
    return this.currentMode;
  }

  /** The `opendev.thinkingLevel` setting changed: applies to the agent, mid-conversation too. */
  setThinkingLevel(level: ThinkingLevel): void {
    this.level = level;
    this.agent?.setThinkingLevel(level);
    this.emitAgentState();
  }

  /** A turn, then the undo history's steps onto its tool cards. */
  private async runTurn(text: string, images: readonly ImageUpload[] = []): Promise<TurnResult | undefined> {
    const result = await this.turn(text, images);
    if (result) await this.refreshSteps();
    return result;
  }

  private async turn(text: string, images: readonly ImageUpload[]): Promise<TurnResult | undefined> {
    const entry: ChatEntry = { kind: 'user', id: this.entries.newId(), text, ...(images.length > 0 ? { images: imageChips(images) } : {}) };
    this.entries.upsert(entry);
    const controller = new AbortController();
    const generation = this.generation;
    this.setRunning(controller);
    try {
      const agent = await this.ensureAgent();
      if (!agent || generation !== this.generation) {
        this.followUps.drop();
        return undefined;
      }
      const route = images.length > 0 ? imageRoute(agent.roles) : undefined;
      if (route?.kind === 'unsupported') {
        this.entries.upsert({
          kind: 'error',
          id: this.entries.newId(),
          text: `The message was not sent: ${route.reason}. Choose a model that reads images (OpenDev: Select Model), or set a vision model in opendev.roles (for example "vision": { "model": "gpt-4.1" }), then send it again.`,
          action: 'openSettings',
        });
        this.followUps.drop();
        return undefined;
      }
      const prepared = await prepareInput(text, images, this.options.mentions, (problem) => this.notice(problem, 'warning'));
      if (generation !== this.generation) return undefined;
      if (prepared.mentions.length > 0) this.entries.upsert({ ...entry, mentions: prepared.mentions });
      const turn = agent.runTurn(text, this.turnUi(generation), controller.signal, prepared.turn);
      this.followUps.flush(agent);
      const result = await turn;
      if (generation === this.generation) {
        this.reportOutcome(result);
        await this.options.sessions?.afterTurn(agent);
      }
      return result;
    } catch (err) {
      if (generation === this.generation) this.error(`OpenDev hit an internal error: ${(err as Error).message}`);
      return undefined;
    } finally {
      if (this.running === controller) {
        this.followUps.settle();
        this.syncFromAgent();
        this.setRunning(undefined);
      }
    }
  }

  private async runCommand(command: string, name: string): Promise<TurnResult | undefined> {
    const slash = this.options.slash!;
    if (this.running && !slash.runsWhileBusy(name)) {
      this.notice(`/${name} cannot run while OpenDev is working. Wait for it to finish, or press Stop.`, 'warning', command);
      return undefined;
    }
    const agent = await this.ensureAgent();
    if (!agent) return undefined;
    const generation = this.generation;
    let result;
    try {
      result = await slash.run(command, {
        agent,
        front: 'vscode',
        ...(this.models ? { models: this.models } : {}),
        ...(this.options.workingDir ? { workingDir: this.options.workingDir } : {}),
        ...this.options.sessions?.commandContext(),
      });
    } catch (err) {
      this.error(`${command.split(/\s/)[0]} failed: ${(err as Error).message}`);
      return undefined;
    }
    if (generation !== this.generation) return undefined;
    if (result.newSession) this.options.sessions?.newConversation(agent);
    if (result.clearScreen || result.newSession) {
      this.entries.clear();
      this.followUps.reset();
    }
    if (result.output.trim()) this.notice(result.output, result.error ? 'warning' : 'info', command);
    this.syncFromAgent();
    await this.refreshSteps(); // /undo changes which steps are undone
    if (result.clearScreen || result.newSession) this.entries.emit(this.snapshot());
    if (!result.runPrompt?.trim()) return undefined;
    if (this.running) {
      this.followUps.add(this.agent, result.runPrompt.trim());
      return undefined;
    }
    return this.runTurn(result.runPrompt.trim());
  }

  private async ensureAgent(options?: { sessionId?: string }): Promise<Agent | undefined> {
    if (this.agent) return this.agent;
    const generation = this.generation;
    this.building ??= this.agentSource(options);
    const building = this.building;
    let built: Awaited<ReturnType<AgentSource>>;
    try {
      built = await building;
    } finally {
      if (this.building === building) this.building = undefined;
    }
    if (generation !== this.generation) return undefined;
    if ('problem' in built) {
      this.entries.upsert({ ...built.problem, id: this.entries.newId() });
      return undefined;
    }
    if (!this.agent) {
      this.agent = built.agent;
      this.options.sessions?.follow(built.agent);
      this.models = built.models;
      this.agent.setMode(this.mode);
      if (this.level) this.agent.setThinkingLevel(this.level);
      this.emitAgentState();
    }
    return this.agent;
  }

  /** The undo history's steps onto the tool cards ("Restore to here"); skipped while a turn runs. */
  private async refreshSteps(): Promise<void> {
    const agent = this.agent;
    if (!agent || agent.running) return;
    const generation = this.generation;
    let steps;
    try {
      steps = await agent.undoSteps();
    } catch {
      return; // the marks are a convenience: /undo still works
    }
    if (generation !== this.generation || agent !== this.agent) return;
    for (const entry of stepMarks(this.entries.list(), steps)) this.entries.upsert(entry);
  }

  private turnUi(generation: number) {
    return turnUi({
      transcript: this.entries,
      requests: this.requests,
      live: () => generation === this.generation,
      todos: (todos) => this.setTodos(todos),
      cost: (cost) => this.setCost(cost),
      usage: (usage) => this.addUsage(usage),
      context: (info) => this.setContext(info),
      recordEdit: (change) => this.options.editReview?.recordEdit(change),
      mode: (mode) => {
        this.mode = mode;
        this.emitAgentState();
      },
    });
  }

  private setTodos(todos: readonly Todo[]): void {
    this.todoList = todos.map((t) => ({ ...t }));
    this.entries.emit({ type: 'todos', todos: this.todoList.map(todoView) });
  }

  private setCost(cost: CostSnapshot): void {
    this.costFromSink = true;
    this.costView = costView(cost);
    this.entries.emit({ type: 'cost', cost: this.costView });
  }

  /**
   * A pressure reading replaces the gauge; a stage event (which has no window size of its own)
   * only records what ran and what it freed.
   */
  private setContext(info: ContextInfo): void {
    const previous = this.contextView;
    const reading = info.contextWindow > 0 ? { pressure: info.pressure, promptTokens: info.promptTokens, contextWindow: info.contextWindow } : previous;
    if (!reading) return;
    const stage = info.stage ? { lastStage: info.stage, lastFreed: info.tokensFreed ?? 0 } : previous?.lastStage ? { lastStage: previous.lastStage, lastFreed: previous.lastFreed } : {};
    this.contextView = { pressure: reading.pressure, promptTokens: reading.promptTokens, contextWindow: reading.contextWindow, ...stage };
    this.entries.emit({ type: 'context', context: this.contextView });
  }

  /** Without a cost tracker in the agent, the footer still counts tokens from the usage events. */
  private addUsage(usage: TokenUsage): void {
    if (this.costFromSink) return;
    const c = this.costView ?? { inputTokens: 0, cachedTokens: 0, outputTokens: 0, calls: 0 };
    this.costView = {
      inputTokens: c.inputTokens + usage.promptTokens,
      cachedTokens: c.cachedTokens + usage.cachedTokens,
      outputTokens: c.outputTokens + usage.outputTokens,
      calls: c.calls + 1,
    };
    this.entries.emit({ type: 'cost', cost: this.costView });
  }

  /** After a command or a turn: the agent's own view of todos, cost, mode and thinking level. */
  private syncFromAgent(): void {
    const agent = this.agent;
    if (!agent) return;
    this.mode = agent.mode;
    this.emitAgentState();
    const todos = agent.todos();
    if (!sameTodos(todos, this.todoList)) this.setTodos(todos);
    const cost = agent.cost();
    if (cost) this.setCost(cost);
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
    this.running?.abort();
    this.requests.cancelAll();
  }

  private reportOutcome(result: TurnResult): void {
    if (result.status === 'failed') {
      const action = result.error.kind === 'auth' ? 'setApiKey' : result.error.kind === 'unreachable' ? 'openSettings' : undefined;
      this.entries.upsert({ kind: 'error', id: this.entries.newId(), text: result.error.message, ...(action ? { action } : {}) });
    } else if (result.status === 'stopped') {
      this.notice('Stopped.');
    } else if (result.status === 'iteration_limit') {
      this.notice('OpenDev reached its step limit for this message. Send "continue" to go on.');
    }
  }

  private notice(text: string, level?: 'info' | 'warning', command?: string): void {
    this.entries.upsert({
      kind: 'notice',
      id: this.entries.newId(),
      text,
      ...(level ? { level } : {}),
      ...(command ? { command } : {}),
    });
  }

  private error(text: string): void {
    this.entries.upsert({ kind: 'error', id: this.entries.newId(), text });
  }

  private setRunning(controller: AbortController | undefined): void {
    this.running = controller;
    this.entries.emit({ type: 'busy', busy: controller !== undefined });
  }
}

function todoView(todo: Todo): TodoView {
  return { id: todo.id, title: todo.title, description: todo.description, status: todo.status, ...(todo.log ? { log: todo.log } : {}) };
}

function costView(cost: CostSnapshot): CostView {
  const view: CostView = { inputTokens: cost.inputTokens, cachedTokens: cost.cachedTokens, outputTokens: cost.outputTokens, calls: cost.calls };
  if (cost.usd !== undefined) view.usd = cost.usd;
  return view;
}

function sameTodos(a: readonly Todo[], b: readonly Todo[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i]!.id && t.status === b[i]!.status && t.title === b[i]!.title);
}
