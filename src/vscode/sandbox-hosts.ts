import * as vscode from 'vscode';
import { DEFAULT_NETWORK_ALLOW, NETWORK_HOST_ENTRY } from '../core/config/sandbox-settings';
import { SECTION } from './settings';

const NETWORK_ALLOW = 'sandbox.network.allow';

/**
 * The "always allow" answer to a host the sandbox blocked: appended to the user's own (global)
 * `opendev.sandbox.network.allow`, starting from the contributed defaults while it is unset.
 */
export async function saveSandboxHost(host: string): Promise<void> {
  const entry = NETWORK_HOST_ENTRY.safeParse(host);
  if (!entry.success) throw new Error(`"${host}" is not a host sandbox.network.allow can hold`);
  const config = vscode.workspace.getConfiguration(SECTION);
  const saved = config.inspect<unknown>(NETWORK_ALLOW)?.globalValue;
  const current = Array.isArray(saved) ? saved.filter((h): h is string => typeof h === 'string') : [...DEFAULT_NETWORK_ALLOW];
  if (current.includes(entry.data)) return;
  await config.update(NETWORK_ALLOW, [...current, entry.data], vscode.ConfigurationTarget.Global);
}
