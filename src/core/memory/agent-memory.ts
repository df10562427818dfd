import type { TurnServices } from '../llm/model-call';
import type { RoleResolver } from '../llm/role-resolver';
import type { Message } from '../messages';
import { loadTemplate, renderTemplate } from '../templates';
import { silentUI } from '../ui';
import type { ConversationMemory } from './conversation-memory';
import { DEFAULT_EPISODIC, EpisodicMemory, type EpisodicOptions } from './episodic-memory';
import type { Bullet } from './playbook/bullet';
import { curate } from './playbook/curator';
import { applyDelta, DEFAULT_DELTA_LIMITS, type DeltaLimits, type DeltaOperation } from './playbook/delta';
import { LexicalEmbedder, type Embedder } from './playbook/embedding';
import type { PlaybookStore } from './playbook/playbook-store';
import { reflect } from './playbook/reflector';
import { DEFAULT_SELECTOR, selectBullets } from './playbook/selector';

export interface AgentMemoryOptions {
  roles: RoleResolver;
  store: PlaybookStore;
  /** Default: the local lexical embedding. */
  embedder?: Embedder;
  /** Let the reflector and curator update the playbook (default true); without, the playbook is read only. */
  learn?: boolean;
  /** Run the reflector after this many new messages (paper: 5; the settings default to DEFAULT_REFLECT_EVERY). */
  reflectEvery?: number;
  episodic?: EpisodicOptions;
  limits?: DeltaLimits;
  /** Problems the user may want to know about (a damaged playbook file). */
  onWarning?: (message: string) => void;
  /** What the reflector and curator changed or skipped (for logs and tests). */
  onNote?: (note: string) => void;
  now?: () => Date;
}

/** How long the next turn waits for a reflection still running before it selects bullets anyway. */
const WAIT_FOR_REFLECTION_MS = 10_000;
/** How long dispose() lets a running reflection finish before aborting it. */
const DISPOSE_GRACE_MS = 5_000;

/**
 * The main agent's memory: dual memory for the thinking phase (episodic summary + working memory)
 * and the ACE playbook (selected bullets in the system prompt; reflector and curator learning from
 * the conversation every few messages). Nothing here fails a turn: every error is swallowed and,
 * where the user should know, reported as a warning.
 *
 * The reflector runs in the background (the turn goes on); one reflection at a time. The next
 * turn's prompt waits for it (bounded), and dispose() settles it before the agent goes away.
 */
export class AgentMemory implements ConversationMemory {
  readonly episodic: EpisodicMemory;
  private readonly embedder: Embedder;
  private readonly reflectEvery: number;
  private readonly limits: DeltaLimits;
  private readonly controller = new AbortController();
  private query = '';
  private shown: Bullet[] = [];
  /** History length up to which the reflector has seen the conversation. */
  private reflectedAt = 0;
  private pending: Promise<void> | undefined;
  private disposed = false;

  constructor(private readonly options: AgentMemoryOptions) {
    this.episodic = new EpisodicMemory(options.roles, options.episodic ?? DEFAULT_EPISODIC);
    this.embedder = options.embedder ?? new LexicalEmbedder();
    this.reflectEvery = options.reflectEvery ?? 5;
    this.limits = options.limits ?? DEFAULT_DELTA_LIMITS;
  }

  thinkingView(history: readonly Message[], services: TurnServices): Promise<Message[]> {
    return this.episodic.view(history, this.query || undefined, services);
  }

  async promptAddendum(query: string): Promise<string | undefined> {
    this.query = query;
    this.shown = [];
    try {
      await this.waitForReflection(WAIT_FOR_REFLECTION_MS);
      const template = loadTemplate('memory/playbook.md');
      if (!template) return undefined;
      const playbook = await this.options.store.read();
      const selected = await selectBullets(playbook.bullets, query, this.embedder, { ...DEFAULT_SELECTOR, now: this.now() }, this.controller.signal);
      this.shown = selected.map((s) => s.bullet);
      if (selected.length === 0) return undefined;
      return renderTemplate(template, { BULLETS: selected.map((s) => `- [${s.bullet.id}] ${s.bullet.content}`).join('\n') });
    } catch (err) {
      this.warn(`The playbook could not be read: ${(err as Error).message}`);
      return undefined;
    }
  }

  async afterIteration(history: readonly Message[], services: TurnServices): Promise<void> {
    if (this.disposed || this.options.learn === false) return;
    // A shorter history (compaction, a cleared chat): count new messages from here.
    if (history.length < this.reflectedAt) this.reflectedAt = history.length;
    if (history.length - this.reflectedAt < this.reflectEvery || this.pending) return;
    const messages = history.slice(this.reflectedAt).filter((m) => m.role !== 'system');
    this.reflectedAt = history.length;
    const run = this.reflectOn(messages, this.query, [...this.shown], services).catch((err: unknown) => {
      if (!this.controller.signal.aborted) this.note(`reflection failed: ${(err as Error).message ?? String(err)}`);
    });
    const tracked: Promise<void> = run.then(() => {
      if (this.pending === tracked) this.pending = undefined;
    });
    this.pending = tracked;
  }

  /** Resolves when no reflection is running. */
  async settled(): Promise<void> {
    while (this.pending) await this.pending;
  }

  /** Stops learning: lets a running reflection finish (briefly), then aborts it. Never rejects. */
  async dispose(graceMs = DISPOSE_GRACE_MS): Promise<void> {
    this.disposed = true;
    await this.waitForReflection(graceMs);
    this.controller.abort();
    await this.settled();
  }

  private async reflectOn(messages: Message[], query: string, shown: Bullet[], turn: TurnServices): Promise<void> {
    const model = this.options.roles.forRole('compact');
    if (!model || messages.length === 0) return;
    // Its own services: the reflection may outlive the turn; its cost still counts for the session.
    const services: TurnServices = { ui: silentUI, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, cost: turn.cost, signal: this.controller.signal };
    const reflection = await reflect(model, { query, shown, messages }, services);
    if (!reflection.ok) {
      this.note(`reflector: no valid answer (${reflection.error}); the playbook is unchanged`);
      return;
    }
    const operations: DeltaOperation[] = reflection.value.bullet_tags.map((t) => ({ type: 'tag', id: t.id, tag: t.tag }));
    if (reflection.value.insights.length > 0) {
      const batch = await curate(model, await this.options.store.read(), reflection.value.insights, this.limits, services);
      if (batch.ok) operations.push(...batch.value.operations);
      else this.note(`curator: no valid answer (${batch.error}); only the reflector's tags are applied`);
    }
    if (operations.length === 0 || this.controller.signal.aborted) return;
    await this.options.store.update((playbook) => {
      const outcome = applyDelta(playbook, operations, this.now(), this.limits);
      for (const note of outcome.notes) this.note(note);
      return outcome.changed ? outcome.playbook : undefined;
    });
  }

  private async waitForReflection(ms: number): Promise<void> {
    if (!this.pending) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pending, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }

  private note(message: string): void {
    this.options.onNote?.(message);
  }
}
