// A project's folder under the OpenDev home (sessions, undo snapshots, audit log, playbook).
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * The folder name of a project: a readable slug of the absolute path plus 8 hex digits of its
 * SHA-256, so `/a-b` and `/a/b` (same slug) still get different folders.
 */
export function encodeProjectPath(workingDir: string): string {
  const absolute = resolve(workingDir);
  const slug = absolute.replace(/[^A-Za-z0-9._]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}
