import * as vscode from 'vscode';
import { DEFAULT_MODELS, PROVIDER_LABELS, type ProviderKind } from '../core/config/provider-settings';
import { playbookPath, PlaybookStore } from '../core/memory/playbook/playbook-store';
import type { ChatController } from './chat-controller';
import type { ChatViewProvider } from './chat-view-provider';
import { showSessionHistory } from './session-picker';
import { currentProvider, SECTION, secretKeyFor } from './settings';

/** Commands whose feature lands later: they exist in the palette and say so honestly. */
const NOT_YET_AVAILABLE: Record<string, string> = {
  'opendev.openTerminal': 'The OpenDev terminal',
};

const SUGGESTED_MODELS: Record<ProviderKind, string[]> = {
  openai: ['gpt-4.1', 'gpt-4.1-mini', 'o4-mini'],
  anthropic: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  'openai-compatible': [],
};

export function registerCommands(
  context: vscode.ExtensionContext,
  chat: ChatController,
  view: ChatViewProvider,
): void {
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('opendev.newChat', async () => {
    chat.newChat();
    await view.reveal();
  });
  register('opendev.stop', () => chat.stop());
  // The same /compact as typed in the chat: its outcome (or why it cannot run now) shows there.
  register('opendev.compact', async () => {
    await view.reveal();
    await chat.send('/compact');
  });
  // Undo Last Step is /undo typed in the chat: what was undone (or why nothing was) shows there.
  register('opendev.undo', async () => {
    await view.reveal();
    await chat.send('/undo');
  });
  // The project's sessions (the CLI's too); the chosen one continues in the chat.
  register('opendev.showSessions', (id?: unknown) => showSessionHistory(chat, () => view.reveal(), id));
  register('opendev.setApiKey', (provider?: unknown, key?: unknown) => setApiKey(context.secrets, chat, provider, key));
  register('opendev.selectModel', () => selectModel());
  register('opendev.switchMode', () => {
    const mode = chat.toggleMode();
    // The chat view shows the mode; the status bar says it too when the view is not in sight.
    vscode.window.setStatusBarMessage(`OpenDev: ${mode === 'plan' ? 'Plan mode: the agent plans before it changes anything' : 'Normal mode'}`, 4000);
  });
  register('opendev.openPlaybook', () => openPlaybook());
  for (const [id, feature] of Object.entries(NOT_YET_AVAILABLE)) {
    register(id, () => {
      void vscode.window.showInformationMessage(`OpenDev: ${feature} is not available yet in this version.`);
    });
  }
}

/**
 * Stores a key in SecretStorage, never in settings. With arguments (provider, key) it runs
 * without prompting, for scripts and tests; otherwise it asks with a password box.
 */
async function setApiKey(secrets: vscode.SecretStorage, chat: ChatController, provider?: unknown, key?: unknown): Promise<void> {
  const target = typeof provider === 'string' && provider in PROVIDER_LABELS ? (provider as ProviderKind) : currentProvider();
  const value =
    typeof key === 'string'
      ? key
      : await vscode.window.showInputBox({
          title: `OpenDev: API key for ${PROVIDER_LABELS[target]}`,
          prompt: 'Stored in VS Code Secret Storage, never in your settings files.',
          password: true,
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : 'Enter a key, or press Escape to cancel.'),
        });
  if (!value?.trim()) return;
  await secrets.store(secretKeyFor(target), value.trim());
  chat.invalidateAgent();
  if (typeof key !== 'string') void vscode.window.showInformationMessage(`OpenDev: the ${PROVIDER_LABELS[target]} API key is saved.`);
}

async function selectModel(): Promise<void> {
  const provider = currentProvider();
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = config.get<string>('model') || DEFAULT_MODELS[provider];
  const custom = '$(edit) Enter a model id…';
  const picked = await vscode.window.showQuickPick(
    [...SUGGESTED_MODELS[provider].map((m) => ({ label: m, description: m === current ? 'current' : undefined })), { label: custom }],
    { title: `OpenDev: model for ${PROVIDER_LABELS[provider]}`, placeHolder: current },
  );
  if (!picked) return;
  const model =
    picked.label === custom
      ? await vscode.window.showInputBox({ title: 'OpenDev: model id', value: current, validateInput: (v) => (v.trim() ? undefined : 'Enter a model id.') })
      : picked.label;
  if (model?.trim()) await config.update('model', model.trim(), vscode.ConfigurationTarget.Global);
}

/** Opens the project's playbook in an editor (an empty one is created first); the agent picks up edits. */
async function openPlaybook(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showInformationMessage('OpenDev: open a folder first; the playbook belongs to a project.');
    return;
  }
  const path = playbookPath(folder.uri.fsPath);
  await new PlaybookStore(path, { onWarning: (w) => void vscode.window.showWarningMessage(`OpenDev: ${w}`) }).ensureExists();
  await vscode.window.showTextDocument(vscode.Uri.file(path));
}
