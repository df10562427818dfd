// The settings an ACP session runs with, for the folder the client names (its cwd): the CLI's
// layers (defaults < environment < OPENDEV_HOME/settings.json < the project's < the flags after
// `opendev acp`), with the CLI's trust handling. Nobody can be asked on stdio (it is the
// protocol), so the folder's own configuration stays inert unless it is already trusted
// (`opendev trust` in that folder), and the first turn says what was not applied.
import { resolve } from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { MainAgentOptions } from '../core/agent/main-agent-options';
import { opendevPaths, resolveOpendevHome } from '../core/config/opendev-home';
import type { HostPorts } from '../core/host';
import { loadMcpConfig } from '../core/mcp/mcp-config';
import { configureSecretLocations } from '../core/files/secret-locations';
import { configureSecretEnv } from '../core/process/child-env';
import { rememberSandboxHost } from '../core/sandbox/remember-host';
import type { CliOptions } from '../cli/args';
import { settleFolderTrust } from '../cli/folder-trust';
import { readCliSettingsFiles, resolveCliSettings, type CliSettings } from '../cli/settings-from-env';
import { systemOpener } from '../cli/system-opener';
import { withClientServers } from './client-mcp-servers';

export interface AcpLaunch {
  options: CliOptions;
  /** The arguments after `acp`, for the settings' flag layer. */
  argv: readonly string[];
  /** The environment as it was, keys included (process.env no longer holds them). */
  env: NodeJS.ProcessEnv;
}

export interface AcpWorkspace {
  workspaceRoot: string;
  settings: CliSettings;
  projectTrusted: boolean;
  /** What the untrusted folder was not allowed to do: told once, at the first turn. */
  notices: string[];
  agentOptions: MainAgentOptions;
}

export async function acpWorkspace(launch: AcpLaunch, cwd: string, clientServers: readonly McpServer[], clientPorts: Pick<HostPorts, 'terminal' | 'files' | 'commandRunner'>): Promise<AcpWorkspace> {
  const { options, argv, env } = launch;
  const home = resolveOpendevHome(env);
  const workspaceRoot = resolve(cwd);
  const files = readCliSettingsFiles(env, workspaceRoot);
  // No io: nobody is asked; an untrusted folder's configuration is reported, not applied.
  const trust = await settleFolderTrust({ home, workspaceRoot }, (projectTrusted, endpointConfirmed) =>
    resolveCliSettings({ options, argv, env, interactive: true, files, projectTrusted, endpointConfirmed }),
  );
  const settings = trust.resolved;
  // Process-wide: the user's lists are the same for every folder; a trusted project's additions add up.
  configureSecretEnv({ extra: settings.secretEnvVars });
  configureSecretLocations({ secretPaths: settings.secretPaths });
  const agentOptions: MainAgentOptions = {
    roles: settings.roles,
    workspaceRoot,
    thinkingLevel: settings.thinking,
    thinkingCadence: settings.thinkingCadence,
    approvalLevel: settings.approval,
    playbookLearning: settings.playbookLearning,
    playbookReflectEvery: settings.playbookReflectEvery,
    episodicSummaryEvery: settings.episodicSummaryEvery,
    host: { openExternal: systemOpener(), ...clientPorts },
    web: settings.web,
    ...(settings.maxIterations !== undefined ? { maxIterations: settings.maxIterations } : {}),
    mcp: { load: () => withClientServers(loadMcpConfig({ home, workspaceRoot }), clientServers) },
    projectTrusted: trust.projectTrusted,
    sandbox: settings.sandbox,
    shell: { ...(env.SHELL ? { userShell: env.SHELL } : {}) },
    sandboxHosts: (host) => rememberSandboxHost(opendevPaths(home).settingsFile, host),
  };
  return { workspaceRoot, settings, projectTrusted: trust.projectTrusted, notices: trust.notices, agentOptions };
}
