import * as vscode from 'vscode';
import { PROVIDER_KINDS, STANDALONE_PROVIDER_KINDS, type ProviderKind } from '../../core/config/provider-settings';
import type { CapabilityCatalog } from '../../core/llm/capabilities/catalog';
import type { ServerModelDirectory } from '../../core/llm/server-models/server-model-directory';
import type { WebviewToExtension } from '../../shared/protocol';
import type { ChatController } from '../chat-controller';
import { currentModel, currentProvider, SECTION, secretKeyFor, watchProjectSettings } from '../settings';
import { checkApiKeyShape } from './api-key-shape';
import { ModelPicker, type ModelPickRow } from './model-pick';
import type { SetupOffers } from './setup-offers';
import { CLOUD_ABOUT, askCloudSettings, keyOptional, providerNames } from './cloud-setup';
import { lmModelAvailable } from '../lm/lm-model-choices';

/** What the model picker shows while it is open (integration tests read it; users see it). */
export interface ProviderSetupApi {
  modelPick(): readonly ModelPickRow[] | undefined;
}

// Functions, not constants: vscode.l10n answers in the display language only once the extension runs.
const NAMES = (): Record<ProviderKind, string> => providerNames();
const ABOUT = (): Record<ProviderKind, string> => ({
  openai: vscode.l10n.t('GPT models at api.openai.com.'),
  anthropic: vscode.l10n.t('Claude models through the Anthropic Messages API.'),
  'openai-compatible': vscode.l10n.t('Ollama, LM Studio, vLLM…: any server that speaks the OpenAI API. A key is optional.'),
  ...CLOUD_ABOUT(),
  'vscode-lm': vscode.l10n.t("The models VS Code's Language Model API offers (GitHub Copilot's, other extensions'). No key: VS Code asks you once."),
});
const LOCAL_SERVER_URL = 'http://localhost:11434/v1';

const isProvider = (v: unknown): v is ProviderKind => typeof v === 'string' && (PROVIDER_KINDS as readonly string[]).includes(v);

/**
 * Set API Key, Select Provider and Select Model. Each takes optional arguments (provider, key,
 * model) so scripts and tests run them without prompts; from the palette they ask.
 */
export function registerProviderSetup(context: vscode.ExtensionContext, secrets: vscode.SecretStorage, chat: ChatController, catalog: CapabilityCatalog, servers: ServerModelDirectory): ProviderSetupApi {
  const picker = new ModelPicker(secrets, catalog, servers, () => NAMES()[currentModel().provider]);
  const register = (id: string, run: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('opendev.setApiKey', (provider?: unknown, key?: unknown) => setApiKey(secrets, chat, provider, key));
  register('opendev.selectProvider', (provider?: unknown) => selectProvider(secrets, chat, catalog, provider));
  register('opendev.selectModel', async (model?: unknown) => {
    if (typeof model === 'string' && model.trim()) return writeModel(model.trim());
    const picked = await picker.pick();
    if (!picked) return;
    const id = picked.model ?? (await askModelId(currentModel().model));
    if (!id) return;
    await writeModel(id);
    if (picked.noTools) {
      // Chosen knowingly, but said before the first message rather than after it.
      void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: {0} cannot call tools, so the agent cannot edit files or run commands with it. Choose a model that supports tool calling to work on code.', id));
    }
  });

  // The walkthrough's first step ("Connect a model provider") is done once a provider is usable:
  // one has a key (however it was stored), or the one chosen needs none (a local server).
  const updateReadyContext = async () => {
    const stored = await Promise.all(PROVIDER_KINDS.map((p) => secrets.get(secretKeyFor(p))));
    await vscode.commands.executeCommand('setContext', PROVIDER_READY_CONTEXT, stored.some(Boolean) || keyOptional(currentProvider()) || currentProvider() === 'vscode-lm');
  };
  context.subscriptions.push(
    secrets.onDidChange(() => void updateReadyContext()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.provider`)) void updateReadyContext();
    }),
    watchProjectSettings(() => void updateReadyContext()),
  );
  void updateReadyContext();

  return { modelPick: () => picker.rows() };
}

/** True once a provider can be reached: a key is stored for one, or the one chosen needs none (the walkthrough's first step). */
export const PROVIDER_READY_CONTEXT = 'opendev.providerReady';

/** A card's button in the chat (setup card, error fixes). */
export function runCardAction(message: Extract<WebviewToExtension, { type: 'action' }>, extensionId: string, offers: SetupOffers): void {
  if (message.action === 'useOffer') {
    void offers.use(message.offer ?? '');
    return;
  }
  if (message.action === 'setApiKey') void vscode.commands.executeCommand('opendev.setApiKey', message.provider);
  else if (message.action === 'chooseProvider') void vscode.commands.executeCommand('opendev.selectProvider');
  else void vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${extensionId}`);
}

/**
 * Stores a key in SecretStorage, never in settings. Without a provider it asks which one (the
 * current provider first); the key's shape is checked loosely before it is saved. Scripted
 * (provider, key) it asks nothing; an empty key removes the stored one.
 */
async function setApiKey(secrets: vscode.SecretStorage, chat: ChatController, provider?: unknown, key?: unknown): Promise<void> {
  // VS Code's language models take no key (VS Code holds their credentials): not offered here.
  const target = isProvider(provider) ? provider : await pickProvider(secrets, vscode.l10n.t('Set API Key: which provider is the key for?'), STANDALONE_PROVIDER_KINDS);
  if (!target) return;
  if (target === 'vscode-lm') {
    void vscode.window.showInformationMessage(vscode.l10n.t("OpenDev: VS Code's language models need no key: VS Code signs in to them and asks your consent on first use."));
    return;
  }
  if (key === '') {
    // Scripted with an empty key: forget the stored one.
    await secrets.delete(secretKeyFor(target));
    chat.invalidateAgent();
    return;
  }
  if (typeof key === 'string') {
    const problem = checkApiKeyShape(target, key);
    if (problem?.severity === 'error') {
      void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev: the key was not saved. {0}', problem.message));
      return;
    }
    await storeKey(secrets, chat, target, key.trim());
    return;
  }
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('OpenDev: API key for {0}', NAMES()[target]),
    prompt: vscode.l10n.t('Stored in VS Code Secret Storage, never in your settings files.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const problem = checkApiKeyShape(target, v);
      if (!problem) return undefined;
      return { message: problem.message, severity: problem.severity === 'error' ? vscode.InputBoxValidationSeverity.Error : vscode.InputBoxValidationSeverity.Warning };
    },
  });
  if (!value?.trim()) return;
  await storeKey(secrets, chat, target, value.trim());
  void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: the {0} API key is saved.', NAMES()[target]));
}

async function storeKey(secrets: vscode.SecretStorage, chat: ChatController, provider: ProviderKind, key: string): Promise<void> {
  await secrets.store(secretKeyFor(provider), key);
  chat.invalidateAgent();
}

/** The providers (`kinds`), the current one first when it is among them, each saying whether its key is stored. */
async function pickProvider(secrets: vscode.SecretStorage, title: string, kinds: readonly ProviderKind[] = PROVIDER_KINDS): Promise<ProviderKind | undefined> {
  const current = currentModel().provider;
  const order = kinds.includes(current) ? [current, ...kinds.filter((p) => p !== current)] : kinds;
  const items = await Promise.all(
    order.map(async (p) => {
      const stored = Boolean(await secrets.get(secretKeyFor(p)));
      const key = p === 'vscode-lm' ? vscode.l10n.t('no key needed') : stored ? vscode.l10n.t('key stored') : keyOptional(p) ? vscode.l10n.t('no key (optional here)') : vscode.l10n.t('no key yet');
      return { label: NAMES()[p], description: [p === current ? vscode.l10n.t('current') : undefined, key].filter(Boolean).join(' · '), detail: ABOUT()[p], provider: p };
    }),
  );
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('OpenDev: {0}', title), matchOnDetail: true });
  return picked?.provider;
}

/**
 * Choose Provider: writes `opendev.provider`, then asks for what that provider still lacks (the
 * server's address for an OpenAI-compatible one, else a key). A model the new provider does not
 * list is reset to its default.
 */
async function selectProvider(secrets: vscode.SecretStorage, chat: ChatController, catalog: CapabilityCatalog, provider?: unknown): Promise<void> {
  const scripted = isProvider(provider);
  const target = scripted ? provider : await pickProvider(secrets, vscode.l10n.t('Choose the provider OpenDev talks to'));
  if (!target) return;
  const config = vscode.workspace.getConfiguration(SECTION);
  const chosenModel = config.inspect<string>('model')?.globalValue;
  await config.update('provider', target, vscode.ConfigurationTarget.Global);
  const notes: string[] = [];
  // A model the new provider does not serve would fail on the first message. (A compatible server
  // may host anything: its model is left alone.)
  const listed = catalog.list(target);
  const unserved = target === 'vscode-lm' ? chosenModel !== undefined && !(await lmModelAvailable(chosenModel)) : chosenModel && listed.length > 0 && !listed.some((m) => m.id === chosenModel);
  if (unserved) {
    await config.update('model', undefined, vscode.ConfigurationTarget.Global);
    notes.push(vscode.l10n.t("the model is back to {0}'s default ({1}); \"OpenDev: Select Model\" picks another", NAMES()[target], currentModel().model));
  }
  if (scripted) return;
  if (target === 'openai-compatible' && !currentModel().baseUrl) {
    const url = await vscode.window.showInputBox({
      title: vscode.l10n.t('OpenDev: address of the OpenAI-compatible server'),
      value: LOCAL_SERVER_URL,
      prompt: vscode.l10n.t('Ollama: http://localhost:11434/v1 · LM Studio: http://localhost:1234/v1 · OpenRouter: https://openrouter.ai/api/v1'),
      ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : vscode.l10n.t('Enter an http:// or https:// address.')),
    });
    if (url?.trim()) await config.update('baseUrl', url.trim(), vscode.ConfigurationTarget.Global);
  } else if (target !== 'vscode-lm') {
    // VS Code holds the language models' credentials (and asks the user's consent on first use).
    // A cloud's endpoint, deployment, region or project first: they are settings, the key is a secret.
    await askCloudSettings(target);
    if (!keyOptional(target) && !(await secrets.get(secretKeyFor(target)))) await setApiKey(secrets, chat, target);
  }
  void vscode.window.showInformationMessage(notes.length ? vscode.l10n.t('OpenDev now talks to {0}; {1}.', NAMES()[target], notes.join('; ')) : vscode.l10n.t('OpenDev now talks to {0}.', NAMES()[target]));
}

async function askModelId(current: string): Promise<string | undefined> {
  const id = await vscode.window.showInputBox({
    title: vscode.l10n.t('OpenDev: model id'),
    value: current,
    prompt: vscode.l10n.t('The id exactly as the provider names it, e.g. gpt-4.1, claude-sonnet-4-5, llama3.1.'),
    validateInput: (v) => (v.trim() ? (/\s/.test(v.trim()) ? vscode.l10n.t('A model id has no spaces.') : undefined) : vscode.l10n.t('Enter a model id.')),
  });
  return id?.trim() || undefined;
}

async function writeModel(model: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('model', model, vscode.ConfigurationTarget.Global);
}
