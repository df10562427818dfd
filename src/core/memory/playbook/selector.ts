import type { Bullet } from './bullet';
import { cosine, type Embedder } from './embedding';

/** Paper weights: effectiveness 0.5, recency 0.3, similarity to the query 0.2. */
export const SELECTOR_WEIGHTS = { effectiveness: 0.5, recency: 0.3, similarity: 0.2 } as const;

/**
 * Recency halves every 14 days since a bullet was last added, edited or tagged: a lesson confirmed
 * this week outranks one nobody has needed for a month, and an untouched one fades but never drops
 * to zero on this term alone.
 */
export const RECENCY_HALF_LIFE_DAYS = 14;

export interface SelectorOptions {
  /** Most bullets in the prompt. */
  k: number;
  /**
   * Lowest score that makes the prompt. 0.35 keeps a new, untested bullet (0.25 + fresh recency)
   * and drops one that has mostly been harmful, or is old and unrelated to the query.
   */
  floor: number;
  now: Date;
}

export const DEFAULT_SELECTOR: Omit<SelectorOptions, 'now'> = { k: 8, floor: 0.35 };

export interface ScoredBullet {
  bullet: Bullet;
  score: number;
  effectiveness: number;
  recency: number;
  similarity: number;
}

/** (helpful − harmful) / (total + 1), in (−1, 1), mapped to (0, 1): an untested bullet is 0.5. */
export function effectiveness(b: Pick<Bullet, 'helpful' | 'harmful' | 'neutral'>): number {
  const total = b.helpful + b.harmful + b.neutral;
  return ((b.helpful - b.harmful) / (total + 1) + 1) / 2;
}

/** exp(−ln 2 · age / half-life), 1 for a bullet touched now. */
export function recency(b: Pick<Bullet, 'updatedAt'>, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - Date.parse(b.updatedAt)) / 86_400_000;
  return Math.exp((-Math.LN2 * ageDays) / RECENCY_HALF_LIFE_DAYS);
}

export function scoreBullet(bullet: Bullet, similarity: number, now: Date): ScoredBullet {
  const e = effectiveness(bullet);
  const r = recency(bullet, now);
  const s = Math.max(0, Math.min(1, similarity));
  return {
    bullet,
    effectiveness: e,
    recency: r,
    similarity: s,
    score: SELECTOR_WEIGHTS.effectiveness * e + SELECTOR_WEIGHTS.recency * r + SELECTOR_WEIGHTS.similarity * s,
  };
}

/** The best `k` bullets for the query at or above the floor, best first. */
export async function selectBullets(
  bullets: readonly Bullet[],
  query: string,
  embedder: Embedder,
  options: SelectorOptions,
  signal?: AbortSignal,
): Promise<ScoredBullet[]> {
  if (bullets.length === 0) return [];
  const vectors = await embedder.embed([query, ...bullets.map((b) => b.content)], signal);
  const [queryVector, ...bulletVectors] = vectors;
  return bullets
    .map((b, i) => scoreBullet(b, query.trim() && queryVector ? cosine(queryVector, bulletVectors[i]!) : 0, options.now))
    .filter((s) => s.score >= options.floor)
    .sort((a, b) => b.score - a.score)
    .slice(0, options.k);
}
