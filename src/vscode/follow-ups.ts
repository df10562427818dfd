// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { Agent } from '../core/agent/agent';
import type { MentionChip } from '../shared/protocol';
import type { Transcript } from './transcript';

type Notice = (text: string) => void;

/**
 * Messages typed while the agent works. Each goes to `agent.inject()` and shows as a "queued" user
 * entry until the turn ends (the agent reads it at its next step). One typed while the agent is
 * still being built waits here and is injected as soon as the turn starts.
 */
export class FollowUps {
  /** Entry ids shown as queued. */
  private queued: string[] = [];
  /** Typed before the turn started: injected by `flush`. */
  private early: Array<{ id: string; text: string }> = [];

  constructor(
    private readonly transcript: Transcript,
    private readonly warn: Notice,
  ) {}

  /**
   * `agent` is the chat's agent, or undefined while it is being built. `shown`: what the user
   * typed, when `text` (what the agent reads) adds context to it, with its mention chips.
   */
  add(agent: Agent | undefined, text: string, shown?: { text: string; mentions: MentionChip[] }): void {
    if (agent?.running) {
      if (!agent.inject(text)) {
        this.warn(l10n.t('The follow-up queue is full. Wait until OpenDev has read the queued messages, or press Stop.'));
        return;
      }
      this.show(shown ?? { text, mentions: [] });
      return;
    }
    this.early.push({ id: this.show(shown ?? { text, mentions: [] }), text });
  }

  /** The turn has started: what was typed before it joins now. */
  flush(agent: Agent): void {
    for (const { id, text } of this.early.splice(0)) {
      if (agent.inject(text)) continue;
      this.forget(id);
      this.warn(l10n.t('Not sent (the follow-up queue is full): {0}', text));
    }
  }

  /** The agent could not start: what waited for it is taken back. */
  drop(): void {
    const dropped = this.early.splice(0);
    if (dropped.length === 0) return;
    for (const { id } of dropped) this.forget(id);
    this.warn(dropped.length === 1 ? l10n.t('A follow-up was not sent: OpenDev could not start.') : l10n.t('{0} follow-ups were not sent: OpenDev could not start.', dropped.length));
  }

  /** The turn is over: its follow-ups have been read (or join the next message), no longer queued. */
  settle(): void {
    for (const id of this.queued.splice(0)) {
      const entry = this.transcript.find(id);
      if (entry?.kind === 'user') this.transcript.upsert({ ...entry, queued: undefined });
    }
  }

  /** New Chat, /clear: nothing is queued any more. */
  reset(): void {
    this.queued = [];
    this.early = [];
  }

  private show({ text, mentions }: { text: string; mentions: MentionChip[] }): string {
    const id = this.transcript.newId();
    this.transcript.upsert({ kind: 'user', id, text, queued: true, ...(mentions.length > 0 ? { mentions } : {}) });
    this.queued.push(id);
    return id;
  }

  private forget(id: string): void {
    this.queued = this.queued.filter((q) => q !== id);
    this.transcript.remove(id);
  }
}
