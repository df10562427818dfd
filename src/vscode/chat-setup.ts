// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { ChatEntry, ChatEntryOf, ImageUpload } from '../shared/protocol';
import type { Transcript } from './transcript';

/** A question sent before the agent could be built: its entry is in the transcript already. */
export interface WaitingQuestion {
  entry: ChatEntryOf<'user'>;
  images: readonly ImageUpload[];
}

export interface ChatSetupHost {
  entries: Transcript;
  /** No turn runs: a waiting question may start now. */
  idle(): boolean;
  /** Runs the question that waited for the setup, on the entry it already has. */
  resume(question: WaitingQuestion): void;
}

/**
 * What keeps the chat from reaching a model (no key, no server address, an invalid setting), as one
 * card: the chat's state before the first question (an empty chat shows it), then after the
 * question that waits for it. Each check or build replaces the card rather than adding another; once
 * the settings or keys change so nothing is missing, the card goes and the waiting question runs.
 */
export class ChatSetup {
  private cardId: string | undefined;
  private waiting: WaitingQuestion | undefined;
  /** Bumped by every check and every report: an older check's answer is stale. */
  private checks = 0;

  constructor(
    private readonly host: ChatSetupHost,
    /** The problem the agent would hit now, read from settings and secrets without building one. */
    private readonly check?: () => Promise<ChatEntry | undefined>,
  ) {}

  /** The card's entry id, while one is shown. */
  get card(): string | undefined {
    return this.cardId;
  }

  /** A build reported `problem`: the one card moves after `question` (which then waits for the fix). */
  report(problem: ChatEntry, question?: WaitingQuestion): void {
    this.checks++;
    if (this.cardId) this.host.entries.remove(this.cardId);
    this.cardId = this.host.entries.newId();
    if (question) this.waiting = question;
    this.host.entries.upsert(this.worded(problem));
  }

  /** An agent was built: the card is stale. */
  built(): void {
    if (!this.cardId) return;
    this.checks++;
    this.removeCard();
  }

  /** A new question supersedes the waiting one (it would otherwise run later, unasked). */
  asked(): void {
    this.waiting = undefined;
  }

  /** New Chat: no card, no waiting question, then the check again (the empty chat shows the card). */
  reset(): Promise<void> {
    this.cardId = undefined;
    this.waiting = undefined;
    return this.refresh();
  }

  /**
   * Settings or keys changed, or the chat opened: checks again. A problem updates the card in place,
   * or shows it in an empty chat; none removes the card and runs the waiting question.
   */
  async refresh(): Promise<void> {
    if (!this.check) return;
    const check = ++this.checks;
    let problem: ChatEntry | undefined;
    try {
      problem = await this.check();
    } catch {
      return; // the next message builds the agent and says what is wrong
    }
    if (check !== this.checks) return;
    if (problem) {
      if (this.cardId || this.host.entries.list().length === 0) {
        this.cardId ??= this.host.entries.newId();
        this.host.entries.upsert(this.worded(problem));
      }
      return;
    }
    this.removeCard();
    const waiting = this.waiting;
    if (!waiting || !this.host.idle() || !this.host.entries.find(waiting.entry.id)) return;
    this.waiting = undefined;
    this.host.resume(waiting);
  }

  private removeCard(): void {
    if (this.cardId) this.host.entries.remove(this.cardId);
    this.cardId = undefined;
  }

  /** The card, with its id, saying that the question waiting for it runs once it is fixed. */
  private worded(problem: ChatEntry): ChatEntry {
    const entry = { ...problem, id: this.cardId! };
    if (!this.waiting || (entry.kind !== 'setup' && entry.kind !== 'error')) return entry;
    return { ...entry, text: l10n.t('{0} Your message is sent as soon as this is done.', entry.text) };
  }
}
