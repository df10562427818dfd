import type { RoleResolver } from '../llm/role-resolver';
import type { Message } from '../messages';
import type { CostSnapshot } from '../ui';
import type { SessionRecord, SessionStore } from './session-store';
import { generateSessionTitle, hasFirstExchange, titleFromPrompt } from './session-titler';
import type { SessionTitles } from '../config/session-titles-setting';
import { SerialQueue } from '../serial-queue';

/** What the recorder reads from an agent after a turn. */
export interface RecordedConversation {
  readonly messages: readonly Message[];
  cost(): CostSnapshot | undefined;
  /** The models per role; the compact one titles sessions. */
  readonly roles?: RoleResolver;
  /** The agent's session id: a new session is saved under it (when it is free), so every part names one session. */
  readonly sessionId?: string;
}

/** An agent the recorder can follow message by message (Agent.observeHistory). */
export interface FollowedConversation extends RecordedConversation {
  /** Calls `listener` whenever messages have joined the history; returns the unsubscribe. */
  observeHistory(listener: (history: readonly Message[]) => void): () => void;
}

export interface SessionRecorderOptions {
  /**
   * Where titles come from (setting `sessionTitles`): `first-prompt` (the default here: no model
   * call), `model` (the compact model after the first exchange), `when-needed` (the model only when
   * the first prompt is no usable title). Hosts pass the setting.
   */
  titles?: SessionTitles;
  /** Told when saving fails (the conversation stays in memory; the next save retries) and when it works again. */
  onProblem?: (problem: string) => void;
  /** A full save (metadata and index too) after this many per-message saves (paper: every 5). */
  metadataEvery?: number;
  /** A title that takes longer is given up (the first-line title stays). */
  titleTimeoutMs?: number;
}

/** One conversation's session; detach() starts the next conversation in a new slot. */
interface Slot {
  record?: SessionRecord;
  perMessageSaves: number;
}

/**
 * Keeps one front end's conversation saved. `follow(agent)` appends each message to the transcript
 * as it joins the history (a crash mid-turn loses nothing already said), with a full save every few
 * of those; `save()` at the end of every turn is a full save. The session is created on first use
 * (an empty conversation leaves nothing behind). Writes are queued, one at a time, and never touch
 * the conversation itself: when the disk is full the conversation stays in memory and the next save
 * tries again. After the first exchange the session may get a title in the background.
 */
export class SessionRecorder {
  private slot: Slot;
  private readonly queue = new SerialQueue();
  private readonly pending = new Map<Slot, Message[]>();
  private followed: FollowedConversation | undefined;
  private failing = false;
  /** Sessions titled (or being titled) by this recorder. */
  private readonly titled = new Set<string>();
  private readonly titling = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  constructor(
    readonly store: SessionStore,
    readonly workingDir: string,
    record: SessionRecord | undefined = undefined,
    private readonly options: SessionRecorderOptions = {},
  ) {
    this.slot = { record, perMessageSaves: 0 };
  }

  /** The session being written, if one was created or resumed. */
  get current(): SessionRecord | undefined {
    return this.slot.record;
  }

  get id(): string | undefined {
    return this.slot.record?.meta.id;
  }

  /** Saves each message as it joins `agent`'s history. Returns the unsubscribe. */
  follow(agent: FollowedConversation): () => void {
    this.followed = agent;
    return agent.observeHistory((history) => this.messagesJoined(history));
  }

  /** The full save (transcript, metadata, index) at the end of a turn; rejects when it fails (the conversation is untouched). */
  async save(agent: RecordedConversation): Promise<SessionRecord | undefined> {
    const slot = this.slot;
    const messages = agent.messages.slice();
    const cost = agent.cost();
    this.pending.delete(slot); // this save covers it
    const record = await this.enqueue(async () => {
      if (!slot.record && messages.length === 0) return undefined;
      try {
        slot.record ??= await this.store.create(this.workingDir, '', agent.sessionId);
        await this.store.sync(slot.record, messages, cost);
      } catch (err) {
        this.failing = true; // the caller reports this one
        throw err;
      }
      slot.perMessageSaves = 0;
      this.recovered(slot.record);
      return slot.record;
    });
    if (record) this.maybeTitle(record, messages, agent.roles ?? this.followed?.roles);
    return record;
  }

  /** The next message starts a new session (after /clear or New Chat). */
  detach(): void {
    this.slot = { perMessageSaves: 0 };
  }

  /** Resolves when every queued write and running title is done. */
  async settled(): Promise<void> {
    for (;;) {
      await Promise.all([this.queue.idle(), ...this.titling]);
      if (this.queue.pending === 0 && this.titling.size === 0) return;
    }
  }

  /** Stops titles in flight (queued writes still finish). */
  dispose(): void {
    this.controller.abort();
  }

  private messagesJoined(history: readonly Message[]): void {
    if (history.length === 0) return;
    const slot = this.slot;
    const queued = this.pending.has(slot);
    // Only the newest snapshot matters: writes that queue up while one runs are merged.
    this.pending.set(slot, history.slice());
    if (!queued) void this.enqueue(() => this.flush(slot));
  }

  private async flush(slot: Slot): Promise<void> {
    const snapshot = this.pending.get(slot);
    this.pending.delete(slot);
    if (!snapshot) return;
    try {
      slot.record ??= await this.store.create(this.workingDir, '', this.followed?.sessionId);
      if (++slot.perMessageSaves >= (this.options.metadataEvery ?? 5)) {
        slot.perMessageSaves = 0;
        await this.store.sync(slot.record, snapshot, this.followed?.cost());
      } else {
        await this.store.syncTranscript(slot.record, snapshot);
      }
      this.recovered(slot.record);
    } catch (err) {
      if (!this.failing) this.options.onProblem?.(`${(err as Error).message} The conversation is kept in memory; the next save tries again.`);
      this.failing = true;
    }
  }

  private recovered(record: SessionRecord): void {
    if (!this.failing) return;
    this.failing = false;
    this.options.onProblem?.(`Session ${record.meta.id} is saved again; nothing was lost.`);
  }

  private maybeTitle(record: SessionRecord, messages: readonly Message[], roles: RoleResolver | undefined): void {
    const titles = this.options.titles ?? 'first-prompt';
    if (titles === 'first-prompt' || !roles || record.meta.titleSource === 'model' || this.titled.has(record.meta.id)) return;
    if (titles === 'when-needed' && titleFromPrompt(messages) !== undefined) return;
    if (!hasFirstExchange(messages)) return;
    let model;
    try {
      model = roles.forRole('compact');
    } catch {
      return; // e.g. a compact model on a provider without a key: the first-line title stays
    }
    if (!model) return;
    this.titled.add(record.meta.id);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.options.titleTimeoutMs ?? 30_000);
    const stop = () => timeout.abort();
    this.controller.signal.addEventListener('abort', stop);
    const run = generateSessionTitle(model, messages, timeout.signal)
      .then(async (title) => {
        if (!title || timeout.signal.aborted) return;
        record.meta.title = title;
        record.meta.titleSource = 'model';
        await this.enqueue(() => this.store.save(record.meta));
      })
      .catch((err: unknown) => this.options.onProblem?.(`The session title was not saved: ${(err as Error).message}`))
      .finally(() => {
        clearTimeout(timer);
        this.controller.signal.removeEventListener('abort', stop);
        this.titling.delete(run);
      });
    this.titling.add(run);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }
}
