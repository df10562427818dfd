// Puts the "MCP Servers" view beside the chat: its tree, its commands, and the watchers that keep
// it current (a configuration file written here, by `opendev mcp` or by hand).
import * as vscode from 'vscode';
import { resolveOpendevHome } from '../../core/config/opendev-home';
import type { McpServerState } from '../../core/mcp/mcp-types';
import type { ChatController } from '../chat-controller';
import { registerMcpCommands } from './mcp-view-commands';
import { MCP_VIEW_ID, McpServersView, type McpHubSource } from './mcp-servers-view';

/** The view as shown, row by row (the extension's test API). */
export interface McpViewApi {
  rows(): Promise<Array<{ name: string; state: McpServerState; description: string; tooltip: string; icon: string }>>;
}

export function registerMcpServersView(context: vscode.ExtensionContext, chat: ChatController): McpViewApi {
  const source: McpHubSource = {
    current: () => chat.agent?.mcp,
    ready: async () => (await chat.agentNow())?.mcp,
    // The chat announces every agent it adopts (and New Chat) with its state.
    onDidChangeAgent: (listener) => chat.onMessage((m) => (m.type === 'agentState' || m.type === 'snapshot' ? listener() : undefined)),
    home: () => resolveOpendevHome(),
    workspaceRoot: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  };
  const view = new McpServersView(source);
  const tree = vscode.window.createTreeView(MCP_VIEW_ID, { treeDataProvider: view, showCollapseAll: true });
  context.subscriptions.push(view, tree, ...configWatchers(source, view));
  registerMcpCommands(context, { view, source, busy: () => chat.agent?.running ?? false });

  return {
    async rows() {
      const nodes = await view.getChildren();
      return nodes.flatMap((node) => {
        if (node.kind !== 'server') return [];
        const item = view.getTreeItem(node);
        const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
        return [{ name: node.status.name, state: node.status.state, description: String(item.description ?? ''), tooltip: String(item.tooltip ?? ''), icon }];
      });
    },
  };
}

/** A configuration file changed: the session re-reads its servers (a new or changed one appears at once). */
function configWatchers(source: McpHubSource, view: McpServersView): vscode.Disposable[] {
  const changed = () => {
    void Promise.resolve(source.current()?.reload())
      .catch(() => undefined)
      .then(() => view.refresh());
  };
  const patterns: vscode.RelativePattern[] = [new vscode.RelativePattern(vscode.Uri.file(source.home()), 'settings.json')];
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder) patterns.push(new vscode.RelativePattern(folder, '{.mcp.json,.opendev/settings.json}'));
  return patterns.flatMap((pattern) => {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    return [watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed)];
  });
}
