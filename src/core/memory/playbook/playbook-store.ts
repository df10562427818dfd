// The playbook on disk: `OPENDEV_HOME/projects/<encoded project path>/playbook.json`, next to the
// project's sessions. Written to a temp file and renamed into place; read again whenever its
// modification time or size changes, so edits the user makes to the file are picked up. A file that
// is not a valid playbook is moved aside as `playbook.json.corrupt-<time>` and a fresh one starts.
import { readFile, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../../config/opendev-home';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../../config/private-files';
import { encodeProjectPath } from '../../config/project-folder';
import { writeFileAtomic } from '../../files/atomic-write';
import { emptyPlaybook, PlaybookSchema, type Playbook } from './bullet';
import { SerialQueue } from '../../serial-queue';

export const PLAYBOOK_FILE = 'playbook.json';

/** Where a project's playbook lives (the sessions' project folder, see SessionStore.projectDir). */
export function playbookPath(workspaceRoot: string, home: string = resolveOpendevHome()): string {
  return join(opendevPaths(home).projectsDir, encodeProjectPath(workspaceRoot), PLAYBOOK_FILE);
}

export interface PlaybookStoreOptions {
  /** Told when a damaged file was moved aside. */
  onWarning?: (message: string) => void;
  now?: () => Date;
}

interface Stamp {
  mtimeMs: number;
  size: number;
}

export class PlaybookStore {
  private cached: Playbook = emptyPlaybook();
  private stamp: Stamp | undefined;
  /** Serialises read-modify-write cycles within this process. */
  private readonly queue = new SerialQueue();

  constructor(
    readonly path: string,
    private readonly options: PlaybookStoreOptions = {},
  ) {}

  /** The playbook as on disk now (empty when there is no file yet). */
  read(): Promise<Playbook> {
    return this.serial(() => this.load());
  }

  /** Reads the current file, applies `change`, writes the result (when it returns one). */
  update(change: (playbook: Playbook) => Playbook | undefined): Promise<Playbook> {
    return this.serial(async () => {
      const current = await this.load();
      const next = change(current);
      if (!next) return current;
      await this.write(next);
      return next;
    });
  }

  /** Creates an empty playbook file when none exists (so the user can open and edit it). */
  ensureExists(): Promise<void> {
    return this.serial(async () => {
      if ((await this.statFile()) === undefined) await this.write(emptyPlaybook());
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  private async load(): Promise<Playbook> {
    const stamp = await this.statFile();
    if (!stamp) {
      this.cached = emptyPlaybook();
      this.stamp = undefined;
      return this.cached;
    }
    if (this.stamp && stamp.mtimeMs === this.stamp.mtimeMs && stamp.size === this.stamp.size) return this.cached;
    const text = await readFile(this.path, 'utf8');
    const problem = parse(text);
    if (typeof problem === 'string') {
      await this.moveAside(problem);
      this.cached = emptyPlaybook();
      this.stamp = undefined;
      return this.cached;
    }
    this.cached = problem;
    this.stamp = stamp;
    return this.cached;
  }

  private async write(playbook: Playbook): Promise<void> {
    await mkdirPrivate(dirname(this.path));
    await writeFileAtomic(this.path, `${JSON.stringify(playbook, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    this.cached = playbook;
    this.stamp = await this.statFile();
  }

  private async moveAside(problem: string): Promise<void> {
    const time = (this.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const aside = `${this.path}.corrupt-${time}`;
    await rename(this.path, aside);
    this.options.onWarning?.(`The playbook ${this.path} was not valid (${problem}); it was kept as ${aside} and a new playbook starts.`);
  }

  private async statFile(): Promise<Stamp | undefined> {
    try {
      const s = await stat(this.path);
      return { mtimeMs: s.mtimeMs, size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}

/** The playbook, or what is wrong with the text. */
function parse(text: string): Playbook | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  const parsed = PlaybookSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') || 'file'}: ${issue?.message}`;
}
