import type { OpenAI } from 'openai';
import { openAiSdk } from '../../lazy-libraries';
import type { Embedder } from './embedding';

export interface OpenAiEmbedderOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
}

/** Embeddings from an OpenAI (or OpenAI-compatible) endpoint through the official SDK. */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.id = `openai:${options.baseUrl ?? 'default'}:${options.model}`;
    // One retry and a short timeout: the playbook falls back to lexical embeddings rather than wait.
    this.client = new (openAiSdk().OpenAI)({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 1, timeout: 20_000 });
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    // `float` rather than the SDK's base64 default: compatible servers do not all speak base64.
    const response = await this.client.embeddings.create({ model: this.options.model, input: [...texts], encoding_format: 'float' }, { signal });
    const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    if (vectors.length !== texts.length) throw new Error(`the embeddings endpoint returned ${vectors.length} vectors for ${texts.length} texts`);
    return vectors;
  }
}
