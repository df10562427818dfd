import { stat } from 'node:fs/promises';
import type { FileDiagnostic, FileEdit, SymbolPort } from '../../symbol-port';
import { fileTracker, STALE_TOLERANCE_MS, type FileTimeTracker } from '../file-time-tracker';
import { ToolError, type ToolExecutionContext } from '../tool';
import { displayPath, isInside } from '../../files/workspace-path';

/** How long an edit waits for the language server to re-check the file (§2.4.5: at most 3 s). */
export const DIAGNOSTICS_WAIT_MS = 3_000;
export const MAX_REPORTED_ERRORS = 20;

export interface CheckedEdit {
  /** Absolute paths changed and saved. */
  files: string[];
  errors: FileDiagnostic[];
  /** For the model: the errors (at most 20), or that there are none. */
  errorReport: string;
}

/**
 * Plans edits and applies them through the editor (which saves them; undo sees the files change
 * on disk), all under the files' edit locks so edit_file never interleaves, then waits for the
 * files' error diagnostics. A file the agent had fresh stays fresh: it knows what it just changed.
 */
export async function applySymbolEdits<P extends { edits: FileEdit[] }>(
  ctx: ToolExecutionContext,
  port: SymbolPort,
  lockFiles: readonly string[],
  plan: () => Promise<P>,
): Promise<CheckedEdit & { plan: P }> {
  const tracker = fileTracker(ctx);
  const files = [...new Set(lockFiles)].sort();
  return withLocks(tracker, files, async () => {
    const planned = await plan();
    const edited = [...new Set(planned.edits.map((e) => e.file))];
    const outside = edited.filter((f) => !isInside(ctx.workspaceRoot, f));
    if (outside.length > 0) {
      throw new ToolError('permission', `The edit would change files outside the workspace (${outside.join(', ')}), so nothing was changed.`);
    }
    const unlocked = edited.filter((f) => !files.includes(f));
    if (unlocked.length > 0) throw new Error(`edits of ${unlocked.join(', ')} were planned without their locks`);
    const fresh = await Promise.all(edited.map((f) => isFresh(tracker, f)));
    let applied;
    try {
      applied = await port.applyEdits(planned.edits);
    } catch (err) {
      throw new ToolError('other', `The editor did not apply the edit: ${(err as Error).message}`);
    }
    try {
      await Promise.all(edited.map(async (f, i) => fresh[i] && tracker.recordWrite(f, (await stat(f)).mtimeMs)));
      const errors = (await Promise.all(applied.files.map((f) => applied.diagnosticsAfter(f, DIAGNOSTICS_WAIT_MS))))
        .flat()
        .filter((d) => d.severity === 'error');
      return { plan: planned, files: applied.files, errors, errorReport: describeErrors(ctx.workspaceRoot, applied.files, errors) };
    } finally {
      applied.dispose();
    }
  });
}

export function describeErrors(workspaceRoot: string, files: readonly string[], errors: readonly FileDiagnostic[]): string {
  const names = files.map((f) => displayPath(workspaceRoot, f)).join(', ');
  if (errors.length === 0) return `No errors in ${names} after the edit.`;
  const lines = errors.slice(0, MAX_REPORTED_ERRORS).map((d) => {
    const code = d.source || d.code ? ` [${[d.source, d.code].filter(Boolean).join(' ')}]` : '';
    return `${displayPath(workspaceRoot, d.file)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message.split('\n')[0]}${code}`;
  });
  const more = errors.length > MAX_REPORTED_ERRORS ? `\n… and ${errors.length - MAX_REPORTED_ERRORS} more` : '';
  return `${errors.length} error${errors.length === 1 ? '' : 's'} after the edit (fix them):\n${lines.join('\n')}${more}`;
}

async function isFresh(tracker: FileTimeTracker, file: string): Promise<boolean> {
  const seen = tracker.lastSeen(file);
  if (seen === undefined) return false;
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.mtimeMs <= seen + STALE_TOLERANCE_MS;
}

/** Takes the locks in path order, so two multi-file edits can never wait on each other. */
function withLocks<T>(tracker: FileTimeTracker, files: readonly string[], work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = files;
  if (first === undefined) return work();
  return tracker.withLock(first, () => withLocks(tracker, rest, work));
}
