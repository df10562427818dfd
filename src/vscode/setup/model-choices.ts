import * as l10n from '@vscode/l10n';
import type { CatalogModel } from '../../core/llm/capabilities/catalog';
import type { ModelCapabilities } from '../../core/llm/capabilities/model-capabilities';

/** One row of Select Model: a model (`model` set) or the custom-id entry (`model` undefined). */
export interface ModelChoice {
  label: string;
  description?: string;
  detail: string;
  model: string | undefined;
  current?: boolean;
}

export const CUSTOM_MODEL_LABEL = '$(edit) Custom model id…';

/**
 * The Select Model rows: the provider's models from the capability catalogue (in its order), each
 * with its context window and price per million tokens; the current model is marked (and listed
 * first when the catalogue does not know it); a custom-id entry last.
 */
export function modelChoices(models: readonly CatalogModel[], current: { id: string; capabilities: ModelCapabilities }): ModelChoice[] {
  const rows: ModelChoice[] = models.map((m) => ({
    label: m.id,
    description: m.id === current.id ? l10n.t('{0} · current', m.name) : m.name,
    detail: describeCapabilities(m.capabilities),
    model: m.id,
    ...(m.id === current.id ? { current: true } : {}),
  }));
  if (current.id && !models.some((m) => m.id === current.id)) {
    rows.unshift({ label: current.id, description: l10n.t('current'), detail: describeCapabilities(current.capabilities), model: current.id, current: true });
  }
  rows.push({ label: CUSTOM_MODEL_LABEL, detail: l10n.t('Any model id the provider serves: a newer model, a fine-tune, a local model.'), model: undefined });
  return rows;
}

/** "1M-token context · $2.00 in / $8.00 out per 1M tokens · vision · reasoning". */
export function describeCapabilities(c: ModelCapabilities): string {
  if (!c.known) return l10n.t('Not in the model catalogue: assumes a {0}-token context (set opendev.contextWindow) · price unknown', tokens(c.contextWindow));
  const price = c.pricing ? l10n.t('{0} in / {1} out per 1M tokens', usd(c.pricing.inputPerMTok), usd(c.pricing.outputPerMTok)) : l10n.t('price unknown');
  const features = [c.vision && l10n.t('vision'), c.reasoning && l10n.t('reasoning')].filter(Boolean);
  return [l10n.t('{0}-token context', tokens(c.contextWindow)), price, ...features].join(' · ');
}

/** 1,047,576 → "1M", 200,000 → "200k", 131,072 → "131k". */
export function tokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

/** Dollars with two decimals, or three when a cheap model needs them ($0.025). */
function usd(n: number): string {
  return `$${n.toFixed(n > 0 && n < 0.1 && Number(n.toFixed(2)) !== n ? 3 : 2)}`;
}
