// What a model call used, as the providers report it.

export interface TokenUsage {
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** The part of `outputTokens` the model spent reasoning, where the API reports it (OpenAI Responses). */
  reasoningTokens?: number;
}
