// Running token and USD totals of a session (§2.2: cost tracking after every call, persisted in the
// session metadata, restored on resume).
import type { CostSnapshot } from '../ui';
import type { ModelCapabilities } from './capabilities/model-capabilities';
import type { TokenUsage } from './provider';

const PER_MILLION = 1_000_000;

/** The USD price of one call, or undefined when the model's pricing is unknown. Cached tokens are part of promptTokens. */
/** Anything that may carry prices: ModelCapabilities, or a narrower view of it. */
export type PricedModel = { pricing?: ModelCapabilities['pricing'] };

export function callCost(usage: TokenUsage, capabilities?: PricedModel): number | undefined {
  const pricing = capabilities?.pricing;
  if (!pricing) return undefined;
  const cached = Math.min(Math.max(0, usage.cachedTokens), Math.max(0, usage.promptTokens));
  const uncached = Math.max(0, usage.promptTokens) - cached;
  const cachedPrice = pricing.cacheReadPerMTok ?? pricing.inputPerMTok;
  return (uncached * pricing.inputPerMTok + cached * cachedPrice + Math.max(0, usage.outputTokens) * pricing.outputPerMTok) / PER_MILLION;
}

/**
 * Sums every model call. `usd` is the total of the calls whose price is known; it stays undefined
 * until one is (a session on an unpriced model shows tokens only). `unpricedCalls` counts the rest,
 * so a front end can say "at least $x".
 */
export class CostTracker {
  private inputTokens = 0;
  private cachedTokens = 0;
  private outputTokens = 0;
  private reasoningTokens = 0;
  private usd: number | undefined;
  private calls = 0;
  private unpriced = 0;

  constructor(initial?: CostSnapshot) {
    if (initial) this.restore(initial);
  }

  /** Records one call. Returns its price (undefined when unknown). */
  add(usage: TokenUsage, capabilities?: PricedModel): number | undefined {
    this.inputTokens += Math.max(0, usage.promptTokens);
    this.cachedTokens += Math.max(0, usage.cachedTokens);
    this.outputTokens += Math.max(0, usage.outputTokens);
    // Already inside outputTokens (and priced there); counted apart so the user sees what reasoning cost.
    this.reasoningTokens += Math.max(0, usage.reasoningTokens ?? 0);
    this.calls += 1;
    const cost = callCost(usage, capabilities);
    if (cost === undefined) this.unpriced += 1;
    else this.usd = (this.usd ?? 0) + cost;
    return cost;
  }

  /** Calls (since construction or restore) whose model had no known pricing. */
  get unpricedCalls(): number {
    return this.unpriced;
  }

  snapshot(): CostSnapshot {
    return {
      inputTokens: this.inputTokens,
      cachedTokens: this.cachedTokens,
      outputTokens: this.outputTokens,
      ...(this.reasoningTokens > 0 ? { reasoningTokens: this.reasoningTokens } : {}),
      usd: this.usd,
      calls: this.calls,
    };
  }

  /** Continues from a saved snapshot (a resumed session). */
  restore(snapshot: CostSnapshot): void {
    const n = (v: number): number => (Number.isFinite(v) && v > 0 ? v : 0);
    this.inputTokens = n(snapshot.inputTokens);
    this.cachedTokens = n(snapshot.cachedTokens);
    this.outputTokens = n(snapshot.outputTokens);
    this.reasoningTokens = n(snapshot.reasoningTokens ?? 0);
    this.calls = Math.floor(n(snapshot.calls));
    this.usd = snapshot.usd === undefined || !Number.isFinite(snapshot.usd) ? undefined : Math.max(0, snapshot.usd);
    this.unpriced = 0;
  }
}
