import * as vscode from 'vscode';
import type { CapabilityCatalog } from '../../core/llm/capabilities/catalog';
import type { ExtensionToWebview } from '../../shared/protocol';
import type { ChatController } from '../chat-controller';
import type { ChatViewProvider } from '../chat-view-provider';
import { currentModel, SECTION, watchProjectSettings } from '../settings';
import { HIGH_PRESSURE, statusText, statusTooltip, type ChatStatus } from './status-text';

/** What the status bar item shows right now (integration tests read it). */
export interface StatusBarView {
  text: string;
  tooltip: string;
  visible: boolean;
}

type LiveState = Pick<ChatStatus, 'mode' | 'busy' | 'context' | 'cost'>;

/**
 * The OpenDev status bar item: model, mode and context pressure, with provider, tokens and cost
 * in the tooltip. It follows the chat's own messages (the same ones the webview renders) and the
 * settings; a click opens the chat. Hidden without a workspace folder, where OpenDev cannot work.
 */
export function registerStatusBar(context: vscode.ExtensionContext, chat: ChatController, view: ChatViewProvider, catalog: CapabilityCatalog): () => StatusBarView {
  const item = vscode.window.createStatusBarItem('opendev.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'OpenDev';
  item.command = 'opendev.openChat';
  const snapshot = chat.snapshot();
  const live: LiveState = snapshot.type === 'snapshot' ? { mode: snapshot.mode, busy: snapshot.busy, context: snapshot.context, cost: snapshot.cost } : { mode: 'normal', busy: false };

  const render = () => {
    const model = currentModel();
    const status: ChatStatus = {
      ...live,
      ...model,
      catalogWindow: model.contextWindow ?? catalog.get(model.provider, model.model, model.baseUrl).contextWindow,
    };
    item.text = statusText(status);
    item.tooltip = statusTooltip(status);
    const pct = Math.round((live.context?.pressure ?? 0) * 100);
    item.accessibilityInformation = { label: `OpenDev: ${model.model}, ${live.mode} mode${live.context ? `, context ${pct}% full` : ''}. Open the chat.` };
    item.backgroundColor = (live.context?.pressure ?? 0) >= HIGH_PRESSURE ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    if (vscode.workspace.workspaceFolders?.length) item.show();
    else item.hide();
  };

  const follow = (m: ExtensionToWebview) => {
    if (m.type === 'snapshot') Object.assign(live, { mode: m.mode, busy: m.busy, context: m.context, cost: m.cost });
    else if (m.type === 'agentState') live.mode = m.mode;
    else if (m.type === 'busy') live.busy = m.busy;
    else if (m.type === 'context') live.context = m.context;
    else if (m.type === 'cost') live.cost = m.cost;
    else return;
    render();
  };

  context.subscriptions.push(
    item,
    chat.onMessage(follow),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) render();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(render),
    watchProjectSettings(render),
    // The item's click: the chat with its input focused, ready to type.
    vscode.commands.registerCommand('opendev.openChat', () => view.compose()),
  );
  render();
  return () => ({ text: item.text, tooltip: typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? ''), visible: Boolean(vscode.workspace.workspaceFolders?.length) });
}
