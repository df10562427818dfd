import * as vscode from 'vscode';
import type { ThinkingLevel } from '../core/agent/thinking-level';
import type { TurnResult } from '../core/agent/turn-result';
import type { AgentMode } from '../core/ui';
import type { ChatEntry, ContextView } from '../shared/protocol';
import { CapabilityCatalog } from '../core/llm/capabilities/catalog';
import { vscodeAgentSource } from './agent-source';
import { ChatController } from './chat-controller';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat-view-provider';
import { registerCommands } from './commands';
import { createSlashCommands } from '../core/commands/slash-commands';
import { AGENT_SETTINGS, readSettingsReport, readThinkingLevel, SECTION, watchProjectSettings } from './settings';
import { slashPort } from './slash-port';
import { OpenDevTerminals, type TerminalViewApi } from './terminal/opendev-terminals';
import { SessionStore } from '../core/session/session-store';
import { sessionTitlesFromEnv } from '../core/session/session-titles-setting';
import { ChatSessions } from './chat-sessions';

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
  /** The session the chat is saved to (undefined before the first message, or without a folder). */
  sessionId(): string | undefined;
  /** Resolves when the chat's session writes (and a title in the making) are done. */
  sessionsSettled(): Promise<void>;
}

export function activate(context: vscode.ExtensionContext): OpenDevApi {
  const log = vscode.window.createOutputChannel('OpenDev', { log: true });
  const terminals = new OpenDevTerminals();
  const catalog = new CapabilityCatalog();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // Sessions: the same files as the CLI's; titles from the compact model unless OPENDEV_SESSION_TITLES=0.
  const sessions = folder
    ? new ChatSessions(new SessionStore({ onProblem: (p) => log.warn(`sessions: ${p}`) }), folder, {
        generateTitles: sessionTitlesFromEnv(process.env) ?? true,
        onProblem: (text) => void vscode.window.showWarningMessage(`OpenDev: ${text}`),
      })
    : undefined;
  const chat = new ChatController(vscodeAgentSource(context.secrets, catalog, terminals), {
    slash: slashPort(createSlashCommands({ settings: () => readSettingsReport(context.secrets) })),
    thinkingLevel: readThinkingLevel(),
    workingDir: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    ...(sessions ? { sessions } : {}),
  });
  const view = new ChatViewProvider(context.extensionUri, chat, log, (action) => {
    if (action === 'setApiKey') void vscode.commands.executeCommand('opendev.setApiKey');
    else void vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${context.extension.id}`);
  });

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
      if (e.affectsConfiguration(`${SECTION}.thinkingLevel`)) chat.setThinkingLevel(readThinkingLevel());
      if (AGENT_SETTINGS.some((key) => e.affectsConfiguration(key))) chat.invalidateAgent();
    }),
    context.secrets.onDidChange(() => chat.invalidateAgent()),
    // The project's .opendev/settings.json sits above opendev.*: an edit there is a settings change too.
    watchProjectSettings(() => {
      chat.setThinkingLevel(readThinkingLevel());
      chat.invalidateAgent();
    }),
    { dispose: () => chat.dispose() },
    { dispose: () => sessions?.dispose() },
    terminals,
  );
  registerCommands(context, chat, view);

  return {
    send: (text) => chat.send(text),
    transcript: () => chat.transcript(),
    newChat: () => chat.newChat(),
    mode: () => chat.currentMode,
    thinkingLevel: () => chat.currentThinkingLevel,
    context: () => chat.context,
    terminal: terminals,
    sessionId: () => sessions?.currentId,
    sessionsSettled: () => sessions?.settled() ?? Promise.resolve(),
  };
}

export function deactivate(): void {}
