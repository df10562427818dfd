// `sessions-index.json`: what listing reads instead of opening every metadata file. It is a cache:
// updated (under its own lock, written atomically) on every metadata save, reconciled with the files
// present on every listing, rebuilt from the metadata files when missing or corrupt (with a note),
// and never used to load a session.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurably } from '../files/durable-files';
import { withFileLock, type LockOptions } from '../files/file-lock';
import { SessionIndexSchema, type SessionMeta } from './session-schema';

export const INDEX_FILE = 'sessions-index.json';

type Entries = Map<string, SessionMeta>;

export interface SessionIndexDeps {
  /** The project's session ids, from the folder listing. */
  ids(): Promise<string[]>;
  /** One session's metadata file (undefined when unreadable; the store reports why). */
  readMeta(id: string): Promise<SessionMeta | undefined>;
  onProblem(problem: string): void;
  lock: LockOptions;
}

export class SessionIndex {
  readonly file: string;

  constructor(
    readonly dir: string,
    private readonly workingDir: string,
    private readonly deps: SessionIndexDeps,
  ) {
    this.file = join(dir, INDEX_FILE);
  }

  /** The sessions of the project: the index, with sessions it lacks added and vanished ones dropped. */
  async list(): Promise<SessionMeta[]> {
    const ids = await this.deps.ids();
    const read = await this.read();
    if (typeof read !== 'string' && ids.length === read.size && ids.every((id) => read.has(id))) return [...read.values()];
    if (read === 'missing' && ids.length === 0) return [];
    return [...(await this.update(() => {}, ids)).values()];
  }

  /** Records a session's current metadata. */
  async upsert(meta: SessionMeta): Promise<void> {
    await this.update((entries) => void entries.set(meta.id, meta), undefined, meta.id);
  }

  async remove(id: string): Promise<void> {
    await this.update((entries) => void entries.delete(id));
  }

  /** Read-modify-write under the index lock; also brings the index in line with the files present. */
  private async update(change: (entries: Entries) => void, knownIds?: string[], saving?: string): Promise<Entries> {
    return withFileLock(
      `${this.file}.lock`,
      async () => {
        const ids = knownIds ?? (await this.deps.ids());
        const { entries, stored } = await this.current(ids, saving);
        const before = JSON.stringify([...entries.values()]);
        const present = new Set(ids);
        for (const id of [...entries.keys()]) if (!present.has(id)) entries.delete(id);
        for (const id of ids) {
          if (entries.has(id)) continue;
          const meta = await this.deps.readMeta(id);
          if (meta) entries.set(id, meta);
        }
        change(entries);
        if (!stored || JSON.stringify([...entries.values()]) !== before) await this.write(entries);
        return entries;
      },
      this.deps.lock,
    );
  }

  /**
   * The index as stored; rebuilt from the metadata files when it is missing or corrupt. A missing
   * index is only news when other sessions exist (not on the first save in a project).
   */
  private async current(ids: string[], saving?: string): Promise<{ entries: Entries; stored: boolean }> {
    const read = await this.read();
    if (typeof read !== 'string') return { entries: read, stored: true };
    const entries: Entries = new Map();
    for (const id of ids) {
      const meta = await this.deps.readMeta(id);
      if (meta) entries.set(id, meta);
    }
    if (read !== 'missing' || ids.some((id) => id !== saving)) {
      this.deps.onProblem(`${this.file}: ${read === 'missing' ? 'missing' : `corrupt (${read})`}; rebuilt from ${entries.size} session file(s)`);
    }
    return { entries, stored: false };
  }

  private async read(): Promise<Entries | 'missing' | string> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      return `unreadable: ${(err as Error).message}`;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return 'not valid JSON';
    }
    const parsed = SessionIndexSchema.safeParse(json);
    if (!parsed.success) return `not a sessions index: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message ?? ''}`.trim();
    return new Map(parsed.data.sessions.map((s) => [s.id, { ...s, workingDir: this.workingDir }]));
  }

  private async write(entries: Entries): Promise<void> {
    const sessions = [...entries.values()].map(({ workingDir: _dir, ...rest }) => rest);
    await writeFileDurably(this.file, `${JSON.stringify({ version: 1, workingDir: this.workingDir, sessions })}\n`);
  }
}
