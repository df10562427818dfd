// Sessions on disk (DESIGN.md "Storage", paper §2.5): per project,
// `OPENDEV_HOME/projects/<encoded absolute path>/<id>.json` (metadata, written to a temp file and
// renamed into place) and `<id>.jsonl` (one message per line, appended). A damaged line or file is
// skipped and reported, never a crash. Locks and the sessions index come with a later issue.
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../config/opendev-home';
import type { Message } from '../messages';
import type { CostSnapshot } from '../ui';
import {
  fromTranscriptLine,
  repairConversation,
  SESSION_ID_PATTERN,
  SessionMetaSchema,
  toTranscriptLine,
  TranscriptLineSchema,
  type SessionMeta,
} from './session-schema';

export type { SessionMeta } from './session-schema';

/** A session being written: its metadata and how much of the conversation is already on disk. */
export interface SessionRecord {
  meta: SessionMeta;
  /** Messages of the conversation already in the transcript. */
  persisted: number;
  /** Digest of the persisted messages: tells an extended conversation from a rewritten one (compaction). */
  digest?: string;
  /** The transcript on disk differs from the conversation (damaged lines were skipped): rewrite it on the next sync. */
  needsRewrite?: boolean;
}

export interface LoadedSession {
  record: SessionRecord;
  /** The conversation, repaired so a provider accepts it. */
  messages: Message[];
  /** What was wrong with the files (skipped lines, repaired tool calls); empty when nothing. */
  problems: string[];
}

export interface SessionStoreOptions {
  /** The OpenDev home; default `OPENDEV_HOME` or `~/.opendev`. */
  home?: string;
  /** Told about every damaged file or line that was skipped. */
  onProblem?: (problem: string) => void;
  /** For tests. */
  now?: () => Date;
}

export const TITLE_MAX = 50;

export class SessionStore {
  readonly projectsDir: string;
  private readonly onProblem: (problem: string) => void;
  private readonly now: () => Date;

  constructor(options: SessionStoreOptions = {}) {
    this.projectsDir = opendevPaths(options.home ?? resolveOpendevHome()).projectsDir;
    this.onProblem = options.onProblem ?? (() => {});
    this.now = options.now ?? (() => new Date());
  }

  /** The folder holding one project's sessions. */
  projectDir(workingDir: string): string {
    return join(this.projectsDir, encodeProjectPath(workingDir));
  }

  /** Starts a session (metadata on disk at once; the transcript file appears with the first message). */
  async create(workingDir: string, title = ''): Promise<SessionRecord> {
    const dir = this.projectDir(workingDir);
    await mkdir(dir, { recursive: true });
    const existing = new Set(await this.ids(dir));
    let id = newSessionId();
    while (existing.has(id)) id = newSessionId();
    const at = this.now().toISOString();
    const meta: SessionMeta = { id, title: makeTitle(title), workingDir: resolve(workingDir), createdAt: at, updatedAt: at, messageCount: 0 };
    await this.save(meta);
    return { meta, persisted: 0 };
  }

  /** Appends messages to the transcript and updates the metadata (count, time, title). */
  async append(record: SessionRecord, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    const at = this.now().toISOString();
    const text = messages.map((m) => `${JSON.stringify(toTranscriptLine(m, at))}\n`).join('');
    const dir = this.projectDir(record.meta.workingDir);
    await mkdir(dir, { recursive: true });
    await appendFile(join(dir, `${record.meta.id}.jsonl`), text, 'utf8');
    record.digest = chainDigest(messages, record.persisted === 0 ? '' : record.digest);
    record.persisted += messages.length;
    this.touch(record.meta, record.persisted, messages, at);
    await this.save(record.meta);
  }

  /** Replaces the whole transcript (temp file + rename), e.g. after compaction rewrote the history. */
  async rewrite(record: SessionRecord, messages: readonly Message[]): Promise<void> {
    const at = this.now().toISOString();
    const dir = this.projectDir(record.meta.workingDir);
    await mkdir(dir, { recursive: true });
    await atomicWrite(join(dir, `${record.meta.id}.jsonl`), messages.map((m) => `${JSON.stringify(toTranscriptLine(m, at))}\n`).join(''));
    record.persisted = messages.length;
    record.digest = chainDigest(messages);
    record.needsRewrite = false;
    this.touch(record.meta, messages.length, messages, at);
    await this.save(record.meta);
  }

  /**
   * Brings the session up to date with the agent's conversation: appends what is new, or rewrites
   * the transcript when the conversation no longer extends what was saved. Records the cost too.
   */
  async sync(record: SessionRecord, conversation: readonly Message[], cost?: CostSnapshot): Promise<void> {
    if (cost) record.meta.cost = { ...cost, usd: cost.usd };
    const extends_ =
      !record.needsRewrite &&
      conversation.length >= record.persisted &&
      (record.persisted === 0 || chainDigest(conversation.slice(0, record.persisted)) === record.digest);
    if (!extends_) return this.rewrite(record, conversation);
    if (conversation.length > record.persisted) return this.append(record, conversation.slice(record.persisted));
    await this.save(record.meta);
  }

  /** Writes the metadata atomically: a temp file renamed over `<id>.json`. */
  async save(meta: SessionMeta): Promise<void> {
    const dir = this.projectDir(meta.workingDir);
    await mkdir(dir, { recursive: true });
    await atomicWrite(join(dir, `${meta.id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  }

  /**
   * Reads a session by id, from `workingDir`'s project (or, without one, from any project).
   * Undefined when there is no such session or its metadata is unreadable (reported).
   */
  async load(id: string, workingDir?: string): Promise<LoadedSession | undefined> {
    if (!SESSION_ID_PATTERN.test(id)) return undefined;
    const dirs = workingDir ? [this.projectDir(workingDir)] : await this.allProjectDirs();
    for (const dir of dirs) {
      const meta = await this.readMeta(join(dir, `${id}.json`));
      if (meta) return this.readTranscript(dir, meta);
    }
    return undefined;
  }

  /** This project's sessions, most recently updated first. Damaged metadata files are skipped (reported). */
  async list(workingDir: string): Promise<SessionMeta[]> {
    const dir = this.projectDir(workingDir);
    const metas: SessionMeta[] = [];
    for (const id of await this.ids(dir)) {
      const meta = await this.readMeta(join(dir, `${id}.json`));
      if (meta) metas.push(meta);
    }
    return metas.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  }

  /** The project's most recently updated session. */
  async latest(workingDir: string): Promise<SessionMeta | undefined> {
    return (await this.list(workingDir))[0];
  }

  /** Deletes a session's files (used by tests and, later, a cleanup command). */
  async remove(meta: SessionMeta): Promise<void> {
    const dir = this.projectDir(meta.workingDir);
    await rm(join(dir, `${meta.id}.json`), { force: true });
    await rm(join(dir, `${meta.id}.jsonl`), { force: true });
  }

  private async readTranscript(dir: string, meta: SessionMeta): Promise<LoadedSession> {
    const problems: string[] = [];
    const file = join(dir, `${meta.id}.jsonl`);
    let text = '';
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: unreadable (${(err as Error).message})`);
    }
    const raw: Message[] = [];
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        problems.push(`${file}:${i + 1}: not valid JSON, skipped`);
        return;
      }
      const parsed = TranscriptLineSchema.safeParse(json);
      if (!parsed.success) {
        problems.push(`${file}:${i + 1}: not a message (${parsed.error.issues[0]?.message ?? 'invalid'}), skipped`);
        return;
      }
      raw.push(fromTranscriptLine(parsed.data));
    });
    const { messages, repaired } = repairConversation(raw);
    if (repaired > 0) problems.push(`${file}: ${repaired} message(s) had tool calls or results without their counterpart; repaired`);
    for (const p of problems) this.onProblem(p);
    const record: SessionRecord = {
      meta: { ...meta, messageCount: messages.length },
      persisted: messages.length,
      digest: chainDigest(messages),
      needsRewrite: problems.length > 0,
    };
    return { record, messages, problems };
  }

  private async readMeta(file: string): Promise<SessionMeta | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.onProblem(`${file}: unreadable (${(err as Error).message}), skipped`);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.onProblem(`${file}: not valid JSON, skipped`);
      return undefined;
    }
    const parsed = SessionMetaSchema.safeParse(json);
    if (!parsed.success) {
      this.onProblem(`${file}: not session metadata (${parsed.error.issues[0]?.message ?? 'invalid'}), skipped`);
      return undefined;
    }
    return parsed.data;
  }

  private async ids(dir: string): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).filter((id) => SESSION_ID_PATTERN.test(id));
  }

  private async allProjectDirs(): Promise<string[]> {
    try {
      const entries = await readdir(this.projectsDir, { withFileTypes: true });
      return entries.filter((e) => e.isDirectory()).map((e) => join(this.projectsDir, e.name));
    } catch {
      return [];
    }
  }

  private touch(meta: SessionMeta, count: number, added: readonly Message[], at: string): void {
    meta.messageCount = count;
    meta.updatedAt = at;
    if (!meta.title) {
      const firstUser = added.find((m) => m.role === 'user');
      if (firstUser) meta.title = makeTitle(firstUser.content);
    }
  }
}

/**
 * The folder name of a project: a readable slug of the absolute path plus 8 hex digits of its
 * SHA-256, so `/a-b` and `/a/b` (same slug) still get different folders.
 */
export function encodeProjectPath(workingDir: string): string {
  const absolute = resolve(workingDir);
  const slug = absolute.replace(/[^A-Za-z0-9._]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}

/** A session title: the text with its whitespace collapsed, at most 50 characters. */
export function makeTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1)}…` : flat;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function newSessionId(): string {
  const bytes = randomBytes(8);
  let id = '';
  // 36 does not divide 256; the bias (≤ 1/256 per character) does not matter for ids.
  for (const b of bytes) id += ID_ALPHABET[b % ID_ALPHABET.length];
  return id;
}

/** A hash chain over messages: chainDigest(a ++ b) === chainDigest(b, chainDigest(a)). */
function chainDigest(messages: readonly Message[], previous = ''): string {
  let hash = previous;
  // Canonical form (fixed key order, Message fields only), so a resumed conversation matches its file.
  for (const m of messages) hash = createHash('sha1').update(hash).update(JSON.stringify(fromTranscriptLine(toTranscriptLine(m, '')))).digest('hex');
  return hash;
}

async function atomicWrite(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => {});
    throw err;
  }
}
