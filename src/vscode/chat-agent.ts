import type { Agent } from '../core/agent/agent';
import { carryConversation } from '../core/agent/carry-conversation';
import type { ModelInfo } from '../core/commands/slash-commands';
import type { ChatEntry } from '../shared/protocol';

/**
 * Builds the agent for the current settings, or says why it cannot (no key, no folder…);
 * `sessionId`: the session the agent belongs to (a resumed one, or the one a rebuilt agent goes
 * on with), so its scratch folder, hooks and undo history are that session's.
 */
export type AgentSource = (options?: { sessionId?: string }) => Promise<{ agent: Agent; models?: readonly ModelInfo[] } | { problem: ChatEntry }>;

export interface ChatAgentEvents {
  /** An agent took its place (the first, a rebuilt or a renewed one): the chat follows it. */
  adopted(agent: Agent): void;
  /** Why no agent could be built, for the chat to show. */
  problem(entry: ChatEntry): void;
}

/**
 * The chat's agent and its lifecycle. Built on first use. When settings or keys change it is
 * rebuilt before the next message, the conversation carried over under the same session id (the
 * old one is disposed only once the new one exists, so a failed build loses nothing). After
 * /clear the next message gets a fresh agent, hence a new session id for the new conversation.
 * New Chat drops it; whatever was being built for the old chat is then discarded.
 */
export class ChatAgent {
  private agent: Agent | undefined;
  private modelInfo: readonly ModelInfo[] | undefined;
  private building: { promise: ReturnType<AgentSource>; epoch: number } | undefined;
  /** Settings changed: rebuild before the next message. */
  private stale = false;
  /** /clear dropped this agent: the next one starts its session as a cleared one, after this one's SessionEnd. */
  private cleared: { after?: Agent } | undefined;
  /** Bumped by drop(): a build begun before it is discarded. */
  private epoch = 0;

  constructor(
    private readonly source: AgentSource,
    private readonly events: ChatAgentEvents,
  ) {}

  get current(): Agent | undefined {
    return this.agent;
  }

  get models(): readonly ModelInfo[] | undefined {
    return this.modelInfo;
  }

  /** Settings or keys changed: the next message runs on an agent built with them. */
  invalidate(): void {
    if (this.agent) this.stale = true;
  }

  /** New Chat: the agent goes (disposed); the next message builds one. */
  drop(): void {
    this.epoch++;
    this.building = undefined;
    this.stale = false;
    this.cleared = undefined;
    this.dispose();
  }

  /** /clear: the conversation is over; the next message gets a fresh agent (a new session). */
  renew(): void {
    const previous = this.agent;
    this.drop();
    this.cleared = { after: previous };
  }

  dispose(): void {
    const agent = this.agent;
    this.agent = undefined;
    void agent?.dispose().catch(() => undefined);
  }

  /**
   * The agent for the next message: the current one, or one built now (under `sessionId` when
   * there is none yet). Undefined when it cannot be built (the problem is reported) or when New
   * Chat came first.
   */
  async ready(options?: { sessionId?: string }): Promise<Agent | undefined> {
    const previous = this.agent;
    if (previous && !(this.stale && !previous.running)) return previous;
    const epoch = this.epoch;
    const sessionId = previous?.sessionId ?? options?.sessionId;
    if (this.building?.epoch !== epoch) this.building = { promise: this.source(sessionId ? { sessionId } : {}), epoch };
    const building = this.building;
    let built: Awaited<ReturnType<AgentSource>>;
    try {
      built = await building.promise;
    } finally {
      if (this.building === building) this.building = undefined;
    }
    if (epoch !== this.epoch) {
      if ('agent' in built && built.agent !== this.agent) void built.agent.dispose().catch(() => undefined);
      return undefined;
    }
    if ('problem' in built) {
      this.events.problem(built.problem);
      return undefined;
    }
    // Two callers may await the same build: the first one puts it in place.
    if (this.agent !== previous) return this.agent;
    if (previous) {
      if (previous.running) {
        void built.agent.dispose().catch(() => undefined);
        return previous; // a turn started meanwhile: the rebuild waits for the next message
      }
      carryConversation(previous, built.agent);
      void previous.dispose().catch(() => undefined);
    } else if (this.cleared) {
      // SessionStart hooks hear that this session began with /clear.
      built.agent.clear(this.cleared);
    }
    this.agent = built.agent;
    this.modelInfo = built.models;
    this.stale = false;
    this.cleared = undefined;
    this.events.adopted(built.agent);
    return built.agent;
  }
}
