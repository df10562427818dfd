// The extension past activate() (dist/extension-core.js, loaded on first use by extension.ts): the
// output channel, the chat and its view, the agent terminals, the commands, provider setup, the
// status bar, the MCP Servers view, and what rebuilds the agents when settings or keys change.
import { join } from 'node:path';
import { stopSandboxRuntime } from '../core/sandbox/sandbox-runtime';
import * as vscode from 'vscode';
import type { Agent } from '../core/agent/agent';
import { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import { ServerModelDirectory } from '../core/llm/server-models/server-model-directory';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { tightenOpendevHome } from '../core/config/private-home';
import { vscodeAgentSource, vscodeSetupCheck } from './agent-source';
import { registerFolderTrust } from './folder-trust';
import { configurePlainL10n } from './localisation';
import { ChatController } from './chat-controller';
import { ChatViewProvider } from './chat-view-provider';
import { ChatFolder, editorFolder } from './chat-folder';
import { followChatFolder } from './chat-folder-follow';
import { registerCommands } from './commands';
import { createSlashCommands } from '../core/commands/slash-commands';
import { AGENT_SETTINGS, readSandboxSettings, readSecretEnvVars, readSecretPaths, readSessionTitles, readSettingsOf, readSettingsReport, readThinkingLevel, SECTION, watchProjectSettings } from './settings';
import { sandboxSettingsHold } from './sandbox-settings-hold';
import { configureSecretEnv } from '../core/process/child-env';
import { configureSecretLocations } from '../core/files/secret-locations';
import { slashPort } from './slash-port';
import { VscodeMentions } from './mentions/vscode-mentions';
import { OpenDevTerminals } from './terminal/opendev-terminals';
import { SessionStore } from '../core/session/session-store';
import { ChatSessions } from './chat-sessions';
import { AgentTerminals } from './terminal/agent-terminals';
import { OpenTerminalsState } from './terminal/open-terminals-state';
import { FallbackSecretStorage } from './setup/fallback-secret-storage';
import { EncryptedKeyFile } from '../core/config/encrypted-key-file';
import { registerEditorActions } from './palette/editor-actions';
import { registerFixCodeAction } from './palette/fix-code-action';
import { registerAddToChat } from './palette/add-to-chat';
import { registerExplainTerminal } from './palette/explain-terminal';
import { registerWriteCommitMessage } from './scm/write-commit-message';
import { registerProviderSetup, runCardAction } from './setup/provider-setup';
import { localServerOffers, SetupOffers } from './setup/setup-offers';
import { languageModelOffers } from './lm/lm-offers';
import { registerStatusBar } from './status/status-bar';
import { registerMcpServersView } from './mcp/register-mcp-view';
import { registerPackageDownloads } from './package-downloads';
import { InlineDiffApproval } from './diff-approval/inline-diff-approval';
import type { OpenDevApi } from './opendev-api';
import { createOpenDevLog } from './log/opendev-log';

/** What the core gives the extension's entry: the API, the chat view's provider, and its shutdown. */
export interface OpenDevCore {
  api: OpenDevApi;
  /** The chat view's provider (the entry registers the view, so opening it is a first use). */
  view: vscode.WebviewViewProvider;
  /** The command sandbox's proxies and bridges stop with the extension host. */
  stop(): Promise<void>;
}

/** Everything activate() used to do at once; registers every contributed command (the entry's stubs are gone by now). */
export function startCore(context: vscode.ExtensionContext): OpenDevCore {
  // Before any string is made: the plain-Node modules speak the display language too.
  configurePlainL10n();
  // Every child (commands, tasks, hooks, MCP servers, the browser) gets the extension host's
  // environment without the secret variables. The extension host is VS Code's process, not ours:
  // its own environment stays as VS Code made it, and our keys come from Secret Storage, never from it.
  configureSecretEnv({ extra: readSecretEnvVars() });
  // No tool reads a secret location (keys, credentials); the user may name more.
  configureSecretLocations({ secretPaths: readSecretPaths() });
  // One "OpenDev" log channel for the extension and the core (provider calls, MCP, hooks, undo, sandbox);
  // every line, the extension's own too, goes through the logger, which masks keys.
  const { channel, logger } = createOpenDevLog(context);
  const log = logger;
  registerPackageDownloads(context, log);
  // An older install's OPENDEV_HOME is made private, once, with a note (one stat when it already is).
  void tightenOpendevHome(resolveOpendevHome()).then((note) => {
    if (!note) return;
    log.info(note);
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: {0}', note));
  });
  const terminals = new OpenDevTerminals();
  const catalog = new CapabilityCatalog();
  // VS Code's secret storage; an encrypted file only where it refuses keys (fallback-secret-storage.ts).
  const secrets = new FallbackSecretStorage(context.secrets, new EncryptedKeyFile(join(context.globalStorageUri.fsPath, 'api-keys.json')));
  // The folder the chat works in (one of a multi-root workspace's); settings and trust are read for it.
  const chatFolder = new ChatFolder();
  readSettingsOf(() => chatFolder.current);
  const folder = chatFolder.path;
  // Sessions: the same files as the CLI's; titles as `opendev.sessionTitles` says (OPENDEV_SESSION_TITLES below it).
  const sessions = folder
    ? new ChatSessions(new SessionStore({ onProblem: (p) => log.warn(`sessions: ${p}`) }), folder, {
        titles: readSessionTitles,
        onProblem: (text) => void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: {0}', text)),
      })
    : undefined;
  // One registry for the chat and the OpenDev terminals: the same slash commands in both.
  const slashCommands = createSlashCommands({ settings: () => readSettingsReport(secrets) });
  // Edits asking for approval also open in the diff editor, answerable there hunk by hunk.
  const diffApproval = new InlineDiffApproval();
  context.subscriptions.push(diffApproval);
  // The folder's configuration applies once trusted (Workspace Trust and OpenDev's record); every answer rebuilds the agents.
  const folderTrust = registerFolderTrust(context, () => rebuildAgents(), logger);
  // The chat's agent works in the chat's folder, held from its first build until New Chat or a pick.
  // The setup card's one-click offers, first found first: a model VS Code already has (no key at all),
  // then a local model server that answers on its usual port.
  const offers = new SetupOffers([languageModelOffers, localServerOffers]);
  const chat = new ChatController(vscodeAgentSource(secrets, catalog, () => chatFolder.hold(), terminals, folderTrust, logger, offers), {
    slash: slashPort(slashCommands),
    thinkingLevel: readThinkingLevel(),
    ...(folder ? { workingDir: folder } : {}),
    // The chat's first message: the folder of the editor in use then.
    beforeStart: () => chatFolder.refresh(),
    ...(sessions ? { sessions } : {}),
    mentions: new VscodeMentions(() => chatFolder.path, terminals),
    tasks: terminals,
    editReview: diffApproval,
    // No key yet: the empty chat is the setup card, before anything is asked.
    setupCheck: () => vscodeSetupCheck(secrets, offers),
  });
  // Each OpenDev terminal has its own agent (its commands shown inline) and its own session.
  const agentTerminals = new AgentTerminals({
    // A new tab works in the active editor's folder, else the chat's.
    workingDir: () => (editorFolder() ?? chatFolder.current)?.uri.fsPath,
    buildAgent: (port, options, workingDir) => vscodeAgentSource(secrets, catalog, () => vscode.workspace.getWorkspaceFolder(vscode.Uri.file(workingDir)), port, folderTrust, logger)(options),
    commands: slashCommands,
    ...(sessions ? { store: sessions.store } : {}),
    titles: readSessionTitles,
    backgroundTasks: terminals,
    ...(context.storageUri ? { state: new OpenTerminalsState(join(context.storageUri.fsPath, 'agent-terminals.json')) } : {}),
  });
  const view = new ChatViewProvider(context.extensionUri, chat, log, (action) => runCardAction(action, context.extension.id, offers), chatFolder);
  context.subscriptions.push(chatFolder, followChatFolder(chat, chatFolder));
  // Settings and keys apply to every front end: the thinking level at once, the rest from each one's next message.
  const applyThinkingLevel = () => {
    chat.setThinkingLevel(readThinkingLevel());
    agentTerminals.setThinkingLevel(readThinkingLevel());
  };
  /** `stillHolds`: an agent that already runs as the new settings say keeps going (sandbox-settings-hold.ts). */
  let projectConfigurationSeen = 0;
  const rebuildAgents = (stillHolds?: (agent: Agent) => boolean) => {
    chat.invalidateAgent(stillHolds);
    agentTerminals.invalidate(stillHolds);
  };

  context.subscriptions.push(
    { dispose: () => catalog.close() },
    chat.onMessage((m) => {
      if (m.type === 'busy') void vscode.commands.executeCommand('setContext', 'opendev.busy', m.busy);
      if (m.type === 'agentState' || m.type === 'snapshot') void vscode.commands.executeCommand('setContext', 'opendev.mode', m.mode);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The thinking level applies to the running agent; provider, model and approvals need a new one.
      if (e.affectsConfiguration(`${SECTION}.thinkingLevel`)) applyThinkingLevel();
      // The next child process already goes without them: no new agent needed.
      if (e.affectsConfiguration(`${SECTION}.secretEnvVars`)) configureSecretEnv({ extra: readSecretEnvVars() });
      if (e.affectsConfiguration(`${SECTION}.secretPaths`)) configureSecretLocations({ secretPaths: readSecretPaths() });
      if (AGENT_SETTINGS.some((key) => e.affectsConfiguration(key))) {
        // Only the sandbox's settings (a host saved by "always allow"): agents already allowing it go on.
        const onlySandbox = AGENT_SETTINGS.every((key) => key.startsWith(`${SECTION}.sandbox.`) || !e.affectsConfiguration(key));
        const sandbox = onlySandbox ? readSandboxSettings() : undefined;
        rebuildAgents(sandbox && ((agent) => sandboxSettingsHold(agent, sandbox)));
        folderTrust.recheck(); // a trusted workspace's opendev.* values changed: ask again
      }
    }),
    secrets,
    secrets.onDidChange(() => rebuildAgents()),
    // The project's configuration files sit above opendev.*: an edit there is a settings change too,
    // and a trusted file that changed is trusted no more (the notification asks again).
    watchProjectSettings(() => {
      projectConfigurationSeen++;
      applyThinkingLevel();
      if (!folderTrust.configFilesChanged()) return; // the agents were built with this content already
      rebuildAgents();
      folderTrust.recheck();
    }),
    { dispose: () => chat.dispose() },
    terminals,
    agentTerminals,
    vscode.commands.registerCommand('opendev.openTerminal', () => agentTerminals.open()),
  );
  registerCommands(context, chat, view, chatFolder);
  // The session's model lists of OpenAI-compatible servers, kept per address (Select Model, the setup card).
  const servers = new ServerModelDirectory(catalog);
  const setup = registerProviderSetup(context, secrets, chat, catalog, servers);
  registerEditorActions(context, chat, view);
  // Where an editor user's habits look: the light bulb, the explorer and tab menus, the terminal, Source Control.
  registerFixCodeAction(context, chat, view);
  registerAddToChat(context, view);
  registerExplainTerminal(context, chat, view);
  registerWriteCommitMessage(context, context.secrets, catalog);
  const statusBar = registerStatusBar(context, { chat, view, terminals: agentTerminals, folder: chatFolder }, catalog);
  const mcpServers = registerMcpServersView(context, chat, () => chatFolder.path);
  // The agent terminals open when the window last went away (a reload) come back with their sessions.
  agentTerminals.restore();

  const api: OpenDevApi = {
    send: (text) => chat.send(text),
    transcript: () => chat.transcript(),
    // As the user's New Chat: the next conversation follows the active editor's folder again.
    newChat: () => {
      chatFolder.release();
      chat.newChat();
    },
    mode: () => chat.currentMode,
    thinkingLevel: () => chat.currentThinkingLevel,
    context: () => chat.context,
    terminal: terminals,
    agentTerminals,
    sessionId: () => sessions?.currentId,
    sessionsSettled: () => sessions?.settled() ?? Promise.resolve(),
    fromView: (message) => view.receive(message),
    onViewMessage: (listener) => chat.onMessage(listener),
    statusBar,
    composerText: () => view.draft,
    chatView: () => view.shown,
    modelPick: () => setup.modelPick(),
    answer: (message) => chat.answer(message),
    pendingReviews: () => diffApproval.pending(),
    mcpServers,
    projectConfigurationSeen: () => projectConfigurationSeen,
    logFile: () => vscode.Uri.joinPath(context.logUri, `${channel.name}.log`).fsPath,
    chatFolders: () => chatFolder.choices(),
  };
  return { api, view, stop: stopSandboxRuntime };
}
