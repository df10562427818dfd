import type { Agent } from '../core/agent/agent';
import type { CommandContext } from '../core/commands/command-registry';
import { readFirstPrompt } from '../core/session/first-prompt';
import { sessionFiles } from '../core/session/session-record';
import { SessionRecorder } from '../core/session/session-recorder';
import type { LoadedSession, SessionMeta, SessionStore } from '../core/session/session-store';
import type { SessionTitles } from '../core/config/session-titles-setting';
import type { SessionSummary } from '../shared/protocol';

export interface ChatSessionsOptions {
  /** Where the next session's title comes from (`opendev.sessionTitles`), read when it starts. */
  titles: () => SessionTitles;
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
  /** First prompts read from the transcripts of sessions saved before the metadata kept them. */
  private readonly olderPrompts = new Map<string, string>();

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

  /**
   * Follows the chat's new agent: one rebuilt for new settings carries the conversation on in the
   * same session; one that starts empty starts a new session.
   */
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
   * New Chat or /clear: the old agent is gone (what it still reports must not reach the new
   * session); the next message starts a new session, under the id of the agent built for it.
   */
  newConversation(): void {
    this.unfollow?.();
    this.unfollow = undefined;
    this.recorder.detach();
  }

  /** What slash commands need (/sessions, /clear). */
  commandContext(): Pick<CommandContext, 'sessions' | 'session' | 'workingDir'> {
    return { sessions: this.store, ...(this.recorder.current ? { session: this.recorder.current } : {}), workingDir: this.workingDir };
  }

  list(): Promise<SessionMeta[]> {
    return this.store.list(this.workingDir);
  }

  /** The project's sessions for the history view, newest first, each with the user's first message. */
  async summaries(): Promise<SessionSummary[]> {
    const metas = await this.list();
    return Promise.all(metas.map(async (m) => summary(m, m.firstPrompt ?? (await this.olderPrompt(m)))));
  }

  /** Deletes a saved session of this project; the chat's own is refused. Returns why nothing was deleted. */
  async remove(id: string): Promise<string | undefined> {
    if (id === this.currentId) return 'This is the chat you are in: start a New Chat first, then delete it.';
    const meta = (await this.list()).find((m) => m.id === id);
    if (!meta) return `There is no session ${id} in this project any more.`;
    try {
      await this.store.remove(meta);
    } catch (err) {
      return `Session ${id} was not deleted: ${(err as Error).message}`;
    }
    this.olderPrompts.delete(id);
    return undefined;
  }

  /** Reads a session of this project; undefined when there is none. */
  load(id: string): Promise<LoadedSession | undefined> {
    return this.store.load(id, this.workingDir);
  }

  /** Continues a loaded session in `agent` (built with its id): conversation and cost back, the recorder writes on. */
  resume(loaded: LoadedSession, agent: Agent): void {
    const cost = loaded.record.meta.cost;
    agent.restore(loaded.messages, cost ? { ...cost, usd: cost.usd } : undefined);
    this.unfollow?.();
    this.recorder.dispose();
    this.recorder = this.newRecorder(loaded);
    this.unfollow = this.recorder.follow(agent);
  }

  /** Resolves when queued writes and titles are done (tests, shutdown). */
  settled(): Promise<void> {
    return this.recorder.settled();
  }

  dispose(): void {
    this.unfollow?.();
    this.recorder.dispose();
  }

  private async olderPrompt(meta: SessionMeta): Promise<string> {
    const known = this.olderPrompts.get(meta.id);
    if (known !== undefined) return known;
    const text = await readFirstPrompt(sessionFiles(this.store.projectDir(this.workingDir), meta.id).transcript);
    this.olderPrompts.set(meta.id, text);
    return text;
  }

  private newRecorder(loaded?: LoadedSession): SessionRecorder {
    return new SessionRecorder(this.store, this.workingDir, loaded?.record, { titles: this.options.titles(), onProblem: this.options.onProblem });
  }
}

function summary(meta: SessionMeta, firstPrompt: string): SessionSummary {
  return {
    id: meta.id,
    title: meta.title.slice(0, 500),
    firstPrompt: firstPrompt.slice(0, 2_000),
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    messageCount: meta.messageCount,
    ...(meta.cost?.usd !== undefined ? { usd: meta.cost.usd } : {}),
  };
}
