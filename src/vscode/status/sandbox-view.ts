// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { CommandSandbox, SandboxStatus } from '../../core/sandbox/command-sandbox';
import { sandboxLabel } from '../../core/sandbox/sandbox-notice';
import type { SandboxView } from '../../shared/protocol';

/** What the status bar's tooltip and the footer's title say while commands run in the sandbox. */
const sandboxedDetail = () => l10n.t('Commands run in the sandbox: they write only in the workspace and their temp folder, and reach only the hosts in opendev.sandbox.network.allow. "OpenDev: Show Command Sandbox" shows the policy and what it blocked.');

/**
 * Whether a session's commands run sandboxed, for the footer and the status bar: the word, and
 * why not with the one-line fix (`status` undefined: not looked up yet).
 */
export function sandboxView(sandbox: CommandSandbox, status: SandboxStatus | undefined = sandbox.knownStatus): SandboxView {
  const state = sandboxLabel(status);
  if (!status) return { state, detail: l10n.t('Checking whether commands can run in the sandbox…') };
  if (status.state === 'active') return { state, detail: sandboxedDetail() };
  if (status.state === 'off') return { state, off: true, detail: l10n.t('Commands run unsandboxed, with your full access: opendev.sandbox.enabled is off.\nFix: turn opendev.sandbox.enabled on.') };
  return { state, detail: l10n.t('Commands run unsandboxed, with your full access: {0}.\nFix: {1}.', status.reason, status.fix) };
}

/** The view once the sandbox has looked its status up (at once when it already has); a failed lookup is unsandboxed. */
export async function sandboxViewWhenKnown(sandbox: CommandSandbox): Promise<SandboxView> {
  if (sandbox.knownStatus) return sandboxView(sandbox);
  try {
    return sandboxView(sandbox, await sandbox.status());
  } catch (err) {
    return { state: 'unsandboxed', detail: l10n.t('The sandbox could not be checked: {0}.', (err as Error).message) };
  }
}
