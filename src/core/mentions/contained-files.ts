import { realpath } from 'node:fs/promises';
import { realOrSelf } from '../files/real-path';
import { SecretLocations } from '../files/secret-locations';
import { isInside } from '../files/workspace-path';

/** Real paths looked up at once: a large workspace's listing is thousands of files. */
const CONCURRENCY = 64;

/**
 * The files (absolute paths) `@` completion may offer: those whose real path stays inside the
 * workspace and is no secret location. An editor's file search follows symbolic links, so a link
 * to `~/.ssh/id_rsa` or into a folder elsewhere would otherwise be offered, and attached.
 */
export async function containedFiles(workspaceRoot: string, files: readonly string[]): Promise<string[]> {
  const root = realOrSelf(workspaceRoot);
  const secrets = new SecretLocations({ workspace: workspaceRoot });
  const keep = new Array<boolean>(files.length).fill(false);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      const file = files[i]!;
      const real = await realpath(file).catch(() => undefined);
      keep[i] = real !== undefined && isInside(root, real) && !secrets.locateWritten(file) && !secrets.locateWritten(real);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  return files.filter((_, i) => keep[i]);
}
