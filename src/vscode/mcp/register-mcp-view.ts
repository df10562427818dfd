// Puts the "MCP Servers" view beside the chat: its tree, its commands, and the watchers that keep
// it current (a configuration file written here, by `opendev mcp` or by hand).
import * as vscode from 'vscode';
import { watchEachFolder } from '../folder-watchers';
import { resolveOpendevHome } from '../../core/config/opendev-home';
import type { McpServerState } from '../../core/mcp/mcp-types';
import type { ChatController } from '../chat-controller';
import { addServerStep, fillAddServerStep, type AddServerStep } from './add-server-input';
import { registerMcpCommands } from './mcp-view-commands';
import { MCP_VIEW_ID, McpServersView, type McpHubSource } from './mcp-servers-view';

/** Messages the view's commands showed that a test keeps (the newest last). */
const KEPT_MESSAGES = 20;

/** The view as shown, row by row, and its commands' prompts and messages (the extension's test API). */
export interface McpViewApi {
  /** `pid`: the child process of a running stdio server. */
  rows(): Promise<Array<{ name: string; state: McpServerState; description: string; tooltip: string; icon: string; pid?: number }>>;
  /** What expanding a server's row shows: its tools' names, or why they cannot be shown. */
  children(name: string): Promise<string[]>;
  /** The messages the opendev.mcp.* commands showed (notifications and status bar), oldest first. */
  messages(): readonly string[];
  /** The step of "Add MCP Server" on screen, if any. */
  addServerStep(): AddServerStep | undefined;
  /** Puts text in that step's box, as typed; Enter (workbench.action.acceptSelectedQuickOpenItem) then accepts it. */
  fillAddServerStep(value: string): void;
}

/** `folder`: the chat's folder, whose .mcp.json the view reads (the chat's agent runs its servers). */
export function registerMcpServersView(context: vscode.ExtensionContext, chat: ChatController, folder: () => string | undefined): McpViewApi {
  const source: McpHubSource = {
    current: () => chat.agent?.mcp,
    ready: async () => (await chat.agentNow())?.mcp,
    // The chat announces every agent it adopts (and New Chat) with its state.
    onDidChangeAgent: (listener) => chat.onMessage((m) => (m.type === 'agentState' || m.type === 'snapshot' ? listener() : undefined)),
    home: () => resolveOpendevHome(),
    workspaceRoot: folder,
  };
  const view = new McpServersView(source);
  const tree = vscode.window.createTreeView(MCP_VIEW_ID, { treeDataProvider: view, showCollapseAll: true });
  context.subscriptions.push(view, tree, ...configWatchers(source, view));
  const messages: string[] = [];
  const onMessage = (_kind: string, text: string) => {
    messages.push(text);
    if (messages.length > KEPT_MESSAGES) messages.shift();
  };
  registerMcpCommands(context, { view, source, busy: () => chat.agent?.running ?? false, onMessage });

  return {
    async rows() {
      const nodes = await view.getChildren();
      return nodes.flatMap((node) => {
        if (node.kind !== 'server') return [];
        const item = view.getTreeItem(node);
        const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
        const { name, state, pid } = node.status;
        return [{ name, state, description: String(item.description ?? ''), tooltip: String(item.tooltip ?? ''), icon, ...(pid !== undefined ? { pid } : {}) }];
      });
    },
    async children(name) {
      const server = (await view.getChildren()).find((node) => node.kind === 'server' && node.status.name === name);
      if (!server) return [];
      return (await view.getChildren(server)).map((node) => (node.kind === 'tool' ? node.tool.name : node.kind === 'problem' ? node.text : ''));
    },
    messages: () => [...messages],
    addServerStep,
    fillAddServerStep,
  };
}

/** A configuration file changed: the session re-reads its servers (a new or changed one appears at once). */
function configWatchers(source: McpHubSource, view: McpServersView): vscode.Disposable[] {
  const changed = () => {
    void Promise.resolve(source.current()?.reload())
      .catch(() => undefined)
      .then(() => view.refresh());
  };
  const user = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(source.home()), 'settings.json'));
  return [
    user,
    user.onDidChange(changed),
    user.onDidCreate(changed),
    user.onDidDelete(changed),
    // Every folder's, those added later too: the chat may work in any of them.
    watchEachFolder('{.mcp.json,.opendev/settings.json}', changed),
  ];
}
