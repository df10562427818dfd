import type { LoadedHooksConfig } from '../hooks/config';
import { SessionHooks } from '../hooks/session-hooks';
import type { SessionSetup } from './session-setup';

/** The project's and the user's hooks (Claude Code format) for the session's agents. */
export function createSessionHooks(setup: SessionSetup, config: LoadedHooksConfig): SessionHooks {
  const { options, ui } = setup;
  return new SessionHooks(config, {
    workspaceRoot: options.workspaceRoot,
    sessionId: setup.sessionId,
    tools: (name) => setup.registry.get(name),
    onWarning: (message) => ui.onNotice?.(`Hook: ${message}`, 'warning'),
    onSystemMessage: (message) => ui.onNotice?.(message, 'info'),
    ...(options.host?.logger ? { log: options.host.logger } : {}),
  });
}
