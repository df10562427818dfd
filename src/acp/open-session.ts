// A session for the folder a client names: its settings, the client's host ports, the model
// choice, and an AgentSession whose agent is built now (so a missing key is the request's error),
// resumed from a saved session when the client loads one.
import { RequestError, type AgentContext, type ClientCapabilities, type McpServer } from '@agentclientprotocol/sdk';
import { createMainAgent } from '../core/agent/create-agent';
import { MissingApiKeyError, MissingBaseUrlError } from '../core/llm/create-provider';
import type { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import { PROVIDER_ENV, PROVIDER_LABELS } from '../core/config/provider-settings';
import { AgentSession } from '../core/session/agent-session';
import type { LoadedSession, SessionStore } from '../core/session/session-store';
import { acpChannel } from './acp-channel';
import { AcpSession, type ModelChoice } from './acp-session';
import { acpWorkspace, type AcpLaunch } from './acp-workspace';
import { ClientHost } from './client-host';
import { withActionModel } from './model-option';

export interface SessionContext {
  launch: AcpLaunch;
  log: (text: string) => void;
  store: SessionStore;
  catalog: CapabilityCatalog;
  client: AgentContext;
  /** What the client said it offers at initialize (undefined: nothing beyond the baseline). */
  capabilities: ClientCapabilities | undefined;
}

export async function openSession(context: SessionContext, cwd: string, servers: readonly McpServer[], loaded?: LoadedSession): Promise<AcpSession> {
  const { launch, log, store, catalog, client } = context;
  const host = new ClientHost(client, context.capabilities, launch.env);
  const workspace = await acpWorkspace(launch, cwd, servers, host.ports());
  for (const line of workspace.settings.warnings) log(line);
  await catalog.load();
  const roles = workspace.agentOptions.roles;
  const models: ModelChoice = { available: catalog.list(roles.action.provider), configured: roles.action.model };
  let notices = workspace.notices.map((text) => ({ text, level: 'warning' as const }));
  const session = new AgentSession<never>({
    build: async ({ sessionId }) => {
      const options = { ...workspace.agentOptions, roles: withActionModel(roles, models.chosen), catalog, notices };
      const agent = await createMainAgent({ ...options, ...(sessionId ? { sessionId } : {}) });
      notices = [];
      return { agent };
    },
    saving: { store, workingDir: workspace.workspaceRoot, titles: () => workspace.settings.sessionTitles, onProblem: log },
  });
  let ready;
  try {
    ready = loaded ? await session.resume(loaded) : await session.ready();
  } catch (err) {
    void session.dispose();
    throw setupError(err);
  }
  if (!('agent' in ready) || !ready.agent.sessionId) throw RequestError.internalError(undefined, 'the agent could not be built');
  const id = ready.agent.sessionId;
  host.sessionId = id;
  return new AcpSession(id, session, acpChannel(client, id, log), workspace.workspaceRoot, host, models);
}

/** What keeps the agent from being built, said as the CLI says it (the key's variable, never its value). */
function setupError(err: unknown): RequestError {
  if (err instanceof MissingApiKeyError) {
    const vars = PROVIDER_ENV[err.provider];
    return RequestError.internalError(undefined, `no API key for ${PROVIDER_LABELS[err.provider]}: set ${vars.apiKey} in the environment the editor starts \`opendev acp\` with.`);
  }
  if (err instanceof MissingBaseUrlError) {
    return RequestError.internalError(undefined, `the ${err.provider} provider needs the server's address: set ${PROVIDER_ENV[err.provider].baseUrl}.`);
  }
  return err instanceof RequestError ? err : RequestError.internalError(undefined, (err as Error).message ?? String(err));
}
