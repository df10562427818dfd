// What a model call used, as the providers report it.

export interface TokenUsage {
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
}
