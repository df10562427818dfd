import { McpHub } from '../mcp/mcp-hub';
import { MCP_CONFIG_SOURCES, unchangedSince } from '../trust/project-files';
import type { SessionServices } from './session-services';
import type { SessionSetup } from './session-setup';

/** The session's MCP servers (none started yet; all of them first when eager); undefined when MCP is off. */
export async function createSessionMcpHub(setup: SessionSetup, services: Pick<SessionServices, 'scratchDir' | 'processes'>): Promise<McpHub | undefined> {
  const { options, ui } = setup;
  if (options.mcp === false) return undefined;
  // The turn's front end asks before a server the project defines first starts.
  const hub = new McpHub({
    registry: setup.registry,
    workspaceRoot: options.workspaceRoot,
    home: setup.home,
    scratchDir: services.scratchDir,
    onWarning: (message) => ui.onNotice?.(message, 'warning'),
    ui,
    workspaceTrusted: setup.projectTrusted ? unchangedSince(options.workspaceRoot, MCP_CONFIG_SOURCES) : () => false,
    ...(services.processes.sandbox ? { sandbox: services.processes.sandbox } : {}),
    ...(options.host?.logger ? { log: options.host.logger } : {}),
    ...options.mcp,
  });
  if (options.mcp?.eager) await hub.startAll();
  return hub;
}
