// A small built-in catalogue in the models.dev format, so a first start without network (or with
// OPENDEV_DISABLE_REMOTE_MODELS) still knows the context windows and prices of common models.
// Prices: USD per million tokens. Refreshed by hand from https://models.dev/api.json.
//
// Kept as a TypeScript module rather than a .json file: the per-file test build (out/) does not copy
// JSON, so a JSON import would only resolve inside the bundles.
import type { ModelsDevCatalogue } from './models-dev';

const textImage = { input: ['text', 'image'], output: ['text'] };

function model(
  id: string,
  name: string,
  f: { reasoning: boolean; context: number; output: number; input: number; outputCost: number; cacheRead: number; cacheWrite?: number },
) {
  return {
    id,
    name,
    attachment: true,
    reasoning: f.reasoning,
    tool_call: true,
    modalities: textImage,
    limit: { context: f.context, output: f.output },
    cost: { input: f.input, output: f.outputCost, cache_read: f.cacheRead, ...(f.cacheWrite !== undefined ? { cache_write: f.cacheWrite } : {}) },
  };
}

function byId<T extends { id: string }>(...models: T[]): Record<string, T> {
  return Object.fromEntries(models.map((m) => [m.id, m]));
}

const sonnet45 = { reasoning: true, context: 200_000, output: 64_000, input: 3, outputCost: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const opus45 = { reasoning: true, context: 200_000, output: 64_000, input: 5, outputCost: 25, cacheRead: 0.5, cacheWrite: 6.25 };
const opus41 = { reasoning: true, context: 200_000, output: 32_000, input: 15, outputCost: 75, cacheRead: 1.5, cacheWrite: 18.75 };
const haiku45 = { reasoning: true, context: 200_000, output: 64_000, input: 1, outputCost: 5, cacheRead: 0.1, cacheWrite: 1.25 };
const sonnet4 = { reasoning: true, context: 200_000, output: 64_000, input: 3, outputCost: 15, cacheRead: 0.3, cacheWrite: 3.75 };

export const BUILTIN_MODELS: ModelsDevCatalogue = {
  openai: {
    id: 'openai',
    name: 'OpenAI',
    models: byId(
      model('gpt-5', 'GPT-5', { reasoning: true, context: 400_000, output: 128_000, input: 1.25, outputCost: 10, cacheRead: 0.125 }),
      model('gpt-5-mini', 'GPT-5 Mini', { reasoning: true, context: 400_000, output: 128_000, input: 0.25, outputCost: 2, cacheRead: 0.025 }),
      model('gpt-5-nano', 'GPT-5 Nano', { reasoning: true, context: 400_000, output: 128_000, input: 0.05, outputCost: 0.4, cacheRead: 0.005 }),
      model('gpt-4.1', 'GPT-4.1', { reasoning: false, context: 1_047_576, output: 32_768, input: 2, outputCost: 8, cacheRead: 0.5 }),
      model('gpt-4.1-mini', 'GPT-4.1 mini', { reasoning: false, context: 1_047_576, output: 32_768, input: 0.4, outputCost: 1.6, cacheRead: 0.1 }),
      model('gpt-4.1-nano', 'GPT-4.1 nano', { reasoning: false, context: 1_047_576, output: 32_768, input: 0.1, outputCost: 0.4, cacheRead: 0.025 }),
      model('gpt-4o', 'GPT-4o', { reasoning: false, context: 128_000, output: 16_384, input: 2.5, outputCost: 10, cacheRead: 1.25 }),
      model('gpt-4o-mini', 'GPT-4o mini', { reasoning: false, context: 128_000, output: 16_384, input: 0.15, outputCost: 0.6, cacheRead: 0.075 }),
      model('o3', 'o3', { reasoning: true, context: 200_000, output: 100_000, input: 2, outputCost: 8, cacheRead: 0.5 }),
      model('o4-mini', 'o4-mini', { reasoning: true, context: 200_000, output: 100_000, input: 1.1, outputCost: 4.4, cacheRead: 0.275 }),
    ),
  },
  anthropic: {
    id: 'anthropic',
    name: 'Anthropic',
    models: byId(
      model('claude-opus-4-5', 'Claude Opus 4.5 (latest)', opus45),
      model('claude-opus-4-5-20251101', 'Claude Opus 4.5', opus45),
      model('claude-sonnet-4-5', 'Claude Sonnet 4.5 (latest)', sonnet45),
      model('claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', sonnet45),
      model('claude-haiku-4-5', 'Claude Haiku 4.5 (latest)', haiku45),
      model('claude-haiku-4-5-20251001', 'Claude Haiku 4.5', haiku45),
      model('claude-opus-4-1', 'Claude Opus 4.1 (latest)', opus41),
      model('claude-opus-4-1-20250805', 'Claude Opus 4.1', opus41),
      model('claude-sonnet-4-0', 'Claude Sonnet 4 (latest)', sonnet4),
      model('claude-sonnet-4-20250514', 'Claude Sonnet 4', sonnet4),
    ),
  },
};
