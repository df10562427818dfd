// The ACP agent: the protocol's requests served by our sessions. initialize says what we offer
// (and hears what the client offers: its files and terminal become the sessions' host ports);
// session/new and session/load give a session an AgentSession of its own (built with the folder's
// settings, saved under the project as the CLI's and the chat's are); session/list lists the saved
// ones; prompt, cancel, set_mode and set_config_option (the model) go to that session.
import { resolve } from 'node:path';
import { agent as acpAgentApp, RequestError, type AgentApp, type ClientCapabilities, type SessionInfo } from '@agentclientprotocol/sdk';
import { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import { SessionStore } from '../core/session/session-store';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { cliVersion } from '../cli/version';
import { AcpSession, isMode } from './acp-session';
import type { AcpLaunch } from './acp-workspace';
import { openSession, type SessionContext } from './open-session';

export interface AcpAgentOptions extends AcpLaunch {
  /** Diagnostics: stderr (stdout is the protocol). */
  log: (text: string) => void;
}

/** The app, its sessions, and the end: every session disposed (SessionEnd hooks, last saves). */
export function createAcpAgent(options: AcpAgentOptions): { app: AgentApp; dispose(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  const home = resolveOpendevHome(options.env);
  const store = new SessionStore({ home, onProblem: (p) => options.log(`sessions: ${p}`) });
  // One catalogue for every session (its models.dev cache and refresh are the process's).
  const catalog = new CapabilityCatalog({ env: options.env, home });
  let capabilities: ClientCapabilities | undefined;
  const context = (client: SessionContext['client']): SessionContext => ({ launch: options, log: options.log, store, catalog, client, capabilities });

  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };
  const keep = async (session: AcpSession): Promise<AcpSession> => {
    await sessions.get(session.id)?.dispose();
    sessions.set(session.id, session);
    return session;
  };

  const app = acpAgentApp({ name: 'opendev' })
    .onRequest('initialize', ({ params }) => {
      capabilities = params.clientCapabilities;
      return {
        protocolVersion: 1,
        agentInfo: { name: 'opendev', title: 'OpenDev', version: cliVersion() },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {} },
        },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await keep(await openSession(context(client), params.cwd, params.mcpServers));
      return { sessionId: session.id, modes: session.modes, configOptions: session.configOptions };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const loaded = await store.load(params.sessionId, params.cwd);
      if (!loaded) throw RequestError.sessionNotFound(params.sessionId);
      const session = await keep(await openSession(context(client), params.cwd, params.mcpServers, loaded));
      // The conversation is replayed before the response, as the protocol asks.
      await session.replay(loaded);
      return { modes: session.modes, configOptions: session.configOptions };
    })
    .onRequest('session/list', async ({ params }) => {
      // Without a cwd: the folder the editor started us in (Zed and JetBrains start agents in the project).
      const cwd = resolve(params.cwd ?? process.cwd());
      const saved = await store.list(cwd);
      const infos: SessionInfo[] = saved.map((meta) => ({ sessionId: meta.id, cwd: meta.workingDir, title: meta.title || meta.firstPrompt || null, updatedAt: meta.updatedAt }));
      return { sessions: infos };
    })
    .onRequest('session/prompt', async ({ params }) => ({ stopReason: await sessionOf(params.sessionId).prompt(params.prompt) }))
    .onNotification('session/cancel', ({ params }) => sessions.get(params.sessionId)?.cancel())
    .onRequest('session/set_mode', ({ params }) => {
      if (!isMode(params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, `no mode "${params.modeId}" (normal, plan)`);
      sessionOf(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => ({ configOptions: await sessionOf(params.sessionId).setConfigOption(params.configId, params.value) }));

  return {
    app,
    dispose: async () => {
      await Promise.all([...sessions.values()].map((s) => s.dispose().catch(() => undefined)));
      sessions.clear();
    },
  };
}
