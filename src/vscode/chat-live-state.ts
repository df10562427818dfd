import type { Agent } from '../core/agent/agent';
import type { TokenUsage } from '../core/llm/provider';
import type { Todo } from '../core/todo';
import type { ContextInfo, CostSnapshot } from '../core/ui';
import type { ContextView, CostView, SandboxView, TodoView } from '../shared/protocol';
import { sandboxView, sandboxViewWhenKnown } from './status/sandbox-view';
import type { Transcript } from './transcript';

/**
 * What the chat shows around the transcript while it runs: the todo list, the running cost (or at
 * least the tokens) and the context meter. Each change goes to the view as its own message.
 */
export class ChatLiveState {
  private todoList: readonly Todo[] = [];
  private costView: CostView | undefined;
  /** The agent reports its cost itself: usage events are not added up too. */
  private costFromSink = false;
  private contextView: ContextView | undefined;
  /** Kept over New Chat: the next agent is built with the same settings; its own status replaces it. */
  private sandboxState: SandboxView | undefined;
  /** Bumped for each agent followed: an older agent's late answer is dropped. */
  private sandboxFollowed = 0;

  constructor(private readonly entries: Transcript) {}

  get todos(): TodoView[] {
    return this.todoList.map(todoView);
  }

  get cost(): CostView | undefined {
    return this.costView;
  }

  get context(): ContextView | undefined {
    return this.contextView;
  }

  get sandbox(): SandboxView | undefined {
    return this.sandboxState;
  }

  /**
   * A new agent took over: whether its commands run sandboxed, once its sandbox has looked (until
   * then the last word stands, or "starting"). Nothing for an agent its host gave no sandbox.
   */
  followSandbox(agent: Agent): void {
    const followed = ++this.sandboxFollowed;
    const sandbox = agent.sandbox;
    if (!sandbox) return;
    if (!this.sandboxState && !sandbox.knownStatus) this.setSandbox(sandboxView(sandbox));
    void sandboxViewWhenKnown(sandbox).then((view) => {
      if (followed === this.sandboxFollowed) this.setSandbox(view);
    });
  }

  private setSandbox(view: SandboxView): void {
    this.sandboxState = view;
    this.entries.emit({ type: 'sandbox', ...view });
  }

  /** New Chat: nothing to show until the next turn. */
  reset(): void {
    this.todoList = [];
    this.costView = undefined;
    this.costFromSink = false;
    this.contextView = undefined;
  }

  setTodos(todos: readonly Todo[]): void {
    this.todoList = todos.map((t) => ({ ...t }));
    this.entries.emit({ type: 'todos', todos: this.todos });
  }

  setCost(cost: CostSnapshot): void {
    this.costFromSink = true;
    this.costView = costView(cost);
    this.entries.emit({ type: 'cost', cost: this.costView });
  }

  setContext(info: ContextInfo): void {
    const next = contextAfter(this.contextView, info);
    if (!next) return;
    this.contextView = next;
    this.entries.emit({ type: 'context', context: next });
  }

  /** Without a cost tracker in the agent, the footer still counts tokens from the usage events. */
  addUsage(usage: TokenUsage): void {
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

  /** After a command or a turn: the agent's own todos and cost. */
  syncFrom(agent: Agent): void {
    const todos = agent.todos();
    if (!sameTodos(todos, this.todoList)) this.setTodos(todos);
    const cost = agent.cost();
    if (cost) this.setCost(cost);
  }
}

/**
 * The context meter after a reading: a pressure reading replaces the gauge; a stage event (which
 * has no window size of its own) only records what ran and what it freed ("warn" reduces nothing,
 * so it is not recorded as the last reduction). Undefined before any reading.
 */
export function contextAfter(previous: ContextView | undefined, info: ContextInfo): ContextView | undefined {
  const reading = info.contextWindow > 0 ? { pressure: info.pressure, promptTokens: info.promptTokens, contextWindow: info.contextWindow } : previous;
  if (!reading) return undefined;
  const stage = info.stage && info.stage !== 'warn' ? { lastStage: info.stage, lastFreed: info.tokensFreed ?? 0 } : previous?.lastStage ? { lastStage: previous.lastStage, lastFreed: previous.lastFreed } : {};
  return { pressure: reading.pressure, promptTokens: reading.promptTokens, contextWindow: reading.contextWindow, ...stage };
}

export function costView(cost: CostSnapshot): CostView {
  const view: CostView = { inputTokens: cost.inputTokens, cachedTokens: cost.cachedTokens, outputTokens: cost.outputTokens, calls: cost.calls };
  if (cost.usd !== undefined) view.usd = cost.usd;
  return view;
}

function todoView(todo: Todo): TodoView {
  return { id: todo.id, title: todo.title, description: todo.description, status: todo.status, ...(todo.log ? { log: todo.log } : {}) };
}

function sameTodos(a: readonly Todo[], b: readonly Todo[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i]!.id && t.status === b[i]!.status && t.title === b[i]!.title);
}
