import * as l10n from '@vscode/l10n';
import type { CatalogModel } from '../../core/llm/capabilities/catalog';
import type { ModelCapabilities } from '../../core/llm/capabilities/model-capabilities';
import type { ServerListing } from '../../core/llm/server-models/server-model-directory';

/**
 * One row of Select Model: a model (`model` set), the custom-id entry (`model` undefined), or, for
 * a server's list, the entry that asks the server again (`refresh`).
 */
export interface ModelChoice {
  label: string;
  description?: string;
  detail: string;
  model: string | undefined;
  current?: boolean;
  /** The model cannot call tools (its server or the catalogue says so): the agent could not act with it. */
  noTools?: boolean;
  /** Asks the server for its models again (the refresh entry, or the server did not answer). */
  refresh?: boolean;
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

/**
 * The Select Model rows of an OpenAI-compatible server: the models it lists (`GET /v1/models`), each
 * with what is known of it and flagged when it cannot call tools, the current one marked (and first
 * when the server does not list it); then the refresh entry, or, when the server did not answer, a
 * row saying so that asks again; a custom-id entry last.
 */
export function serverModelChoices(listing: ServerListing, current: { id: string; capabilities: ModelCapabilities }): ModelChoice[] {
  const rows: ModelChoice[] = [];
  if (listing.ok) {
    for (const m of listing.models) {
      const noTools = m.capabilities.toolCalls === false;
      const notes = [m.id === current.id ? l10n.t('current') : undefined, noTools ? l10n.t('$(warning) no tool calling') : undefined].filter(Boolean);
      rows.push({
        label: m.id,
        ...(notes.length ? { description: notes.join(' · ') } : {}),
        detail: noTools ? l10n.t('Cannot call tools: the agent cannot edit files or run commands with it. {0}', describeCapabilities(m.capabilities)) : describeCapabilities(m.capabilities),
        model: m.id,
        ...(m.id === current.id ? { current: true } : {}),
        ...(noTools ? { noTools: true } : {}),
      });
    }
  }
  if (current.id && !rows.some((r) => r.current)) {
    rows.unshift({ label: current.id, description: l10n.t('current'), detail: describeCapabilities(current.capabilities), model: current.id, current: true });
  }
  rows.push(
    listing.ok
      ? { label: l10n.t('$(refresh) Refresh the list'), detail: l10n.t('Ask {0} for its models again (listed {1}).', listing.baseUrl, listing.at.toLocaleTimeString()), model: undefined, refresh: true }
      : { label: l10n.t('$(warning) The server did not answer'), detail: l10n.t('{0} Choose this to ask again.', listing.error.message), model: undefined, refresh: true },
  );
  rows.push({ label: CUSTOM_MODEL_LABEL, detail: l10n.t('Any model id the provider serves: a newer model, a fine-tune, a local model.'), model: undefined });
  return rows;
}

/** "1M-token context · $2.00 in / $8.00 out per 1M tokens · vision · reasoning". */
export function describeCapabilities(c: ModelCapabilities): string {
  if (!c.known && c.fromServer) {
    // Nothing in the catalogue, but the server said what it runs the model with.
    const features = [c.vision && l10n.t('vision')].filter(Boolean);
    return [l10n.t('{0}-token context (from the server)', tokens(c.contextWindow)), ...(c.pricing ? [] : [l10n.t('price unknown')]), ...features].join(' · ');
  }
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
