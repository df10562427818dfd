import type { Message } from '../messages';
import type { CostSnapshot } from '../ui';
import type { SessionRecord, SessionStore } from './session-store';

/** What the recorder reads from an agent after a turn. */
export interface RecordedConversation {
  readonly messages: readonly Message[];
  cost(): CostSnapshot | undefined;
}

/**
 * Keeps one front end's conversation saved: `save()` after every turn creates the session on
 * first use (so an empty conversation never leaves an empty session behind) and then appends.
 * `detach()` (after /clear) makes the next save start a new session.
 */
export class SessionRecorder {
  constructor(
    readonly store: SessionStore,
    readonly workingDir: string,
    private record: SessionRecord | undefined = undefined,
  ) {}

  /** The session being written, if one was created or resumed. */
  get current(): SessionRecord | undefined {
    return this.record;
  }

  get id(): string | undefined {
    return this.record?.meta.id;
  }

  /** Saves the conversation; a no-op while it is empty and no session exists yet. */
  async save(agent: RecordedConversation): Promise<SessionRecord | undefined> {
    const messages = agent.messages;
    if (!this.record) {
      if (messages.length === 0) return undefined;
      this.record = await this.store.create(this.workingDir);
    }
    await this.store.sync(this.record, messages, agent.cost());
    return this.record;
  }

  detach(): void {
    this.record = undefined;
  }
}
