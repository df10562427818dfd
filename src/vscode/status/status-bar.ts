import * as vscode from 'vscode';
import type { CapabilityCatalog } from '../../core/llm/capabilities/catalog';
import type { ExtensionToWebview } from '../../shared/protocol';
import type { ChatController } from '../chat-controller';
import type { ChatViewProvider } from '../chat-view-provider';
import { currentModel, SECTION, watchProjectSettings } from '../settings';
import type { AgentTerminals } from '../terminal/agent-terminals';
import { localFolders, type ChatFolder } from '../chat-folder';
import { HIGH_PRESSURE, statusText, statusTooltip, type ChatStatus, type FrontEndStatus } from './status-text';

/** What the status bar item shows right now (integration tests read it). */
export interface StatusBarView {
  text: string;
  tooltip: string;
  visible: boolean;
  /** The front end it follows: `chat`, or the id of an OpenDev terminal tab. */
  front: string;
}

/** The front ends the item can follow. */
export interface StatusFrontEnds {
  chat: ChatController;
  view: ChatViewProvider;
  terminals: AgentTerminals;
  /** The chat's folder, named in a multi-root workspace. */
  folder: ChatFolder;
}

/**
 * The OpenDev status bar item: model, mode and context pressure (the folder in a multi-root workspace, and "unsandboxed" when commands
 * run without the sandbox), with provider, tokens, cost and the sandbox's state in the tooltip. It follows the active front end: the chat (its own messages, the same ones the
 * webview renders), or the OpenDev terminal tab that was focused last, until the user turns to the
 * chat again or the tab closes. A click shows that front end. Hidden without a workspace folder,
 * where OpenDev cannot work.
 */
export function registerStatusBar(context: vscode.ExtensionContext, fronts: StatusFrontEnds, catalog: CapabilityCatalog): () => StatusBarView {
  const { chat, view, terminals, folder: chatFolder } = fronts;
  const item = vscode.window.createStatusBarItem('opendev.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'OpenDev';
  const snapshot = chat.snapshot();
  const chatState: FrontEndStatus = snapshot.type === 'snapshot' ? { mode: snapshot.mode, busy: snapshot.busy, context: snapshot.context, cost: snapshot.cost, sandbox: snapshot.sandbox } : { mode: 'normal', busy: false };
  /** The OpenDev terminal tab followed; undefined: the chat. */
  let tab = terminals.idOf(vscode.window.activeTerminal);

  const render = () => {
    const tabState = tab === undefined ? undefined : terminals.status(tab);
    if (tab !== undefined && !tabState) tab = undefined; // the tab closed: back to the chat
    const live = tabState ?? chatState;
    const model = currentModel();
    const status: ChatStatus = {
      ...live,
      ...model,
      catalogWindow: model.contextWindow ?? catalog.get(model.provider, model.model, model.baseUrl).contextWindow,
      ...(tab !== undefined ? { terminal: terminals.terminal(tab)?.name ?? 'OpenDev Agent' } : {}),
      ...folderOf(tabState ? tabState.workingDir : chatFolder.path),
    };
    item.text = statusText(status);
    item.tooltip = statusTooltip(status);
    const pct = Math.round((live.context?.pressure ?? 0) * 100);
    const where = tab !== undefined ? vscode.l10n.t('Show the terminal {0}.', status.terminal ?? '') : vscode.l10n.t('Open the chat.');
    const facts = [model.model, live.mode === 'plan' ? vscode.l10n.t('plan mode') : vscode.l10n.t('normal mode')];
    if (status.folder) facts.push(vscode.l10n.t('folder {0}', status.folder.name));
    if (live.context) facts.push(vscode.l10n.t('context {0}% full', pct));
    if (live.sandbox?.state === 'unsandboxed') facts.push(vscode.l10n.t('commands unsandboxed'));
    item.accessibilityInformation = { label: vscode.l10n.t('OpenDev: {0}. {1}', facts.join(', '), where) };
    item.backgroundColor = (live.context?.pressure ?? 0) >= HIGH_PRESSURE ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    // The click: the chat with its input focused, or the followed tab (the active terminal).
    item.command = tab !== undefined ? { title: vscode.l10n.t('Show the OpenDev terminal'), command: 'workbench.action.terminal.focus' } : 'opendev.openChat';
    if (vscode.workspace.workspaceFolders?.length) item.show();
    else item.hide();
  };

  const followTab = (id: string | undefined) => {
    if (id === undefined || id === tab) return;
    tab = id;
    render();
  };

  const followChat = (m: ExtensionToWebview) => {
    if (m.type === 'snapshot') Object.assign(chatState, { mode: m.mode, busy: m.busy, context: m.context, cost: m.cost, sandbox: m.sandbox });
    else if (m.type === 'sandbox') chatState.sandbox = { state: m.state, ...(m.detail ? { detail: m.detail } : {}), ...(m.off ? { off: true } : {}) };
    else if (m.type === 'agentState') chatState.mode = m.mode;
    else if (m.type === 'busy') chatState.busy = m.busy;
    else if (m.type === 'context') chatState.context = m.context;
    else if (m.type === 'cost') chatState.cost = m.cost;
    else return;
    render();
  };

  context.subscriptions.push(
    item,
    chat.onMessage(followChat),
    // Another terminal (a task's tab, the user's shell) leaves the item on the front end it follows.
    vscode.window.onDidChangeActiveTerminal((terminal) => followTab(terminals.idOf(terminal))),
    // Typing in a tab that already was the active terminal changes no terminal: it is in use all the same.
    terminals.onDidType(followTab),
    view.onDidFocus(() => {
      if (tab === undefined) return;
      tab = undefined;
      render();
    }),
    terminals.onDidChangeStatus((id) => {
      if (id === tab) render();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) render();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(render),
    // The chat moved to another folder (the active editor's, or one picked in its header).
    chatFolder.onDidChange(render),
    watchProjectSettings(render),
    // The item's click while it follows the chat: the chat with its input focused, ready to type.
    vscode.commands.registerCommand('opendev.openChat', () => view.compose()),
  );
  render();
  return () => ({
    text: item.text,
    tooltip: typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? ''),
    visible: Boolean(vscode.workspace.workspaceFolders?.length),
    front: tab ?? 'chat',
  });
}

/** The folder `dir` is in, when the workspace has more than one local folder (with one, naming it says nothing). */
function folderOf(dir: string | undefined): { folder?: { name: string; path: string } } {
  if (!dir || localFolders().length < 2) return {};
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir));
  return folder ? { folder: { name: folder.name, path: folder.uri.fsPath } } : {};
}
