import type { ModelsDevModel } from './models-dev';

/** What the agent needs to know about a model (§2.5.4): limits, modalities, features, prices. */
export interface ModelCapabilities {
  contextWindow: number;
  maxOutputTokens: number;
  vision: boolean;
  reasoning: boolean;
  toolCalls: boolean;
  /** USD per million tokens; absent when unknown. */
  pricing?: { inputPerMTok: number; outputPerMTok: number; cacheReadPerMTok?: number };
  /** False when no catalogue knows the model: the numbers above are conservative defaults. */
  known: boolean;
  /** The model's server said some of the above itself (Ollama's context window, tools, vision): that wins over any catalogue. */
  fromServer?: boolean;
}

/** What a model's own server says about it (Ollama's /api/show); a field it did not say is absent. */
export type ServerModelFacts = Partial<Pick<ModelCapabilities, 'contextWindow' | 'toolCalls' | 'vision'>>;

/** The capabilities with what the server said laid over them. */
export function withServerFacts(c: ModelCapabilities, facts: ServerModelFacts): ModelCapabilities {
  const out: ModelCapabilities = { ...c, ...(c.pricing ? { pricing: { ...c.pricing } } : {}) };
  if (facts.contextWindow !== undefined) out.contextWindow = facts.contextWindow;
  if (facts.toolCalls !== undefined) out.toolCalls = facts.toolCalls;
  if (facts.vision !== undefined) out.vision = facts.vision;
  if (Object.keys(facts).length > 0) out.fromServer = true;
  return out;
}

/** For a model no catalogue knows: a context most current models exceed, tools assumed (the agent needs them). */
export const UNKNOWN_MODEL_CAPABILITIES: Readonly<ModelCapabilities> = Object.freeze({
  contextWindow: 128_000,
  maxOutputTokens: 8192,
  vision: false,
  reasoning: false,
  toolCalls: true,
  known: false,
});

export function unknownModelCapabilities(): ModelCapabilities {
  return { ...UNKNOWN_MODEL_CAPABILITIES };
}

/** A models.dev entry in our terms; missing limits fall back to the unknown-model defaults. */
export function toCapabilities(model: ModelsDevModel): ModelCapabilities {
  const context = model.limit?.context;
  const output = model.limit?.output;
  const input = model.modalities?.input;
  const cost = model.cost;
  const capabilities: ModelCapabilities = {
    contextWindow: context && context > 0 ? context : UNKNOWN_MODEL_CAPABILITIES.contextWindow,
    maxOutputTokens: output && output > 0 ? output : UNKNOWN_MODEL_CAPABILITIES.maxOutputTokens,
    vision: input ? input.includes('image') : model.attachment === true,
    reasoning: model.reasoning === true,
    toolCalls: model.tool_call ?? true,
    known: true,
  };
  if (cost && cost.input !== undefined && cost.output !== undefined) {
    capabilities.pricing = { inputPerMTok: cost.input, outputPerMTok: cost.output };
    if (cost.cache_read !== undefined) capabilities.pricing.cacheReadPerMTok = cost.cache_read;
  }
  return capabilities;
}
