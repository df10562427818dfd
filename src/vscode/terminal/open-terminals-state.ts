import type * as vscode from 'vscode';
import * as z from 'zod';

/**
 * Which "OpenDev Agent" terminals were open in this workspace, and the saved session each one
 * writes: what a reload of the window (or of the browser tab of a web VS Code) brings back.
 *
 * Why not terminal persistence: VS Code revives only terminals backed by a process of the pty host;
 * an extension pseudoterminal (ours runs the agent in the extension host) goes with the window, and
 * `isTransient: false` would only bring back an empty tab that nothing drives. So the list is kept in
 * workspaceState and the tabs are reopened on activation, each resuming its session from disk.
 */
const KEY = 'opendev.agentTerminals.open';

/** workspaceState is written by older builds too: read through a schema, never trusted as typed. */
const SavedTabs = z.array(z.object({ name: z.string().min(1), sessionId: z.string().min(1) }));
export type SavedTab = z.infer<typeof SavedTabs>[number];

export class OpenTerminalsState {
  /** Set when the window is going away: the tabs it closes then are the ones to bring back. */
  private frozen = false;
  private written = '';

  constructor(private readonly memento: vscode.Memento) {
    this.written = JSON.stringify(this.read());
  }

  /** The tabs to reopen, oldest first; none when the saved value is missing or malformed. */
  read(): SavedTab[] {
    const parsed = SavedTabs.safeParse(this.memento.get(KEY));
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
    void this.memento.update(KEY, tabs);
  }

  /** The window shuts down (deactivation, or a tab closed with reason Shutdown): keep the list as it is. */
  freeze(): void {
    this.frozen = true;
  }
}
