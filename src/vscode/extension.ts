// The extension's entry (dist/extension.js, kept lean by the build): activate() only wires. Every
// contributed command, the chat view and the test API reach the core (extension-core.ts, its own bundle)
// through one loader that loads it on first use. The status bar and the walkthrough's provider
// check are there from the start, so the core also loads once activation is over, off its path.
import * as vscode from 'vscode';
import { CHAT_VIEW_ID } from './chat-view-id';
import type * as CoreModule from './extension-core';
import type { OpenDevCore } from './extension-core';
import { TEST_API_COMMAND, type OpenDevApi } from './opendev-api';

let started: OpenDevCore | undefined;

export function activate(context: vscode.ExtensionContext): void {
  // Until the core is loaded, each contributed command loads it, then runs as the core registered it.
  const stubs = contributedCommands(context).map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      core();
      return vscode.commands.executeCommand(id, ...args);
    }),
  );
  const core = (): OpenDevCore => {
    if (started) return started;
    for (const stub of stubs.splice(0)) stub.dispose();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startCore } = require('./extension-core') as typeof CoreModule;
    started = startCore(context);
    return started;
  };
  const warmUp = setTimeout(core, 0);
  context.subscriptions.push(
    { dispose: () => clearTimeout(warmUp) },
    { dispose: () => stubs.splice(0).forEach((stub) => stub.dispose()) },
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, {
      resolveWebviewView: (view, resolveContext, token) => core().view.resolveWebviewView(view, resolveContext, token),
    }),
  );
  // Only for our integration tests, which VS Code runs in its test mode: nothing else can reach it.
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    const api = lazyApi(() => core().api);
    context.subscriptions.push(vscode.commands.registerCommand(TEST_API_COMMAND, () => api));
  }
}

/** The command sandbox's proxies and bridges stop with the extension host. */
export function deactivate(): Promise<void> | undefined {
  return started?.stop();
}

/** The commands package.json contributes (the palette, menus, keybindings and walkthrough run them). */
function contributedCommands(context: vscode.ExtensionContext): string[] {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: Array<{ command?: unknown }> } };
  return (manifest.contributes?.commands ?? []).map((c) => c.command).filter((id): id is string => typeof id === 'string');
}

/** The API, each member the core's (loaded on first use). */
function lazyApi(api: () => OpenDevApi): OpenDevApi {
  return {
    send: (text) => api().send(text),
    transcript: () => api().transcript(),
    newChat: () => api().newChat(),
    mode: () => api().mode(),
    thinkingLevel: () => api().thinkingLevel(),
    context: () => api().context(),
    get terminal() {
      return api().terminal;
    },
    get agentTerminals() {
      return api().agentTerminals;
    },
    sessionId: () => api().sessionId(),
    sessionsSettled: () => api().sessionsSettled(),
    fromView: (message) => api().fromView(message),
    onViewMessage: (listener) => api().onViewMessage(listener),
    statusBar: () => api().statusBar(),
    composerText: () => api().composerText(),
    chatView: () => api().chatView(),
    modelPick: () => api().modelPick(),
    answer: (message) => api().answer(message),
    pendingReviews: () => api().pendingReviews(),
    get mcpServers() {
      return api().mcpServers;
    },
    projectConfigurationSeen: () => api().projectConfigurationSeen(),
    logFile: () => api().logFile(),
    chatFolders: () => api().chatFolders(),
  };
}
