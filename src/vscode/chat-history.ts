// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { Agent } from '../core/agent/agent';
import type { LoadedSession } from '../core/session/session-store';
import type { ChatEntry } from '../shared/protocol';
import type { ChatSessions } from './chat-sessions';
import { stepMarks } from './step-marks';
import type { Transcript } from './transcript';
import { transcriptFromMessages } from './transcript-from-session';

/** What the history needs from the chat it belongs to. */
export interface HistoryHost {
  readonly entries: Transcript;
  readonly sessions: ChatSessions | undefined;
  /** A turn runs (or its agent is being built). */
  busy(): boolean;
  agent(): Agent | undefined;
  /** Bumped by New Chat: work begun before it is dropped. */
  generation(): number;
  newChat(): void;
  /** Continues `loaded` in the chat's session: its agent, or undefined when none could be built (said in the chat). */
  resume(loaded: LoadedSession): Promise<Agent | undefined>;
  /** The agent's own state (mode, todos, cost) into the view, then a full snapshot. */
  showAgentState(): void;
  notice(text: string, level?: 'info' | 'warning'): void;
}

/**
 * The chat's history: the project's sessions for the history view (listed, deleted, resumed into
 * the chat) and "Restore to here" on the tool cards, from the undo history of the chat's session.
 */
export class ChatHistory {
  constructor(private readonly chat: HistoryHost) {}

  /** The history view: the project's sessions, newest first (a `sessions` message to the view). */
  async list(problem?: string): Promise<void> {
    const { entries, sessions } = this.chat;
    if (!sessions) {
      entries.emit({ type: 'sessions', items: [], problem: l10n.t('Open a folder first: sessions belong to a project.') });
      return;
    }
    let items;
    try {
      items = await sessions.summaries();
    } catch (err) {
      entries.emit({ type: 'sessions', items: [], problem: l10n.t('The sessions could not be listed: {0}', (err as Error).message) });
      return;
    }
    const current = sessions.currentId;
    entries.emit({ type: 'sessions', items, ...(current ? { currentId: current } : {}), ...(problem ? { problem } : {}) });
  }

  /** Deletes a saved session (the view asked the user first), then lists the sessions again. */
  async remove(id: string): Promise<void> {
    const problem = this.chat.sessions ? await this.chat.sessions.remove(id) : undefined;
    await this.list(problem);
  }

  /**
   * Continues a saved session of this project in a fresh chat: the agent is built under the
   * session's id (its undo history, scratch folder and hooks go on), the conversation and cost go
   * back to it, and the transcript is rebuilt from the saved messages. False when it cannot
   * (reported in the chat).
   */
  async resume(id: string): Promise<boolean> {
    const { sessions, entries } = this.chat;
    if (!sessions) return false;
    if (this.chat.busy()) {
      this.chat.notice(l10n.t('A session can be resumed once OpenDev has finished (or been stopped).'), 'warning');
      return false;
    }
    // Resuming the chat's own session: what it still has queued goes to disk first.
    if (id === sessions.currentId) await sessions.settled();
    const loaded = await sessions.load(id);
    if (!loaded) {
      this.chat.notice(l10n.t('There is no session {0} in this project.', id), 'warning');
      return false;
    }
    this.chat.newChat();
    const generation = this.chat.generation();
    const agent = await this.chat.resume(loaded);
    if (!agent || generation !== this.chat.generation()) return false;
    const { title } = loaded.record.meta;
    const notice: ChatEntry = {
      kind: 'notice',
      id: entries.newId(),
      text: title
        ? l10n.t('Resumed session {0} "{1}" ({2} messages): OpenDev remembers the conversation.', id, title, loaded.messages.length)
        : l10n.t('Resumed session {0} ({1} messages): OpenDev remembers the conversation.', id, loaded.messages.length),
    };
    // One snapshot, not an upsert per entry: a long session reaches the view in a single message.
    entries.replaceAll([notice, ...transcriptFromMessages(loaded.messages, () => entries.newId())]);
    this.chat.showAgentState();
    await this.refreshSteps();
    return true;
  }

  /**
   * "Restore to here": the files as they were just before `step` (that step and every later one
   * undone); the transcript says what was restored and the cards of undone steps say so.
   */
  async restoreTo(step: number): Promise<void> {
    const agent = this.chat.agent();
    if (this.chat.busy() || agent?.running) {
      this.chat.notice(l10n.t('Files can be restored once OpenDev has finished (or been stopped).'), 'warning');
      return;
    }
    if (!agent) {
      this.chat.notice(l10n.t('There is nothing to restore in this chat.'), 'warning');
      return;
    }
    const outcome = await agent.restoreTo(step);
    const restored = outcome.status === 'undone';
    this.chat.notice(restored ? `${l10n.t('Restored the files to just before step {0}.', step)}\n${outcome.message}` : outcome.message, restored ? 'info' : 'warning');
    await this.refreshSteps();
  }

  /** The undo history's steps onto the tool cards ("Restore to here"); skipped while a turn runs. */
  async refreshSteps(): Promise<void> {
    const agent = this.chat.agent();
    if (!agent || agent.running) return;
    const generation = this.chat.generation();
    let steps;
    try {
      steps = await agent.undoSteps();
    } catch {
      return; // the marks are a convenience: /undo still works
    }
    if (generation !== this.chat.generation() || agent !== this.chat.agent()) return;
    for (const entry of stepMarks(this.chat.entries.list(), steps)) this.chat.entries.upsert(entry);
  }
}
