import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ToolError } from './tool';

/** Resolves a model-supplied path against the workspace and refuses anything outside it. */
export function resolveInWorkspace(workspaceRoot: string, filePath: string): string {
  const absolute = resolve(workspaceRoot, filePath);
  if (!isInside(workspaceRoot, absolute)) {
    throw new ToolError(
      'permission',
      `${filePath} is outside the workspace (${workspaceRoot}). Use a path inside the workspace.`,
    );
  }
  return absolute;
}

/**
 * Like resolveInWorkspace, but a path inside one of `readableDirs` (the scratch folder where large
 * tool outputs are saved) is allowed too: reading tools must reach what the harness told the model.
 */
export function resolveReadable(workspaceRoot: string, filePath: string, readableDirs: readonly string[] = []): string {
  const absolute = resolve(workspaceRoot, filePath);
  if (readableDirs.some((dir) => isInside(dir, absolute))) return absolute;
  return resolveInWorkspace(workspaceRoot, filePath);
}

/** `absolute` is `folder` itself or somewhere below it. */
export function isInside(folder: string, absolute: string): boolean {
  const rel = relative(folder, absolute);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Workspace-relative; a readable file outside the workspace keeps its absolute path. */
export function displayPath(workspaceRoot: string, absolute: string): string {
  if (!isInside(workspaceRoot, absolute)) return absolute;
  return relative(workspaceRoot, absolute) || '.';
}
