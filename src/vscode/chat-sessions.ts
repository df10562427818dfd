// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { AgentSession, SessionSaving } from '../core/session/agent-session';
import { readFirstPrompt } from '../core/session/first-prompt';
import { sessionFiles } from '../core/session/session-record';
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
 * The project's saved sessions, as the chat sees them: where its conversation is saved (the chat's
 * AgentSession writes it), the list for the history view, deleting one, reading one to resume. The
 * same files as the CLI's, so `opendev --continue` picks up a conversation begun in the editor and back.
 */
export class ChatSessions {
  /** The chat's own session, being written. */
  private live: AgentSession<unknown> | undefined;
  /** First prompts read from the transcripts of sessions saved before the metadata kept them. */
  private readonly olderPrompts = new Map<string, string>();

  constructor(
    readonly store: SessionStore,
    private folder: string,
    private readonly options: ChatSessionsOptions,
  ) {}

  /** The project whose sessions these are: the chat's folder. */
  get workingDir(): string {
    return this.folder;
  }

  /** The chat works in another folder (a multi-root workspace): its sessions are that project's. */
  moveTo(folder: string): void {
    this.folder = folder;
  }

  /** Where the chat's conversation is saved. */
  get saving(): SessionSaving {
    return { store: this.store, workingDir: this.workingDir, titles: this.options.titles, onProblem: this.options.onProblem };
  }

  /** The chat's session, whose id is the current one (the chat attaches it once). */
  attach(session: AgentSession<unknown>): void {
    this.live = session;
  }

  /** The session being written, if any. */
  get currentId(): string | undefined {
    return this.live?.id;
  }

  /** Resolves when queued writes and titles are done (tests, shutdown). */
  settled(): Promise<void> {
    return this.live?.settled() ?? Promise.resolve();
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
    if (id === this.currentId) return l10n.t('This is the chat you are in: start a New Chat first, then delete it.');
    const meta = (await this.list()).find((m) => m.id === id);
    if (!meta) return l10n.t('There is no session {0} in this project any more.', id);
    try {
      await this.store.remove(meta);
    } catch (err) {
      return l10n.t('Session {0} was not deleted: {1}', id, (err as Error).message);
    }
    this.olderPrompts.delete(id);
    return undefined;
  }

  /** Reads a session of this project; undefined when there is none. */
  load(id: string): Promise<LoadedSession | undefined> {
    return this.store.load(id, this.workingDir);
  }

  private async olderPrompt(meta: SessionMeta): Promise<string> {
    const known = this.olderPrompts.get(meta.id);
    if (known !== undefined) return known;
    const text = await readFirstPrompt(sessionFiles(this.store.projectDir(this.workingDir), meta.id).transcript);
    this.olderPrompts.set(meta.id, text);
    return text;
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
