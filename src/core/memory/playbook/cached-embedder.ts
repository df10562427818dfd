import type { Embedder } from './embedding';

export interface CachedEmbedderOptions {
  /** After the primary fails, it is not asked again for this long. */
  cooldownMs?: number;
  /** Told once per failure streak that the fallback is in use. */
  onFallback?: (error: Error) => void;
  now?: () => number;
  /** Most vectors kept; the cache starts over beyond it. */
  maxEntries?: number;
}

/**
 * Caches vectors per text and embedder, and falls back to a second embedder (the local lexical
 * one) when the primary (the provider) fails. One call's vectors always come from one embedder,
 * so a query is never compared with a bullet from another vector space.
 */
export class CachedEmbedder implements Embedder {
  private readonly cache = new Map<string, number[]>();
  private downUntil = 0;
  private warned = false;

  constructor(
    private readonly primary: Embedder,
    private readonly fallback: Embedder | undefined,
    private readonly options: CachedEmbedderOptions = {},
  ) {}

  get id(): string {
    return this.usable() || !this.fallback ? this.primary.id : this.fallback.id;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const fallback = this.fallback;
    if (!fallback) return this.cached(this.primary, texts, signal);
    if (this.usable()) {
      try {
        const vectors = await this.cached(this.primary, texts, signal);
        this.warned = false;
        return vectors;
      } catch (err) {
        if (signal?.aborted) throw err;
        this.downUntil = this.now() + (this.options.cooldownMs ?? 10 * 60_000);
        if (!this.warned) this.options.onFallback?.(err as Error);
        this.warned = true;
      }
    }
    return this.cached(fallback, texts, signal);
  }

  private usable(): boolean {
    return this.now() >= this.downUntil;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async cached(embedder: Embedder, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const key = (t: string) => `${embedder.id}\n${t}`;
    const found = new Map<string, number[]>();
    for (const t of texts) {
      const hit = this.cache.get(key(t));
      if (hit) found.set(t, hit);
    }
    const missing = [...new Set(texts.filter((t) => !found.has(t)))];
    if (missing.length > 0) {
      const vectors = await embedder.embed(missing, signal);
      if (this.cache.size + missing.length > (this.options.maxEntries ?? 5_000)) this.cache.clear();
      missing.forEach((t, i) => {
        found.set(t, vectors[i]!);
        this.cache.set(key(t), vectors[i]!);
      });
    }
    return texts.map((t) => found.get(t)!);
  }
}
