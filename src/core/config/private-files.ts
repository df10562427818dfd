// Everything OpenDev keeps under OPENDEV_HOME (transcripts, the audit log, snapshots of the user's
// files, offloaded outputs) is the user's alone: folders 0700, files 0600. The modes are given where
// each folder or file is created, never through the process umask, so what the agent writes into the
// workspace keeps the modes the user's umask gives it.
import { mkdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';

/** A folder under OPENDEV_HOME: the owner alone may list, enter and change it. */
export const PRIVATE_DIR_MODE = 0o700;
/** A file under OPENDEV_HOME: the owner alone may read and write it (pass as `mode` when creating it). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * `mkdir -p` with every folder it creates 0700 (the home itself too, when this creates it). A folder
 * that already exists keeps its mode: an older install is tightened once at start (tightenOpendevHome).
 */
export function mkdirPrivate(dir: string): Promise<string | undefined> {
  return mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export function mkdirPrivateSync(dir: string): string | undefined {
  return mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
