import * as vscode from 'vscode';
import { tokens, type ModelChoice } from '../setup/model-choices';
import { AUTO_MODEL, matchesSelector, pickLmModel } from './lm-model-pick';

/**
 * Select Model's rows for the vscode-lm provider: "auto" (the first model offered), then every model
 * VS Code's Language Model API offers now, written to opendev.model as "vendor/id" (ids alone may
 * repeat across vendors). Their context window is the model's own maxInputTokens.
 */
export async function lmModelChoices(current: string): Promise<ModelChoice[]> {
  const models = await vscode.lm.selectChatModels();
  const isAuto = current.trim().toLowerCase() === AUTO_MODEL;
  const rows: ModelChoice[] = [{
    label: AUTO_MODEL,
    description: isAuto ? vscode.l10n.t('current') : undefined,
    detail: models[0] ? vscode.l10n.t('The first model VS Code offers: now {0}', models[0].name) : vscode.l10n.t('No language model is available in VS Code yet (GitHub Copilot provides some).'),
    model: AUTO_MODEL,
    ...(isAuto ? { current: true } : {}),
  }];
  for (const m of models) {
    const isCurrent = !isAuto && matchesSelector(m, current);
    rows.push({
      label: m.name,
      description: [`${m.vendor}/${m.id}`, isCurrent ? vscode.l10n.t('current') : undefined].filter(Boolean).join(' · '),
      detail: vscode.l10n.t('{0}-token context · through VS Code (family {1})', tokens(m.maxInputTokens), m.family),
      model: `${m.vendor}/${m.id}`,
      ...(isCurrent ? { current: true } : {}),
    });
  }
  return rows;
}

/** Whether `model` names one of the models VS Code offers now (or is "auto"). */
export async function lmModelAvailable(model: string): Promise<boolean> {
  if (model.trim().toLowerCase() === AUTO_MODEL) return true;
  return (await pickLmModel(vscode, model)) !== undefined;
}
