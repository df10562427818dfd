import type { SandboxSettings } from '../config/sandbox-settings';
import { CommandSandbox } from '../sandbox/command-sandbox';
import { sandboxNotice } from '../sandbox/sandbox-notice';
import type { SessionSetup } from './session-setup';

/** The session's sandbox; its status is looked up at once, and the user told once when commands run without it. */
export function createSessionSandbox(setup: SessionSetup, settings: SandboxSettings, readableDirs: () => string[]): CommandSandbox {
  const { options, ui } = setup;
  const sandbox = new CommandSandbox({
    settings,
    workspaceRoot: options.workspaceRoot,
    projectTrusted: setup.projectTrusted,
    readableDirs,
    runtimeOptions: options.host?.ripgrepPath ? { ripgrep: options.host.ripgrepPath } : {},
    ...(options.sandboxHosts ? { rememberHost: options.sandboxHosts } : {}),
    onWarning: (message) => ui.onNotice?.(message, 'warning'),
    ...(options.host?.logger ? { log: options.host.logger } : {}),
  });
  setup.afterFirstAnswer.run(() => {
    void sandbox.status().then((status) => {
      const notice = sandboxNotice(status);
      if (notice) ui.onNotice?.(notice.text, notice.level);
    }, (err: Error) => ui.onNotice?.(`The command sandbox could not be checked: ${err.message}`, 'warning'));
  });
  return sandbox;
}
