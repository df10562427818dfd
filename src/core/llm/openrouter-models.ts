// OpenRouter's model list (GET <base>/models, public: no key is sent), for Select Model: each model
// with its context window, whether it calls tools, and its price, as the capability catalogue has them.
import * as z from 'zod';
import type { CatalogModel } from './capabilities/catalog';
import { UNKNOWN_MODEL_CAPABILITIES } from './capabilities/model-capabilities';
import { sdkFetch } from './sdk-fetch';

/** Prices come as USD per token, in strings ("0.000003"). */
const Price = z.union([z.string(), z.number()]).transform(Number).pipe(z.number().finite().nonnegative());

const OpenRouterModel = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  context_length: z.number().int().positive().nullish(),
  pricing: z.object({ prompt: Price, completion: Price, input_cache_read: Price.optional() }).partial().nullish(),
  top_provider: z.object({ max_completion_tokens: z.number().int().positive().nullish() }).partial().nullish(),
  architecture: z.object({ input_modalities: z.array(z.string()).optional(), output_modalities: z.array(z.string()).optional() }).partial().nullish(),
  supported_parameters: z.array(z.string()).optional(),
});
const OpenRouterModels = z.object({ data: z.array(z.unknown()) });

/** The models that can drive the agent (tool calls, text out); those whose entry cannot be read are skipped. */
export async function listOpenRouterModels(baseUrl: string, signal?: AbortSignal): Promise<CatalogModel[]> {
  const response = await sdkFetch(`${baseUrl.replace(/\/+$/, '')}/models`, { method: 'GET', headers: { accept: 'application/json' }, signal: signal ?? null });
  if (!response.ok) throw new Error(`OpenRouter answered ${response.status} for its model list`);
  const body = OpenRouterModels.parse(await response.json());
  return body.data.flatMap((raw) => {
    const parsed = OpenRouterModel.safeParse(raw);
    if (!parsed.success) return [];
    const m = parsed.data;
    const tools = m.supported_parameters ? m.supported_parameters.includes('tools') : true;
    const textOut = m.architecture?.output_modalities?.includes('text') ?? true;
    if (!tools || !textOut) return [];
    const perMillion = (perToken: number | undefined) => (perToken === undefined ? undefined : Math.round(perToken * 1_000_000 * 1e6) / 1e6);
    const input = perMillion(m.pricing?.prompt);
    const output = perMillion(m.pricing?.completion);
    const cacheRead = perMillion(m.pricing?.input_cache_read);
    return [
      {
        id: m.id,
        name: m.name ?? m.id,
        capabilities: {
          contextWindow: m.context_length ?? UNKNOWN_MODEL_CAPABILITIES.contextWindow,
          maxOutputTokens: m.top_provider?.max_completion_tokens ?? UNKNOWN_MODEL_CAPABILITIES.maxOutputTokens,
          vision: m.architecture?.input_modalities?.includes('image') ?? false,
          reasoning: m.supported_parameters?.includes('reasoning') ?? false,
          toolCalls: true,
          ...(input !== undefined && output !== undefined ? { pricing: { inputPerMTok: input, outputPerMTok: output, ...(cacheRead !== undefined ? { cacheReadPerMTok: cacheRead } : {}) } } : {}),
          known: true,
        },
      },
    ];
  });
}
