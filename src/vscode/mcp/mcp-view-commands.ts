// The "MCP Servers" view's actions (opendev.mcp.*): Connect, Disconnect, Test, Enable, Disable,
// Remove on a server; Add and Refresh in its title bar. Connect and Test run on the chat's own
// session (building its agent when there is none yet); configuration changes are written to the
// settings files and the session's servers re-read. Outcomes and failures are told, never thrown.
import * as vscode from 'vscode';
import { addMcpServer, mcpConfigFiles, removeMcpServer, setMcpServerEnabled, type McpEditOutcome } from '../../core/mcp/mcp-config-edit';
import { formatTestResult } from '../../core/mcp/mcp-status-format';
import type { McpHubApi } from '../../core/mcp/mcp-types';
import { askForServer } from './add-server-input';
import { MCP_VIEW_ID, type McpHubSource, type McpServersView } from './mcp-servers-view';
import type { McpNode } from './mcp-tree-items';

export interface McpCommandDeps {
  view: McpServersView;
  source: McpHubSource;
  /** The chat's agent is working: configuration changes wait. */
  busy(): boolean;
  /** Each message shown to the user (the extension's test API keeps the last ones). */
  onMessage?(kind: 'info' | 'warning' | 'error', text: string): void;
}

// Functions, not constants: vscode.l10n answers in the display language only once the extension runs.
const NO_FOLDER = () => vscode.l10n.t('OpenDev: open a folder first; MCP servers run in the session of a project.');
const BUSY = () => vscode.l10n.t('OpenDev is working: wait for it to finish (or press Stop), then change the MCP servers.');
const NO_SESSION = () => vscode.l10n.t('OpenDev could not start a session to reach the MCP servers; the chat says why.');

export function registerMcpCommands(context: vscode.ExtensionContext, deps: McpCommandDeps): void {
  const { view, source } = deps;
  const register = (id: string, run: (arg?: unknown) => Promise<void> | void) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (arg?: unknown) => {
        try {
          await run(arg);
        } catch (err) {
          void tell('error', vscode.l10n.t('OpenDev: {0}', (err as Error).message ?? String(err)));
        }
      }),
    );
  const tell = (kind: 'info' | 'warning' | 'error', text: string, ...actions: string[]): Thenable<string | undefined> => {
    deps.onMessage?.(kind, text);
    if (kind === 'info') return vscode.window.showInformationMessage(text, ...actions);
    return kind === 'warning' ? vscode.window.showWarningMessage(text, ...actions) : vscode.window.showErrorMessage(text, ...actions);
  };
  const files = () => mcpConfigFiles(source.home(), source.workspaceRoot());
  const progress = <T>(task: () => Promise<T>) => vscode.window.withProgress({ location: { viewId: MCP_VIEW_ID } }, task);

  /** The server a command is for: its tree item, its name, or (from a keybinding) one picked. */
  const serverName = async (arg: unknown): Promise<string | undefined> => {
    if (typeof arg === 'string') return arg;
    if (isServerNode(arg)) return arg.status.name;
    if (!source.workspaceRoot()) {
      void tell('info', NO_FOLDER());
      return undefined;
    }
    const names = view.servers().map((s) => s.name);
    if (names.length === 0) {
      void tell('info', vscode.l10n.t('OpenDev: no MCP servers are configured; add one with "OpenDev: Add MCP Server".'));
      return undefined;
    }
    return vscode.window.showQuickPick(names, { placeHolder: vscode.l10n.t('MCP server') });
  };
  const sessionHub = async (): Promise<McpHubApi | undefined> => {
    if (!source.workspaceRoot()) return void tell('info', NO_FOLDER());
    const hub = await source.ready();
    if (!hub) void tell('warning', NO_SESSION());
    return hub;
  };
  /** A configuration change: written, then the session's servers re-read and the view redrawn. */
  const applied = async (change: () => Promise<McpEditOutcome>, announce: (message: string) => void): Promise<void> => {
    if (deps.busy()) return void tell('warning', BUSY());
    const outcome = await change();
    if (!outcome.ok) {
      void tell(outcome.usage ? 'warning' : 'error', vscode.l10n.t('OpenDev: {0}', outcome.message));
      return;
    }
    if (outcome.written.length > 0) await source.current()?.reload();
    view.refresh();
    announce(outcome.message);
  };
  const statusBar = (message: string) => {
    deps.onMessage?.('info', message);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('OpenDev: {0}', message.split('\n')[0] ?? ''), 6000);
  };

  register('opendev.mcp.refresh', async () => {
    await source.current()?.reload();
    view.refresh();
  });
  register('opendev.mcp.connect', async (arg) => {
    const name = await serverName(arg);
    const hub = name ? await sessionHub() : undefined;
    if (!name || !hub) return;
    const status = await progress(() => hub.connect(name));
    if (status.state !== 'running') void tell('error', status.error ? vscode.l10n.t('OpenDev: MCP server "{0}" did not start ({1}): {2}', name, status.state, status.error) : vscode.l10n.t('OpenDev: MCP server "{0}" did not start ({1}).', name, status.state));
  });
  register('opendev.mcp.disconnect', async (arg) => {
    const name = await serverName(arg);
    if (!name) return;
    if (deps.busy()) return void tell('warning', BUSY());
    await source.current()?.disconnect(name);
  });
  register('opendev.mcp.test', async (arg) => {
    const name = await serverName(arg);
    const hub = name ? await sessionHub() : undefined;
    if (!name || !hub) return;
    const result = await progress(() => hub.test(name));
    const text = vscode.l10n.t('OpenDev: {0}', formatTestResult(name, result));
    void tell(result.ok ? 'info' : 'error', text);
  });
  for (const enabled of [true, false]) {
    register(enabled ? 'opendev.mcp.enable' : 'opendev.mcp.disable', async (arg) => {
      const name = await serverName(arg);
      if (name) await applied(() => setMcpServerEnabled(files(), name, enabled, { command: '/mcp' }), statusBar);
    });
  }
  register('opendev.mcp.remove', async (arg) => {
    const name = await serverName(arg);
    if (!name) return;
    const file = view.servers().find((s) => s.name === name)?.file;
    const remove = vscode.l10n.t('Remove');
    const question = file ? vscode.l10n.t('Remove the MCP server "{0}" from {1}?', name, file) : vscode.l10n.t('Remove the MCP server "{0}"?', name);
    const answer = await vscode.window.showWarningMessage(question, { modal: true }, remove);
    if (answer === remove) await applied(() => removeMcpServer(files(), name, { command: '/mcp' }), statusBar);
  });
  register('opendev.mcp.add', async () => {
    const request = await askForServer(files());
    if (!request) return;
    const target = request.scope === 'project' ? files().project : files().user;
    await applied(
      () => addMcpServer(files(), request, { command: '/mcp' }),
      (message) =>
        void tell('info', vscode.l10n.t('OpenDev: {0}', message), vscode.l10n.t('Open File')).then((choice) => {
          if (choice && target) void vscode.window.showTextDocument(vscode.Uri.file(target));
        }),
    );
  });
}

function isServerNode(arg: unknown): arg is Extract<McpNode, { kind: 'server' }> {
  return typeof arg === 'object' && arg !== null && (arg as McpNode).kind === 'server';
}
