// The "MCP Servers" view: the servers of the chat's current agent (its hub), with their state.
// Before the chat has an agent it shows the configuration as a session would read it (nothing
// started); expanding a server builds the agent if needed and lists the server's tools, starting
// it (not one the project defines that the user has not allowed yet). It refreshes on the hub's changes, when the chat gets another agent, and when a
// configuration file changes.
import * as vscode from 'vscode';
import { loadMcpConfig } from '../../core/mcp/mcp-config';
import { serverStatus } from '../../core/mcp/mcp-server-status';
import { McpTrustGate } from '../../core/mcp/mcp-trust-gate';
import type { McpHubApi, McpServerStatus } from '../../core/mcp/mcp-types';
import { treeItem, type McpNode } from './mcp-tree-items';

export const MCP_VIEW_ID = 'opendev.mcpServers';

/** The chat's agent as the view needs it. */
export interface McpHubSource {
  /** The hub of the chat's agent as it is now (undefined: no agent yet, or one without MCP). */
  current(): McpHubApi | undefined;
  /** The hub, building the chat's agent first if needed; undefined when it cannot be built (the chat says why). */
  ready(): Promise<McpHubApi | undefined>;
  /** The chat got another agent (built, rebuilt, New Chat). */
  onDidChangeAgent(listener: () => void): vscode.Disposable;
  home(): string;
  workspaceRoot(): string | undefined;
}

export class McpServersView implements vscode.TreeDataProvider<McpNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<McpNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private watched: { hub: McpHubApi; stop: () => void } | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly source: McpHubSource) {
    this.subscriptions.push(this.changed, source.onDidChangeAgent(() => this.refresh()));
  }

  refresh(): void {
    this.follow();
    this.changed.fire(undefined);
  }

  getTreeItem(node: McpNode): vscode.TreeItem {
    return treeItem(node);
  }

  async getChildren(node?: McpNode): Promise<McpNode[]> {
    if (!node) return this.roots();
    if (node.kind !== 'server' || !node.status.enabled) return [];
    return this.toolsOf(node.status);
  }

  /** The servers as shown (for the test API and the commands). */
  servers(): McpServerStatus[] {
    const hub = this.follow();
    return hub ? hub.list() : this.configured().statuses;
  }

  dispose(): void {
    this.watched?.stop();
    this.watched = undefined;
    for (const d of this.subscriptions) d.dispose();
  }

  private roots(): McpNode[] {
    const { statuses, warnings } = this.configured();
    const hub = this.follow();
    return [
      ...warnings.map((text): McpNode => ({ kind: 'problem', text })),
      ...(hub ? hub.list() : statuses).map((status): McpNode => ({ kind: 'server', status })),
    ];
  }

  /**
   * A stopped server is started to list its tools, unless the project defines it and the user has
   * not allowed it yet. A failed one shows its error instead of being
   * retried (Connect retries): retrying here would fail, refresh the view and retry again.
   */
  private async toolsOf(status: McpServerStatus): Promise<McpNode[]> {
    const problem = (text: string): McpNode[] => [{ kind: 'problem', server: status.name, text }];
    if (status.state === 'failed') return problem(`Could not start: ${status.error ?? 'unknown error'}. Use Connect to try again.`);
    const hub = await this.source.ready();
    if (!hub) return problem('OpenDev could not start a session to reach this server; the chat says why.');
    // Expanding is no consent: VS Code restores expanded nodes by itself, and a project's server runs its code.
    const trust = hub.list().find((s) => s.name === status.name)?.trust;
    if (trust === 'ask' || trust === 'declined') return problem('Defined by the project: not started until you allow it. Connect starts it for this session; /mcp trust allows it for good.');
    try {
      const tools = await hub.tools(status.name);
      if (tools.length === 0) return problem('This server offers no tools.');
      return tools.map((tool): McpNode => ({ kind: 'tool', server: status.name, tool }));
    } catch (err) {
      return problem((err as Error).message);
    }
  }

  /** The configuration as a session reads it, and its problems. */
  private configured(): { statuses: McpServerStatus[]; warnings: string[] } {
    const workspaceRoot = this.source.workspaceRoot();
    if (!workspaceRoot) return { statuses: [], warnings: [] };
    const loaded = loadMcpConfig({ home: this.source.home(), workspaceRoot });
    // Without a session nothing was answered yet: a project's server is trusted (remembered) or asks.
    const trust = new McpTrustGate({ home: this.source.home(), workspaceRoot });
    return { statuses: loaded.servers.map((entry) => serverStatus(entry, undefined, trust.state(entry))), warnings: loaded.warnings };
  }

  /** Listens to the current hub (and only to it). */
  private follow(): McpHubApi | undefined {
    const hub = this.source.current();
    if (hub === this.watched?.hub) return hub;
    this.watched?.stop();
    this.watched = hub ? { hub, stop: hub.onDidChange(() => this.changed.fire(undefined)) } : undefined;
    return hub;
  }
}
