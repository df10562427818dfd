import { statSync } from 'node:fs';
import { resolveInWorkspace } from '../core/files/workspace-path';

// Where a file link from the chat leads (open-link.ts), without VS Code so plain tests reach it.

/** The absolute path of `path` in the first folder that holds it (or, when none does, the first folder where it is allowed). */
export function workspaceFile(path: string, folders: readonly string[]): string | { problem: string } {
  if (folders.length === 0) return { problem: 'no folder is open' };
  let problem = `${path} is outside the workspace`;
  let allowed: string | undefined;
  for (const folder of folders) {
    try {
      const absolute = resolveInWorkspace(folder, path);
      allowed ??= absolute;
      if (existsSync(absolute)) return absolute;
    } catch (err) {
      problem = (err as Error).message;
    }
  }
  return allowed ?? { problem };
}

function existsSync(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
