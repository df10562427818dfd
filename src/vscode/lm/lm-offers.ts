import * as vscode from 'vscode';
import type { OfferSource } from '../setup/setup-offers';
import { AUTO_MODEL, lmModelLabel, pickLmModel } from './lm-model-pick';

/**
 * The setup card's first offer: a model VS Code's Language Model API already has (Copilot's, another
 * extension's), which needs no key at all. Offered with the model `auto` would pick now; choosing it
 * switches the provider to vscode-lm the way Choose Provider does (VS Code asks its consent on first use).
 */
export const languageModelOffers: OfferSource = async () => {
  const model = await pickLmModel(vscode, AUTO_MODEL).catch(() => undefined);
  if (!model) return [];
  return [
    {
      offer: {
        id: 'vscode-lm:auto',
        label: vscode.l10n.t('Use {0}', lmModelLabel(model)),
        detail: vscode.l10n.t('Use a language model VS Code already has (through its Language Model API): no API key needed'),
      },
      use: async () => {
        await vscode.commands.executeCommand('opendev.selectProvider', 'vscode-lm');
      },
    },
  ];
};
