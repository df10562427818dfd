// The ACP agent: the protocol's requests served by our sessions. initialize says what we offer;
// session/new and session/load give a session an AgentSession of its own (built with the folder's
// settings, saved under the project as the CLI's and the chat's are); prompt, cancel and set_mode
// go to that session.
import { agent as acpAgentApp, RequestError, type AgentApp, type AgentContext, type McpServer } from '@agentclientprotocol/sdk';
import { createMainAgent } from '../core/agent/create-agent';
import { MissingApiKeyError, MissingBaseUrlError } from '../core/llm/create-provider';
import { PROVIDER_ENV, PROVIDER_LABELS } from '../core/config/provider-settings';
import { AgentSession } from '../core/session/agent-session';
import { SessionStore, type LoadedSession } from '../core/session/session-store';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { cliVersion } from '../cli/version';
import { acpChannel } from './acp-channel';
import { AcpSession, isMode, TurnTerminal } from './acp-session';
import { acpWorkspace, type AcpLaunch } from './acp-workspace';

export interface AcpAgentOptions extends AcpLaunch {
  /** Diagnostics: stderr (stdout is the protocol). */
  log: (text: string) => void;
}

/** The app, its sessions, and the end: every session disposed (SessionEnd hooks, last saves). */
export function createAcpAgent(options: AcpAgentOptions): { app: AgentApp; dispose(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  const store = new SessionStore({ home: resolveOpendevHome(options.env), onProblem: (p) => options.log(`sessions: ${p}`) });

  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };

  /** A session for `cwd`: its settings, its agent (built now, so a missing key is the request's error), resumed from `loaded`. */
  const open = async (client: AgentContext, cwd: string, servers: readonly McpServer[], loaded?: LoadedSession): Promise<AcpSession> => {
    const terminal = new TurnTerminal();
    const workspace = await acpWorkspace(options, cwd, servers, terminal);
    for (const line of workspace.settings.warnings) options.log(line);
    let notices = workspace.notices.map((text) => ({ text, level: 'warning' as const }));
    const session = new AgentSession<never>({
      build: async ({ sessionId }) => {
        const agent = await createMainAgent({ ...workspace.agentOptions, notices, ...(sessionId ? { sessionId } : {}) });
        notices = [];
        return { agent };
      },
      saving: { store, workingDir: workspace.workspaceRoot, titles: () => workspace.settings.sessionTitles, onProblem: options.log },
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
    const acp = new AcpSession(id, session, ready.agent, acpChannel(client, id, options.log), workspace.workspaceRoot, terminal);
    await sessions.get(id)?.dispose();
    sessions.set(id, acp);
    return acp;
  };

  const app = acpAgentApp({ name: 'opendev' })
    .onRequest('initialize', () => ({
      protocolVersion: 1,
      agentInfo: { name: 'opendev', title: 'OpenDev', version: cliVersion() },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      authMethods: [],
    }))
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open(client, params.cwd, params.mcpServers);
      return { sessionId: session.id, modes: session.modes };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const loaded = await store.load(params.sessionId, params.cwd);
      if (!loaded) throw RequestError.sessionNotFound(params.sessionId);
      const session = await open(client, params.cwd, params.mcpServers, loaded);
      // The conversation is replayed before the response, as the protocol asks.
      await session.replay(loaded);
      return { modes: session.modes };
    })
    .onRequest('session/prompt', async ({ params }) => ({ stopReason: await sessionOf(params.sessionId).prompt(params.prompt) }))
    .onNotification('session/cancel', ({ params }) => sessions.get(params.sessionId)?.cancel())
    .onRequest('session/set_mode', ({ params }) => {
      if (!isMode(params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, `no mode "${params.modeId}" (normal, plan)`);
      sessionOf(params.sessionId).setMode(params.modeId);
      return {};
    });

  return {
    app,
    dispose: async () => {
      await Promise.all([...sessions.values()].map((s) => s.dispose().catch(() => undefined)));
      sessions.clear();
    },
  };
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
