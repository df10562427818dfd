import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/extension';

/** The suites' shared steps inside VS Code: activate the extension, set and clear `opendev.*`, wait. */
export const config = () => vscode.workspace.getConfiguration('opendev');

export async function activateOpenDev(): Promise<OpenDevApi> {
  const ext = vscode.extensions.getExtension<OpenDevApi>('opendev.opendev');
  assert.ok(ext, 'the extension is installed');
  return ext.activate();
}

/** Writes `opendev.<key>` user settings, in order (each change reaches the extension as an event). */
export async function useSettings(values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await config().update(key, value, vscode.ConfigurationTarget.Global);
}

export async function clearSettings(keys: readonly string[]): Promise<void> {
  for (const key of keys) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
}

/** Waits for something the extension does in reaction to an editor event (a setting change…). */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
