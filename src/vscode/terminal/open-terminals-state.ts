import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';

/**
 * Which "OpenDev Agent" terminals were open in this workspace, and the saved session each one
 * writes: what a reload of the window (or of the browser tab of a web VS Code) brings back.
 *
 * Why not terminal persistence: VS Code revives only terminals backed by a process of the pty host;
 * an extension pseudoterminal (ours runs the agent in the extension host) goes with the window, and
 * `isTransient: false` would only bring back an empty tab that nothing drives. So the list is kept in a
 * file of the workspace's storage folder and the tabs are reopened on activation, each resuming its
 * session from disk. Not workspaceState: a web VS Code writes that to the browser's storage later, and
 * a reload right after /exit brought the closed tab back. The file is written at once, atomically.
 */

/** The file may be old, hand-edited or broken: read through a schema, never trusted as typed. */
const SavedTabs = z.array(z.object({ name: z.string().min(1), sessionId: z.string().min(1) }));
export type SavedTab = z.infer<typeof SavedTabs>[number];

export class OpenTerminalsState {
  /** Set when the window is going away: the tabs it closes then are the ones to bring back. */
  private frozen = false;
  private written = '';

  /** `file`: in the workspace's storage folder (context.storageUri), created on the first write. */
  constructor(private readonly file: string) {
    this.written = JSON.stringify(this.read());
  }

  /** The tabs to reopen, oldest first; none when the file is missing or malformed. */
  read(): SavedTab[] {
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return [];
    }
    const parsed = SavedTabs.safeParse(saved);
    return parsed.success ? parsed.data : [];
  }

  /**
   * The tabs open now (those whose conversation has a saved session). Ignored once frozen, so the
   * closing of every tab while the window shuts down does not erase what is to come back.
   */
  write(tabs: readonly SavedTab[]): void {
    if (this.frozen) return;
    const value = JSON.stringify(tabs);
    if (value === this.written) return;
    this.written = value;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(`${this.file}.tmp`, value);
      renameSync(`${this.file}.tmp`, this.file);
    } catch {
      // A storage folder that cannot be written: the tabs just do not come back after a reload.
    }
  }

  /** The window shuts down (deactivation, or a tab closed with reason Shutdown): keep the list as it is. */
  freeze(): void {
    this.frozen = true;
  }
}
