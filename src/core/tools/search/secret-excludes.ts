import { relative, sep } from 'node:path';
import { realOrSelf } from '../../files/real-path';
import { SecretLocations } from '../../files/secret-locations';
import { isInside } from '../../files/workspace-path';

/**
 * The secret locations a search of the workspace must never read, as gitignore lines anchored at
 * the workspace root (ripgrep's `--glob !…`, the built-in walker): those inside the workspace (a
 * workspace that is a home folder holds `.ssh`) and the secret files that can sit anywhere.
 */
export function secretExcludes(workspaceRoot: string): string[] {
  const roots = [workspaceRoot, realOrSelf(workspaceRoot)];
  const lines = new Set<string>();
  for (const secret of new SecretLocations({ workspace: workspaceRoot }).within(workspaceRoot)) {
    const root = roots.find((r) => isInside(r, secret));
    if (root === undefined) continue;
    const rel = relative(root, secret).split(sep).join('/');
    // The whole workspace is never secret here (SecretLocations drops an OpenDev home around it).
    if (rel !== '') lines.add(`/${rel.replace(/[\\*?[\]!#{}]/g, '\\$&')}`);
  }
  for (const glob of SecretLocations.patternGlobs()) lines.add(glob);
  return [...lines];
}
