import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createMainAgent } from '../core/agent/create-agent';
import { PROVIDER_LABELS } from '../core/config/provider-settings';
import { describeRoles } from '../core/config/role-overrides';
import type { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import { MissingApiKeyError, MissingBaseUrlError, missingProviderSetting } from '../core/llm/create-provider';
import type { CommandTerminalPort } from '../core/host';
import type { Logger } from '../core/logger';
import type { AgentBuilder } from '../core/session/agent-session';
import type { ChatEntry } from '../shared/protocol';
import { localFolders } from './chat-folder';
import { vscodeProviderFactory, withLmContextWindows } from './lm/lm-host';
import type { FolderTrustPrompts } from './folder-trust';
import { vscodeNotebookPort } from './notebook-port';
import { openExternally } from './external-opener';
import {
  readApprovalLevel,
  readEpisodicSummaryEvery,
  readMaxIterations,
  readPlaybookLearning,
  readPlaybookReflectEvery,
  readProviderSettings,
  readSandboxSettings,
  readThinkingCadence,
  readThinkingLevel,
  readWebSettings,
} from './settings';
import { saveSandboxHost } from './sandbox-hosts';
import type { SetupOffers } from './setup/setup-offers';
import { readShellSettings } from './shell-settings';
import { vscodeSymbolPort } from './symbol-port';

/** The editor's agent builder: what cannot be built is told as a chat entry (a setup card, an error). */
export type AgentSource = AgentBuilder<ChatEntry>;

/** Builds the main agent from the editor's settings, or a chat entry telling the user what to fix
 * (the controller gives the entry its id). `folder` is the workspace folder it works in (asked at
 * each build: the chat's, or a terminal's); `terminal` shows the commands the agent runs; `trust`
 * decides whether the folder's configuration applies and asks about it (without it: it does not). */
export function vscodeAgentSource(
  secrets: vscode.SecretStorage,
  catalog: CapabilityCatalog,
  folderOf: () => vscode.WorkspaceFolder | undefined,
  terminal?: CommandTerminalPort,
  trust?: FolderTrustPrompts,
  logger?: Logger,
  offers?: SetupOffers,
): AgentSource {
  // The editor's language servers and notebook API: the symbol tools and notebook_edit run on them.
  const symbols = vscodeSymbolPort();
  const notebooks = vscodeNotebookPort();
  const source: AgentSource = async (options = {}) => {
    const folder = folderOf();
    if (!folder) {
      return { problem: { kind: 'error', id: '', text: 'Open a folder first: OpenDev works on the files of a workspace folder.' } };
    }
    // First: a trusted folder's endpoint is confirmed (or not) before the settings are read.
    const folderTrust = (await trust?.beforeAgent(options.sessionId, folder)) ?? { projectTrusted: false, notices: [] };
    const outcome = await readProviderSettings(secrets);
    if (!outcome.ok) return { problem: { kind: 'error', id: '', text: outcome.problem, action: 'openSettings' } };
    try {
      const agent = await createMainAgent({
        // VS Code's language models (opendev.provider "vscode-lm") are built here, the rest by the core.
        roles: await withLmContextWindows(outcome.roles),
        createProvider: vscodeProviderFactory,
        workspaceRoot: folder.uri.fsPath,
        // A multi-root workspace's other folders: readable as context, never edited from this chat.
        otherFolders: localFolders().filter((f) => f.uri.toString() !== folder.uri.toString()).map((f) => f.uri.fsPath),
        // A resumed session's id, so its undo history, scratch folder and hooks go on under it.
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
        // One catalogue for the window: loaded and refreshed once, not for every new chat.
        catalog,
        thinkingLevel: readThinkingLevel(),
        thinkingCadence: readThinkingCadence(),
        approvalLevel: readApprovalLevel(),
        playbookLearning: readPlaybookLearning(),
        playbookReflectEvery: readPlaybookReflectEvery(),
        episodicSummaryEvery: readEpisodicSummaryEvery(),
        maxIterations: readMaxIterations(),
        host: { terminal, ripgrepPath: bundledRipgrep(), symbols, notebooks, openExternal: openExternally, ...(logger ? { logger } : {}) },
        web: readWebSettings(),
        sandbox: readSandboxSettings(),
        // The user's terminal shell and terminal.integrated.env: commands see the environment their terminal has.
        shell: readShellSettings(folderTrust.projectTrusted),
        // "Always allow" a blocked host: saved to the user's opendev.sandbox.network.allow.
        sandboxHosts: saveSandboxHost,
        // node-pty from our own node_modules first, else the copy VS Code ships.
        processes: { ptyPaths: appRootModules('node-pty') },
        // Its hooks, allow rules and MCP servers only when VS Code and OpenDev both trust the folder.
        projectTrusted: folderTrust.projectTrusted,
        // What the folder's configuration was not allowed to do, once per session, in the chat.
        notices: folderTrust.notices.map((text) => ({ text, level: 'warning' as const })),
      });
      if (folderTrust.projectTrusted && trust?.stillTrusted(folder) === false) {
        // A configuration file changed while the agent read it: what it loaded may not be what the user trusted.
        await agent.dispose().catch(() => undefined);
        return source(options);
      }
      trust?.noticesShown(agent.sessionId, folderTrust.notices);
      return { agent, models: describeRoles(outcome.roles, (p) => PROVIDER_LABELS[p]) };
    } catch (err) {
      const problem = setupProblemOf(err);
      if (problem) return { problem: offers ? await offers.addTo(problem) : problem };
      throw err;
    }
  };
  return source;
}

/**
 * What the chat shows before anything is asked: the setup card (no key yet), or what else keeps
 * the agent from being built (no server address, an invalid setting); undefined when nothing does.
 * Reads the settings and Secret Storage only: no agent is built.
 */
export async function vscodeSetupCheck(secrets: vscode.SecretStorage, offers?: SetupOffers): Promise<ChatEntry | undefined> {
  const outcome = await readProviderSettings(secrets);
  if (!outcome.ok) return { kind: 'error', id: '', text: outcome.problem, action: 'openSettings' };
  const missing = missingProviderSetting(outcome.roles.action);
  const problem = missing && setupProblemOf(missing);
  // The setup card offers what the user already has (a local server that answers), as well as the key.
  return problem && offers ? offers.addTo(problem) : problem;
}

/** A missing key or server address, as the chat words it; undefined for anything else. */
function setupProblemOf(err: unknown): ChatEntry | undefined {
  if (err instanceof MissingApiKeyError) {
    // Not an error: the first thing a new user sees. A card with the ways forward.
    return {
      kind: 'setup',
      id: '',
      provider: err.provider,
      title: vscode.l10n.t('Connect OpenDev to {0}', PROVIDER_LABELS[err.provider]),
      text: vscode.l10n.t('OpenDev needs an API key for {0} to reach the model. "OpenDev: Set API Key" keeps it in VS Code\'s Secret Storage, never in settings.', PROVIDER_LABELS[err.provider]),
    };
  }
  if (err instanceof MissingBaseUrlError) {
    // Without an address the SDK would send the key to api.openai.com: never silently.
    if (err.provider === 'azure-openai') {
      return {
        kind: 'error',
        id: '',
        text: vscode.l10n.t('The provider is Azure OpenAI, but its endpoint is not set: set "opendev.baseUrl" to your resource\'s endpoint (https://<resource>.openai.azure.com), or choose another provider with "OpenDev: Select Provider".'),
        action: 'openSettings',
      };
    }
    return {
      kind: 'error',
      id: '',
      text: vscode.l10n.t('The provider is an OpenAI-compatible server, but its address is not set: set "opendev.baseUrl" (for example http://localhost:11434/v1 for Ollama), or choose another provider with "OpenDev: Select Provider".'),
      action: 'openSettings',
    };
  }
  return undefined;
}

/** A module VS Code itself ships, under its app root (unpacked from the asar archive, or not packed at all). */
function appRootModules(...path: string[]): string[] {
  return ['node_modules', 'node_modules.asar.unpacked'].map((dir) => join(vscode.env.appRoot, dir, ...path));
}

/** VS Code's bundled ripgrep, if this build has one where we expect it. */
function bundledRipgrep(): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  return appRootModules('@vscode', 'ripgrep', 'bin', exe).find((p) => existsSync(p));
}
