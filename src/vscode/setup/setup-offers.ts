import * as vscode from 'vscode';
import type { ChatEntry, SetupOffer } from '../../shared/protocol';
import { SECTION } from '../settings';
import { probeLocalServers } from './local-servers';

/** An offer the setup card shows, and what choosing it does. */
export interface OfferAction {
  offer: SetupOffer;
  use(): Promise<void>;
}

/** Where offers come from; each source looks for what the user already has (and finds nothing quietly). */
export type OfferSource = () => Promise<OfferAction[]>;

/**
 * The setup card's one-click offers: the models the user already has, in the order of the sources
 * (a source added before another is offered first). The card carries only each offer's id, label
 * and tooltip; choosing one runs the offer kept here under that id, never anything the webview says.
 */
export class SetupOffers {
  private made = new Map<string, OfferAction>();

  constructor(private readonly sources: readonly OfferSource[]) {}

  /** The setup card with the offers found now (another card, or none found: as it was). */
  async addTo(card: ChatEntry): Promise<ChatEntry> {
    if (card.kind !== 'setup') return card;
    const found = await Promise.all(this.sources.map((source) => source().catch((): OfferAction[] => [])));
    const actions = found.flat();
    this.made = new Map(actions.map((a) => [a.offer.id, a]));
    return actions.length > 0 ? { ...card, offers: actions.map((a) => a.offer) } : { ...card, offers: undefined };
  }

  /** The card's offer `id` was chosen; false when no offer has that id (an old card). */
  async use(id: string): Promise<boolean> {
    const action = this.made.get(id);
    if (!action) return false;
    await action.use();
    return true;
  }
}

/** A local server answering on its usual port (Ollama, LM Studio): offered with the model it would use. */
export const localServerOffers: OfferSource = async () =>
  (await probeLocalServers()).map((server) => ({
    offer: {
      id: `local-server:${server.baseUrl}`,
      label: vscode.l10n.t('Use {0} ({1})', server.name, server.model),
      detail: vscode.l10n.t('{0} answers at {1}: OpenDev would use its model {2}, on this machine, with no key. Select Model picks another of its models.', server.name, server.baseUrl, server.model),
    },
    use: async () => {
      const config = vscode.workspace.getConfiguration(SECTION);
      // The address and the model first, the provider last: no moment where the provider lacks its address.
      await config.update('baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
      await config.update('model', server.model, vscode.ConfigurationTarget.Global);
      await config.update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev now uses {0} on {1} ({2}). "OpenDev: Select Model" picks another of its models.', server.model, server.name, server.baseUrl));
    },
  }));
