/** Turns texts into vectors whose cosine says how related they are. */
export interface Embedder {
  /** Names the vector space: vectors of different ids are never compared (the cache key). */
  readonly id: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const DIMENSIONS = 512;

/**
 * An offline embedding: words and word pairs hashed into 512 buckets, L2-normalised. Texts that
 * share words (and word order) score high; it knows no synonyms, but it needs no network.
 * camelCase and snake_case identifiers are split into their words as well.
 */
export class LexicalEmbedder implements Embedder {
  readonly id = `lexical-${DIMENSIONS}`;

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map(lexicalVector);
  }
}

export function lexicalVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const words = tokens(text);
  for (const w of words) vector[hash(w) % DIMENSIONS]! += 1;
  for (let i = 1; i < words.length; i++) vector[hash(`${words[i - 1]} ${words[i]}`) % DIMENSIONS]! += 0.5;
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0));
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/** Words that say nothing about a lesson's topic. */
const STOP_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'to', 'of', 'in', 'on', 'for', 'is', 'it', 'be', 'with', 'this', 'that', 'as', 'at', 'by', 'if', 'when', 'before', 'after', 'use', 'do', 'not']);

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
