import { isAbsolute, relative, resolve } from 'node:path';
import { ToolError } from './tool';

/** Resolves a model-supplied path against the workspace and refuses anything outside it. */
export function resolveInWorkspace(workspaceRoot: string, filePath: string): string {
  const absolute = resolve(workspaceRoot, filePath);
  const rel = relative(workspaceRoot, absolute);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ToolError(
      'permission',
      `${filePath} is outside the workspace (${workspaceRoot}). Use a path inside the workspace.`,
    );
  }
  return absolute;
}

export function displayPath(workspaceRoot: string, absolute: string): string {
  return relative(workspaceRoot, absolute) || '.';
}
