import { appendFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { opendevPaths } from '../config/opendev-home';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import { encodeProjectPath } from '../config/project-folder';
import type { ApprovalLevel } from '../config/approval-level';
import type { Decider } from './judgement';
import type { RuleSource } from './permission-rule';
import { SerialQueue } from '../serial-queue';

/** One line of `OPENDEV_HOME/projects/<project>/audit.jsonl`: a decision on a call that could change something. */
export interface AuditEntry {
  time: string;
  tool: string;
  /** The command line, the file path, or the arguments cut to 300 characters. */
  summary: string;
  action: 'allow' | 'deny';
  decidedBy: Decider;
  rule?: { id: string; source: RuleSource };
  level: ApprovalLevel;
  reason?: string;
  /** The user was asked (and answered, or nobody could). */
  asked?: boolean;
  /** "Always allow": the rules it added. */
  remembered?: string[];
  /** The user edited the command; `summary` is what ran, this is what the model asked for. */
  editedFrom?: string;
  /** The user decided an edit hunk by hunk: "accepted 1 of 2 hunks (1)". */
  hunks?: string;
}

export function auditLogFile(home: string, workspaceRoot: string): string {
  return join(opendevPaths(home).projectsDir, encodeProjectPath(workspaceRoot), 'audit.jsonl');
}

/**
 * Appends decisions as JSON lines, in order, without ever holding up a tool call: writes are
 * queued in the background; the first failure is reported once and later ones are silent.
 */
export class AuditLog {
  private readonly queue = new SerialQueue();
  private warned = false;
  private madeDir = false;

  constructor(readonly file: string) {}

  record(entry: AuditEntry, warn: (message: string) => void): void {
    const line = `${JSON.stringify(entry)}\n`;
    void this.queue.run(async () => {
      try {
        if (!this.madeDir) {
          await mkdirPrivate(dirname(this.file));
          this.madeDir = true;
        }
        await appendFile(this.file, line, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
      } catch (err) {
        if (this.warned) return;
        this.warned = true;
        warn(`Could not write the approval audit log ${this.file} (${(err as Error).message}); decisions still apply but are not logged.`);
      }
    });
  }

  /** Resolves when every queued line is written (or has failed). */
  flush(): Promise<void> {
    return this.queue.idle();
  }
}
