// Sessions on disk (DESIGN.md "Storage", paper §2.5.1): per project,
// `OPENDEV_HOME/projects/<encoded absolute path>/<id>.json` (metadata, replaced atomically) and
// `<id>.jsonl` (one message per line, appended), plus `sessions-index.json` for listing. Every write
// holds the session's lock file, so two front ends never interleave lines; a writer that finds the
// transcript changed by another process since it last saw it continues in a new session instead of
// overwriting (nothing is lost either way). A crash at any instant leaves every file readable.
import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../config/opendev-home';
import { mkdirPrivate } from '../config/private-files';
import type { Message } from '../messages';
import type { CostSnapshot } from '../ui';
import { fileState, sameState, SessionWriteError, writeFailure, writeFileDurably, writeLinesAt } from '../files/durable-files';
import { processAlive, SessionLockedError, withFileLock, type LockOptions } from '../files/file-lock';
import { SessionIndex } from './session-index';
import { readSessionMeta, readSessionTranscript, type ReaderContext } from './session-reader';
import { extendsPersisted, sessionFiles, type LoadedSession, type SessionRecord } from './session-record';
import { SESSION_ID_PATTERN, type SessionMeta } from './session-schema';
import { encodeProjectPath } from '../config/project-folder';
import { newSessionId } from '../session-id';
import { makeTitle } from './session-naming';
import { firstPromptText } from './first-prompt';
import { transcriptText } from './transcript-file';
import { tempFileWriter } from '../files/atomic-write';

export type { SessionMeta } from './session-schema';
export type { LoadedSession, SessionRecord } from './session-record';
export { SessionWriteError } from '../files/durable-files';
export { SessionLockedError } from '../files/file-lock';
export { makeTitle, TITLE_MAX } from './session-naming';
export { encodeProjectPath, newSessionId };

export interface SessionStoreOptions {
  /** The OpenDev home; default `OPENDEV_HOME` or `~/.opendev`. */
  home?: string;
  /** Told about every damaged file or line that was skipped, every repair and migration. */
  onProblem?: (problem: string) => void;
  /** Lock timeout and staleness (defaults: 10 s, 30 s). */
  lock?: LockOptions;
  /** For tests. */
  now?: () => Date;
}

/** The transcript changed under us: another process wrote this session. */
class TranscriptConflict extends Error {}

export class SessionStore {
  readonly projectsDir: string;
  private readonly onProblem: (problem: string) => void;
  private readonly now: () => Date;
  private readonly reader: ReaderContext;

  constructor(options: SessionStoreOptions = {}) {
    this.projectsDir = opendevPaths(options.home ?? resolveOpendevHome()).projectsDir;
    this.onProblem = options.onProblem ?? (() => {});
    this.now = options.now ?? (() => new Date());
    this.reader = { onProblem: this.onProblem, lock: { ...options.lock, onNote: options.lock?.onNote ?? this.onProblem }, now: this.now };
  }

  /** The folder holding one project's sessions. */
  projectDir(workingDir: string): string {
    return join(this.projectsDir, encodeProjectPath(workingDir));
  }

  /**
   * Starts a session (metadata on disk at once; the transcript file appears with the first message).
   * `preferredId` (the agent's own session id) is used when it is a valid id not yet taken in this
   * project, so the scratch folder, hooks and undo history name the same session as the files.
   */
  async create(workingDir: string, title = '', preferredId?: string): Promise<SessionRecord> {
    const dir = this.projectDir(workingDir);
    const existing = new Set(await this.ids(dir));
    let id = preferredId !== undefined && SESSION_ID_PATTERN.test(preferredId) && !existing.has(preferredId) ? preferredId : newSessionId();
    while (existing.has(id)) id = newSessionId();
    const at = this.now().toISOString();
    const meta: SessionMeta = { id, title: makeTitle(title), workingDir: resolve(workingDir), createdAt: at, updatedAt: at, messageCount: 0 };
    await this.save(meta);
    return { meta, persisted: 0, transcript: { state: undefined, end: 0, newlineMissing: false }, written: [] };
  }

  /** Appends messages to the transcript and saves the metadata (count, time, title). */
  async append(record: SessionRecord, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.sync(record, [...(record.written ?? []), ...messages]);
  }

  /** Replaces the whole transcript atomically, e.g. after compaction rewrote the history. */
  async rewrite(record: SessionRecord, messages: readonly Message[]): Promise<void> {
    record.needsRewrite = true;
    await this.sync(record, messages);
  }

  /**
   * The full save: the transcript brought up to date with the conversation (appended, or rewritten
   * when the conversation no longer extends what was saved), then the metadata and the index.
   */
  async sync(record: SessionRecord, conversation: readonly Message[], cost?: CostSnapshot): Promise<void> {
    if (cost) record.meta.cost = { ...cost, usd: cost.usd };
    await this.write(record, conversation, true);
  }

  /** The per-message path: only the transcript (the metadata follows with the next full save). */
  async syncTranscript(record: SessionRecord, conversation: readonly Message[]): Promise<void> {
    await this.write(record, conversation, false);
  }

  /** Writes the metadata (atomically) and records it in the index. */
  async save(meta: SessionMeta): Promise<void> {
    const dir = this.projectDir(meta.workingDir);
    await this.guard(meta.id, () => this.locked(dir, meta.id, () => this.writeMeta(dir, meta)));
    await this.updateIndex(meta);
  }

  /**
   * Reads a session by id, from `workingDir`'s project (or, without one, from any project).
   * Undefined when there is no such session or its metadata is unreadable (reported).
   */
  async load(id: string, workingDir?: string): Promise<LoadedSession | undefined> {
    if (!SESSION_ID_PATTERN.test(id)) return undefined;
    const dirs = workingDir ? [this.projectDir(workingDir)] : await this.allProjectDirs();
    for (const dir of dirs) {
      const meta = await readSessionMeta(dir, id, workingDir ?? this.projectsDir, this.reader);
      if (meta) return readSessionTranscript(dir, meta, this.reader);
    }
    return undefined;
  }

  /** This project's sessions, most recently updated first, from the index (rebuilt when needed). */
  async list(workingDir: string): Promise<SessionMeta[]> {
    const dir = this.projectDir(workingDir);
    await this.sweepTempFiles(dir);
    const metas = await this.index(workingDir).list();
    return metas.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  }

  /** Lists by reading every metadata file, ignoring the index (the benchmark's baseline). */
  async listByScanning(workingDir: string): Promise<SessionMeta[]> {
    const dir = this.projectDir(workingDir);
    const metas = await Promise.all((await this.ids(dir)).map((id) => readSessionMeta(dir, id, workingDir, this.reader)));
    return metas.filter((m): m is SessionMeta => m !== undefined).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** The project's most recently updated session whose metadata file is readable (the index is only a guide). */
  async latest(workingDir: string): Promise<SessionMeta | undefined> {
    const dir = this.projectDir(workingDir);
    for (const listed of await this.list(workingDir)) {
      const meta = await readSessionMeta(dir, listed.id, workingDir, this.reader);
      if (meta) return meta;
    }
    return undefined;
  }

  /** Deletes a session's files and its index entry. */
  async remove(meta: SessionMeta): Promise<void> {
    const dir = this.projectDir(meta.workingDir);
    const files = sessionFiles(dir, meta.id);
    await this.locked(dir, meta.id, async () => {
      await rm(files.meta, { force: true });
      await rm(files.transcript, { force: true });
    });
    await this.index(meta.workingDir).remove(meta.id);
  }

  private async write(record: SessionRecord, conversation: readonly Message[], withMeta: boolean): Promise<void> {
    const dir = this.projectDir(record.meta.workingDir);
    try {
      await this.guard(record.meta.id, () =>
        this.locked(dir, record.meta.id, async () => {
          await this.writeTranscript(dir, record, conversation);
          if (withMeta) await this.writeMeta(dir, record.meta);
        }),
      );
    } catch (err) {
      if (!(err instanceof TranscriptConflict)) throw err;
      return this.fork(record, conversation);
    }
    if (withMeta) await this.updateIndex(record.meta);
  }

  /** Appends what is new, or rewrites the whole transcript; fails with a conflict if another process wrote it. */
  private async writeTranscript(dir: string, record: SessionRecord, conversation: readonly Message[]): Promise<void> {
    const file = sessionFiles(dir, record.meta.id).transcript;
    const now = await fileState(file);
    // A record made without the store's view of the file trusts the file as it is.
    const mark = record.transcript ?? { state: now, end: now?.size ?? 0, newlineMissing: false };
    if (!sameState(mark.state, now)) throw new TranscriptConflict();
    const at = this.now().toISOString();
    const added = extendsPersisted(record, conversation) ? conversation.slice(record.persisted) : undefined;
    if (added && added.length === 0) return;
    try {
      if (added) {
        const text = `${mark.newlineMissing ? '\n' : ''}${transcriptText(added, at)}`;
        const state = await writeLinesAt(file, mark.end, text);
        record.transcript = { state, end: mark.end + Buffer.byteLength(text), newlineMissing: false };
      } else {
        const state = await writeFileDurably(file, transcriptText(conversation, at));
        record.transcript = { state, end: state?.size ?? 0, newlineMissing: false };
        record.needsRewrite = false;
      }
    } catch (err) {
      // A failed append was cut back to the last whole line; remember the file as it is now.
      const after = await fileState(file).catch(() => undefined);
      if (after?.size !== mark.end) record.needsRewrite = true;
      record.transcript = { ...mark, state: after };
      throw err;
    }
    record.persisted = conversation.length;
    record.written = conversation.slice();
    record.digest = undefined; // computed from `written` if ever needed
    this.touch(record.meta, conversation, at);
  }

  /** The session was written elsewhere meanwhile: this conversation goes on in a new session, whole. */
  private async fork(record: SessionRecord, conversation: readonly Message[]): Promise<void> {
    const previous = record.meta.id;
    const fresh = await this.create(record.meta.workingDir, record.meta.title);
    Object.assign(record, { ...fresh, meta: { ...record.meta, id: fresh.meta.id, createdAt: fresh.meta.createdAt }, digest: undefined, needsRewrite: false });
    this.onProblem(
      `session ${previous} was changed by another OpenDev process since this one last saved it; ` +
        `to overwrite nothing, this conversation continues as session ${fresh.meta.id}`,
    );
    const dir = this.projectDir(record.meta.workingDir);
    await this.guard(record.meta.id, () =>
      this.locked(dir, record.meta.id, async () => {
        await this.writeTranscript(dir, record, conversation);
        await this.writeMeta(dir, record.meta);
      }),
    );
    await this.updateIndex(record.meta);
  }

  private async writeMeta(dir: string, meta: SessionMeta): Promise<void> {
    await writeFileDurably(sessionFiles(dir, meta.id).meta, `${JSON.stringify(meta, null, 2)}\n`);
  }

  /** The index is a cache: a failure to update it is reported, never fatal (the next listing reconciles). */
  private async updateIndex(meta: SessionMeta): Promise<void> {
    try {
      await this.index(meta.workingDir).upsert(meta);
    } catch (err) {
      this.onProblem(`the sessions index was not updated for ${meta.id}: ${(err as Error).message}`);
    }
  }

  private async locked<T>(dir: string, id: string, fn: () => Promise<T>): Promise<T> {
    await mkdirPrivate(dir);
    return withFileLock(sessionFiles(dir, id).lock, fn, this.reader.lock);
  }

  /** File-system failures become a SessionWriteError that names the cause; a held lock stays a SessionLockedError. */
  private async guard<T>(id: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof TranscriptConflict || err instanceof SessionLockedError || err instanceof SessionWriteError) throw err;
      const { reason, detail } = writeFailure(err);
      throw new SessionWriteError(reason, id, detail, err);
    }
  }

  private index(workingDir: string): SessionIndex {
    const dir = this.projectDir(workingDir);
    return new SessionIndex(dir, resolve(workingDir), {
      ids: () => this.ids(dir),
      readMeta: (id) => readSessionMeta(dir, id, resolve(workingDir), this.reader),
      onProblem: this.onProblem,
      lock: this.reader.lock,
    });
  }

  private async ids(dir: string): Promise<string[]> {
    return (await this.names(dir)).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).filter((id) => SESSION_ID_PATTERN.test(id));
  }

  private async names(dir: string): Promise<string[]> {
    try {
      return await readdir(dir);
    } catch {
      return [];
    }
  }

  /** Temp files of writers killed before their rename: garbage once their process is gone (and a minute old, as another machine's may look dead). */
  private async sweepTempFiles(dir: string): Promise<void> {
    for (const name of await this.names(dir)) {
      const pid = tempFileWriter(name);
      if (!pid || pid === process.pid || processAlive(pid)) continue;
      const file = join(dir, name);
      const old = await stat(file).then((info) => Date.now() - info.mtimeMs > 60_000, () => false);
      if (old) await rm(file, { force: true }).catch(() => undefined);
    }
  }

  private async allProjectDirs(): Promise<string[]> {
    try {
      const entries = await readdir(this.projectsDir, { withFileTypes: true });
      return entries.filter((e) => e.isDirectory()).map((e) => join(this.projectsDir, e.name));
    } catch {
      return [];
    }
  }

  private touch(meta: SessionMeta, conversation: readonly Message[], at: string): void {
    meta.messageCount = conversation.length;
    meta.updatedAt = at;
    const firstUser = meta.title && meta.firstPrompt !== undefined ? undefined : conversation.find((m) => m.role === 'user');
    if (!firstUser) return;
    // The words the user typed, as the title from the first prompt (session-titler) has them.
    if (!meta.title) meta.title = makeTitle(firstPromptText(firstUser));
    meta.firstPrompt ??= firstPromptText(firstUser);
  }
}
