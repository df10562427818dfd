import { stopSandboxRuntime } from '../core/sandbox/sandbox-runtime';
import * as vscode from 'vscode';
import type { Agent } from '../core/agent/agent';
import type { ThinkingLevel } from '../core/agent/thinking-level';
import type { TurnResult } from '../core/agent/turn-result';
import type { AgentMode } from '../core/ui';
import type { AnswerMessage, ChatEntry, ContextView, ExtensionToWebview } from '../shared/protocol';
import { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { tightenOpendevHome } from '../core/config/private-home';
import { vscodeAgentSource } from './agent-source';
import { registerFolderTrust } from './folder-trust';
import { ChatController } from './chat-controller';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat-view-provider';
import { registerCommands } from './commands';
import { createSlashCommands } from '../core/commands/slash-commands';
import { AGENT_SETTINGS, readSandboxSettings, readSecretEnvVars, readSecretPaths, readSessionTitles, readSettingsReport, readThinkingLevel, SECTION, watchProjectSettings } from './settings';
import { sandboxSettingsHold } from './sandbox-settings-hold';
import { configureSecretEnv } from '../core/process/child-env';
import { configureSecretLocations } from '../core/safety/secret-locations';
import { slashPort } from './slash-port';
import { VscodeMentions } from './mentions/vscode-mentions';
import { OpenDevTerminals, type TerminalViewApi } from './terminal/opendev-terminals';
import { SessionStore } from '../core/session/session-store';
import { ChatSessions } from './chat-sessions';
import { AgentTerminals, type AgentTerminalsApi } from './terminal/agent-terminals';
import { registerEditorActions } from './palette/editor-actions';
import { registerProviderSetup, runCardAction } from './setup/provider-setup';
import type { ModelChoice } from './setup/model-choices';
import { registerStatusBar, type StatusBarView } from './status/status-bar';
import { registerMcpServersView, type McpViewApi } from './mcp/register-mcp-view';
import { InlineDiffApproval, type PendingReview } from './diff-approval/inline-diff-approval';
import type { AnswerOutcome } from './pending-requests';

/** What the extension returns from activate(): used by other extensions and by our integration tests. */
export interface OpenDevApi {
  send(text: string): Promise<TurnResult | undefined>;
  transcript(): readonly ChatEntry[];
  newChat(): void;
  /** The chat's mode (normal or plan), as the view shows it. */
  mode(): AgentMode;
  /** The thinking level the agent runs with (from `opendev.thinkingLevel` or `/thinking`). */
  thinkingLevel(): ThinkingLevel;
  /** The context meter as the view shows it (pressure, window, last reduction); undefined before the first call. */
  context(): ContextView | undefined;
  /** The terminal view: what the "OpenDev" terminal and each background task's tab show. */
  terminal: TerminalViewApi;
  /** The "OpenDev Agent" terminals (Open OpenDev Terminal): keystrokes in, what they show out. */
  agentTerminals: AgentTerminalsApi;
  /** The session the chat is saved to (undefined before the first message, or without a folder). */
  sessionId(): string | undefined;
  /** Resolves when the chat's session writes (and a title in the making) are done. */
  sessionsSettled(): Promise<void>;
  /** Delivers a message as the chat view would send it (validated like one): scripts and tests drive the panel without its DOM. */
  fromView(message: unknown): void;
  /** Every message the extension sends the chat view (snapshots, entries, the history view's session lists…). */
  onViewMessage(listener: (message: ExtensionToWebview) => void): { dispose(): void };
  /** The status bar item as shown (model, mode, context; tooltip with provider, tokens, cost). */
  statusBar(): StatusBarView;
  /** What is typed in the chat input, as the view last reported it (Add Selection to Chat puts text there). */
  composerText(): string;
  /** Whether the chat view is shown and its input has the focus (Open Chat, New Chat). */
  chatView(): { visible: boolean; inputFocused: boolean };
  /** The rows of the Select Model quick pick while it is open. */
  modelPick(): readonly ModelChoice[] | undefined;
  /** Answers an open card (approval, survey, plan review) exactly as the chat view does. */
  answer(message: AnswerMessage): AnswerOutcome;
  /** Edits waiting for approval in the diff editor (inline diff approval). */
  pendingReviews(): PendingReview[];
  /** The "MCP Servers" view as shown: each server's state, description and tooltip. */
  mcpServers: McpViewApi;
}

export function activate(context: vscode.ExtensionContext): OpenDevApi {
  // Every child (commands, tasks, hooks, MCP servers, the browser) gets the extension host's
  // environment without the secret variables. The extension host is VS Code's process, not ours:
  // its own environment stays as VS Code made it, and our keys come from Secret Storage, never from it.
  configureSecretEnv({ extra: readSecretEnvVars() });
  // No tool reads a secret location (keys, credentials); the user may name more.
  configureSecretLocations({ secretPaths: readSecretPaths() });
  const log = vscode.window.createOutputChannel('OpenDev', { log: true });
  // An older install's OPENDEV_HOME is made private, once, with a note (one stat when it already is).
  void tightenOpendevHome(resolveOpendevHome()).then((note) => {
    if (!note) return;
    log.info(note);
    void vscode.window.showInformationMessage(`OpenDev: ${note}`);
  });
  const terminals = new OpenDevTerminals();
  const catalog = new CapabilityCatalog();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // Sessions: the same files as the CLI's; titles as `opendev.sessionTitles` says (OPENDEV_SESSION_TITLES below it).
  const sessions = folder
    ? new ChatSessions(new SessionStore({ onProblem: (p) => log.warn(`sessions: ${p}`) }), folder, {
        titles: readSessionTitles,
        onProblem: (text) => void vscode.window.showWarningMessage(`OpenDev: ${text}`),
      })
    : undefined;
  // One registry for the chat and the OpenDev terminals: the same slash commands in both.
  const slashCommands = createSlashCommands({ settings: () => readSettingsReport(context.secrets) });
  // Edits asking for approval also open in the diff editor, answerable there hunk by hunk.
  const diffApproval = new InlineDiffApproval();
  context.subscriptions.push(diffApproval);
  // The folder's configuration applies once trusted (Workspace Trust and OpenDev's record); every answer rebuilds the agents.
  const folderTrust = registerFolderTrust(context, () => rebuildAgents());
  const chat = new ChatController(vscodeAgentSource(context.secrets, catalog, terminals, folderTrust), {
    slash: slashPort(slashCommands),
    thinkingLevel: readThinkingLevel(),
    workingDir: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    ...(sessions ? { sessions } : {}),
    mentions: new VscodeMentions(folder, terminals),
    tasks: terminals,
    editReview: diffApproval,
  });
  // Each OpenDev terminal has its own agent (its commands shown inline) and its own session.
  const agentTerminals = new AgentTerminals({
    workingDir: folder,
    buildAgent: (port, options) => vscodeAgentSource(context.secrets, catalog, port, folderTrust)(options),
    commands: slashCommands,
    ...(sessions ? { store: sessions.store } : {}),
    titles: readSessionTitles,
    backgroundTasks: terminals,
  });
  const view = new ChatViewProvider(context.extensionUri, chat, log, (action) => runCardAction(action, context.extension.id));
  // Settings and keys apply to every front end: the thinking level at once, the rest from each one's next message.
  const applyThinkingLevel = () => {
    chat.setThinkingLevel(readThinkingLevel());
    agentTerminals.setThinkingLevel(readThinkingLevel());
  };
  /** `stillHolds`: an agent that already runs as the new settings say keeps going (sandbox-settings-hold.ts). */
  const rebuildAgents = (stillHolds?: (agent: Agent) => boolean) => {
    chat.invalidateAgent(stillHolds);
    agentTerminals.invalidate(stillHolds);
  };

  context.subscriptions.push(
    { dispose: () => catalog.close() },
    log,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
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
    context.secrets.onDidChange(() => rebuildAgents()),
    // The project's configuration files sit above opendev.*: an edit there is a settings change too,
    // and a trusted file that changed is trusted no more (the notification asks again).
    watchProjectSettings(() => {
      applyThinkingLevel();
      if (!folderTrust.configFilesChanged()) return; // the agents were built with this content already
      rebuildAgents();
      folderTrust.recheck();
    }),
    { dispose: () => chat.dispose() },
    { dispose: () => sessions?.dispose() },
    terminals,
    agentTerminals,
    vscode.commands.registerCommand('opendev.openTerminal', () => agentTerminals.open()),
  );
  registerCommands(context, chat, view);
  const setup = registerProviderSetup(context, chat, catalog);
  registerEditorActions(context, chat, view);
  const statusBar = registerStatusBar(context, { chat, view, terminals: agentTerminals }, catalog);
  const mcpServers = registerMcpServersView(context, chat);

  return {
    send: (text) => chat.send(text),
    transcript: () => chat.transcript(),
    newChat: () => chat.newChat(),
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
  };
}

/** The command sandbox's proxies and bridges stop with the extension host. */
export function deactivate(): Promise<void> {
  return stopSandboxRuntime();
}
