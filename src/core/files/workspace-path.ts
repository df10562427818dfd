import { isAbsolute, relative, resolve, sep } from 'node:path';
import { realNearest, realOrSelf } from './real-path';
import { SecretLocations } from './secret-locations';
import { sectionText } from '../template-text';
import { ToolError } from '../tool-result';

const TEXTS = 'safety/workspace-path.md';

/**
 * Resolves a model-supplied path against the workspace and refuses anything outside it: by the
 * path as written, by where it really leads (a symbolic link out of the workspace is refused as
 * such), and any secret location even inside the workspace.
 */
export function resolveInWorkspace(workspaceRoot: string, filePath: string): string {
  const absolute = resolve(workspaceRoot, filePath);
  if (!isInside(workspaceRoot, absolute)) throw new ToolError('permission', sectionText(TEXTS, 'outside', { PATH: filePath, ROOT: workspaceRoot }));
  checkReal(workspaceRoot, filePath, absolute, []);
  return absolute;
}

/**
 * Like resolveInWorkspace, but a path inside one of `readableDirs` (the scratch folder where large
 * tool outputs are saved, the skill folders) is allowed too: reading tools must reach what the
 * harness told the model. The real path must stay inside the workspace or those folders.
 */
export function resolveReadable(workspaceRoot: string, filePath: string, readableDirs: readonly string[] = []): string {
  const absolute = resolve(workspaceRoot, filePath);
  if (!readableDirs.some((dir) => isInside(dir, absolute))) return resolveInWorkspace(workspaceRoot, filePath);
  checkReal(workspaceRoot, filePath, absolute, readableDirs);
  return absolute;
}

/** Where `absolute` really leads must be inside the workspace (or a readable folder), and nowhere secret. */
function checkReal(workspaceRoot: string, filePath: string, absolute: string, readableDirs: readonly string[]): void {
  const real = realNearest(absolute);
  const secrets = new SecretLocations({ allow: readableDirs, workspace: workspaceRoot });
  const secret = secrets.locate(absolute, real);
  if (secret) {
    // Not secret as written: a link (or a folder under one) leads there.
    const section = secrets.locateWritten(absolute) ? 'secret' : 'link_secret';
    throw new ToolError('permission', sectionText(TEXTS, section, { PATH: filePath, SECRET: secret }));
  }
  const containers = [workspaceRoot, ...readableDirs].map(realOrSelf);
  if (!containers.some((dir) => isInside(dir, real))) {
    throw new ToolError('permission', sectionText(TEXTS, 'link_outside', { PATH: filePath, TARGET: real, ROOT: workspaceRoot }));
  }
}

/** Where a path inside the workspace really leads when that is outside it (a link out); undefined when it stays inside. */
export function linkOutside(workspaceRoot: string, absolute: string): string | undefined {
  const real = realNearest(absolute);
  return isInside(realOrSelf(workspaceRoot), real) ? undefined : real;
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
