import * as vscode from 'vscode';
import type { CapabilityCatalog } from '../../core/llm/capabilities/catalog';
import type { ServerModelDirectory } from '../../core/llm/server-models/server-model-directory';
import { currentModel, secretKeyFor } from '../settings';
import { lmModelChoices } from '../lm/lm-model-choices';
import { cloudModelList } from './cloud-setup';
import { modelChoices, serverModelChoices, type ModelChoice } from './model-choices';

type PickItem = vscode.QuickPickItem & { choice: ModelChoice };

/** A row of the open pick, and whether the workbench reports the focus on it (Enter takes that one). */
export type ModelPickRow = ModelChoice & { active?: true };

/** The open Select Model pick's rows (tests and the API read them), or undefined when none is open. */
export interface OpenModelPick {
  rows(): readonly ModelPickRow[] | undefined;
}

/**
 * Select Model's quick pick. OpenAI, Anthropic: the catalogue's models. An OpenAI-compatible
 * server: the models it lists (asked once a session per address, the pick busy meanwhile), with a
 * refresh entry; a row when it does not answer. vscode-lm: the models VS Code offers now. Resolves the chosen row (undefined: dismissed).
 */
export class ModelPicker implements OpenModelPick {
  private open: vscode.QuickPick<PickItem> | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly catalog: CapabilityCatalog,
    private readonly servers: ServerModelDirectory,
    private readonly providerName: () => string,
  ) {}

  rows(): readonly ModelPickRow[] | undefined {
    const pick = this.open;
    return pick?.items.map((item) => (pick.activeItems.includes(item) ? { ...item.choice, active: true } : item.choice));
  }

  async pick(): Promise<ModelChoice | undefined> {
    await this.catalog.load();
    const { provider, model: current, baseUrl } = currentModel();
    const currentRow = () => ({ id: current, capabilities: this.catalog.get(provider, current, baseUrl) });
    const pick = vscode.window.createQuickPick<PickItem>();
    pick.title = vscode.l10n.t('OpenDev: model for {0}', this.providerName());
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const show = (choices: ModelChoice[]) => {
      pick.items = choices.map((choice) => ({ label: choice.label, description: choice.description, detail: choice.detail, choice }));
      pick.activeItems = pick.items.filter((item) => item.choice.current);
    };
    const server = provider === 'openai-compatible' && baseUrl ? baseUrl : undefined;
    const listServer = async (refresh: boolean) => {
      if (!server) return;
      pick.busy = true;
      pick.placeholder = vscode.l10n.t('Asking {0} for its models…', server);
      const apiKey = (await this.secrets.get(secretKeyFor('openai-compatible'))) || undefined;
      const listing = await this.servers.list({ baseUrl: server, ...(apiKey ? { apiKey } : {}) }, { refresh });
      if (this.open !== pick) return; // closed meanwhile
      pick.busy = false;
      pick.placeholder = listing.ok
        ? vscode.l10n.t('Current: {0}. The models {1} serves; ones that cannot call tools are marked.', current, server)
        : vscode.l10n.t('Current: {0}. {1} did not answer.', current, server);
      show(serverModelChoices(listing, currentRow()));
    };
    if (server) {
      // Until the server answers: the current model and the custom entry.
      show(modelChoices([], currentRow()));
    } else if (provider === 'vscode-lm') {
      // VS Code's language models list themselves (the catalogue does not know them).
      pick.placeholder = vscode.l10n.t('Current: {0}. The models VS Code offers through its Language Model API.', current);
      show(await lmModelChoices(current));
    } else {
      pick.placeholder = vscode.l10n.t('Current: {0}. Context window and price per million tokens (input / output) from the model catalogue.', current);
      show(modelChoices((await cloudModelList(provider, baseUrl)) ?? this.catalog.list(provider), currentRow()));
    }
    this.open = pick;
    const picked = await new Promise<ModelChoice | undefined>((resolve) => {
      pick.onDidAccept(() => {
        const choice = pick.selectedItems[0]?.choice ?? pick.activeItems[0]?.choice;
        if (choice?.refresh) {
          void listServer(true);
          return;
        }
        resolve(choice);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
      void listServer(false);
    });
    if (this.open === pick) this.open = undefined;
    pick.dispose();
    return picked;
  }
}
