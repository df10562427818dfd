// What the "MCP Servers" view shows for a server, one of its tools, or a problem: icons by state,
// transport and tool count as description, the error in the tooltip. contextValue drives the
// inline and context menus (package.json, `viewItem =~ …`).
import * as vscode from 'vscode';
import { ROW_TEXT_WIDTH, sourceLabel } from '../../core/mcp/mcp-status-format';
import { oneLine } from '../../core/process/task-format';
import type { McpServerState, McpServerStatus, McpToolInfo, McpTrustState } from '../../core/mcp/mcp-types';

export type McpNode =
  | { kind: 'server'; status: McpServerStatus }
  | { kind: 'tool'; server: string; tool: McpToolInfo }
  /** A configuration problem (root), or why a server's tools cannot be shown (under it). */
  | { kind: 'problem'; server?: string; text: string };

const STATE_ICONS: Record<McpServerState, { id: string; color?: string }> = {
  running: { id: 'pass-filled', color: 'testing.iconPassed' },
  stopped: { id: 'circle-large-outline' },
  starting: { id: 'loading~spin' },
  restarting: { id: 'loading~spin' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  disabled: { id: 'circle-slash', color: 'disabledForeground' },
};

export function stateIcon(state: McpServerState): vscode.ThemeIcon {
  const icon = STATE_ICONS[state];
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

export function serverDescription(status: McpServerStatus): string {
  const tools = status.toolCount === undefined ? '' : ` · ${status.toolCount} tool${status.toolCount === 1 ? '' : 's'}`;
  return `${status.transport}${tools}`;
}

const TRUST_LINES: Record<McpTrustState, string> = {
  trusted: 'Defined by the project; you trusted it (/mcp untrust takes it back).',
  allowed: 'Defined by the project; allowed for this session.',
  ask: 'Defined by the project: asks before it first starts (Connect starts it now; /mcp trust allows it for good).',
  declined: 'Defined by the project: you declined to start it in this session (Connect starts it anyway).',
};

export function serverTooltip(status: McpServerStatus): string {
  const restarts = status.restarts > 0 ? ` (restarted ${status.restarts}×)` : '';
  const lines = [`${status.name}: ${status.state}${restarts}`, `From ${sourceLabel(status.source)}: ${status.file}`];
  if (status.trust) lines.push(TRUST_LINES[status.trust]);
  if (status.error) lines.push(status.error);
  return lines.join('\n');
}

/** `mcpServer <state> on|off [removable]`: what the menus offer (a .mcp.json server is not ours to remove). */
export function serverContext(status: McpServerStatus): string {
  return `mcpServer ${status.state} ${status.enabled ? 'on' : 'off'}${status.source === 'mcp.json' ? '' : ' removable'}`;
}

export function treeItem(node: McpNode): vscode.TreeItem {
  switch (node.kind) {
    case 'server': {
      const s = node.status;
      const item = new vscode.TreeItem(s.name, s.enabled ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `mcp-server:${s.name}`;
      item.description = serverDescription(s);
      item.tooltip = serverTooltip(s);
      item.iconPath = stateIcon(s.state);
      item.contextValue = serverContext(s);
      item.accessibilityInformation = { label: `MCP server ${s.name}, ${s.state}, ${serverDescription(s)}${s.error ? `, ${oneLine(s.error, ROW_TEXT_WIDTH, 'spaces')}` : ''}` };
      return item;
    }
    case 'tool': {
      const item = new vscode.TreeItem(node.tool.name, vscode.TreeItemCollapsibleState.None);
      item.id = `mcp-tool:${node.server}:${node.tool.qualifiedName}`;
      item.description = oneLine(node.tool.description, 80, 'spaces');
      item.tooltip = `${node.tool.qualifiedName}\n\n${node.tool.description}`;
      item.iconPath = new vscode.ThemeIcon('tools');
      item.contextValue = 'mcpTool';
      return item;
    }
    case 'problem': {
      const item = new vscode.TreeItem(oneLine(node.text, 120, 'spaces'), vscode.TreeItemCollapsibleState.None);
      item.tooltip = node.text;
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
      item.contextValue = 'mcpProblem';
      return item;
    }
  }
}
