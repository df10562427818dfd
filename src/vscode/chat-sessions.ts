import type { Agent } from '../core/agent/agent';
import type { CommandContext } from '../core/commands/command-registry';
import { SessionRecorder } from '../core/session/session-recorder';
import type { LoadedSession, SessionMeta, SessionStore } from '../core/session/session-store';

export interface ChatSessionsOptions {
  /** Title sessions with the compact model after the first exchange. */
  generateTitles: boolean;
  /** A save that failed, or works again (shown in the chat as a warning). */
  onProblem: (text: string) => void;
}

/**
 * The chat's sessions: the conversation saved as it goes (each message as it joins, a full save at
 * the end of every turn), a new session for New Chat, and resuming an earlier one. The same files
 * as the CLI's, so `opendev --continue` picks up a conversation begun in the editor and back.
 */
export class ChatSessions {
  private recorder: SessionRecorder;
  private unfollow: (() => void) | undefined;

  constructor(
    readonly store: SessionStore,
    readonly workingDir: string,
    private readonly options: ChatSessionsOptions,
  ) {
    this.recorder = this.newRecorder();
  }

  /** The session being written, if any. */
  get currentId(): string | undefined {
    return this.recorder.id;
  }

  /** Follows a newly built agent. One that starts empty starts a new session (a rebuilt agent does not carry the conversation). */
  follow(agent: Agent): void {
    this.unfollow?.();
    if (agent.messages.length === 0 && this.recorder.current) this.recorder.detach();
    this.unfollow = this.recorder.follow(agent);
  }

  /** The full save at the end of a turn; a failure is told, never thrown (the conversation is in memory). */
  async afterTurn(agent: Agent): Promise<void> {
    try {
      await this.recorder.save(agent);
    } catch (err) {
      this.options.onProblem((err as Error).message);
    }
  }

  /**
   * New Chat (no agent: the old one is gone, and what it still reports must not reach the new
   * session) or /clear (the same agent, now empty): the next message starts a new session.
   */
  newConversation(agent?: Agent): void {
    this.unfollow?.();
    this.unfollow = undefined;
    this.recorder.detach();
    if (agent) this.unfollow = this.recorder.follow(agent);
  }

  /** What slash commands need (/sessions, /clear). */
  commandContext(): Pick<CommandContext, 'sessions' | 'session' | 'workingDir'> {
    return { sessions: this.store, ...(this.recorder.current ? { session: this.recorder.current } : {}), workingDir: this.workingDir };
  }

  list(): Promise<SessionMeta[]> {
    return this.store.list(this.workingDir);
  }

  /** Loads a session of this project; the recorder continues writing it. Undefined when there is none. */
  async resume(id: string, agent: Agent): Promise<LoadedSession | undefined> {
    const loaded = await this.store.load(id, this.workingDir);
    if (!loaded) return undefined;
    const cost = loaded.record.meta.cost;
    agent.restore(loaded.messages, cost ? { ...cost, usd: cost.usd } : undefined);
    this.unfollow?.();
    this.recorder.dispose();
    this.recorder = this.newRecorder(loaded);
    this.unfollow = this.recorder.follow(agent);
    return loaded;
  }

  /** Resolves when queued writes and titles are done (tests, shutdown). */
  settled(): Promise<void> {
    return this.recorder.settled();
  }

  dispose(): void {
    this.unfollow?.();
    this.recorder.dispose();
  }

  private newRecorder(loaded?: LoadedSession): SessionRecorder {
    return new SessionRecorder(this.store, this.workingDir, loaded?.record, { generateTitles: this.options.generateTitles, onProblem: this.options.onProblem });
  }
}
