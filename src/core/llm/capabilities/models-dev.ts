// The models.dev catalogue format (https://models.dev/api.json): providers → models, prices in USD per
// million tokens. Parsed leniently: a malformed provider or model is skipped, never fatal.
import * as z from 'zod';

export const MODELS_DEV_URL = 'https://models.dev/api.json';

const num = z.number().nonnegative();

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
export const ModelsDevModelSchema = z.lazy(() => z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  reasoning: z.boolean().optional(),
  tool_call: z.boolean().optional(),
  attachment: z.boolean().optional(),
  modalities: z.object({ input: z.array(z.string()).optional(), output: z.array(z.string()).optional() }).optional(),
  limit: z.object({ context: num.optional(), output: num.optional() }).optional(),
  cost: z
    .object({ input: num.optional(), output: num.optional(), cache_read: num.optional(), cache_write: num.optional() })
    .optional(),
}));
export type ModelsDevModel = z.infer<typeof ModelsDevModelSchema>;

export interface ModelsDevProvider {
  id: string;
  name?: string;
  models: Record<string, ModelsDevModel>;
}
export type ModelsDevCatalogue = Record<string, ModelsDevProvider>;

const ProviderShape = z.object({ id: z.string().optional(), name: z.string().optional(), models: z.record(z.string(), z.unknown()) });

/** One provider object; undefined when it is not one. Models that do not parse are left out. */
export function parseProvider(key: string, raw: unknown): ModelsDevProvider | undefined {
  const shape = ProviderShape.safeParse(raw);
  if (!shape.success) return undefined;
  const models: Record<string, ModelsDevModel> = {};
  for (const [modelKey, value] of Object.entries(shape.data.models)) {
    const withId = value && typeof value === 'object' && !('id' in value) ? { ...value, id: modelKey } : value;
    const model = ModelsDevModelSchema.safeParse(withId);
    if (model.success) models[modelKey] = model.data;
  }
  return { id: shape.data.id ?? key, name: shape.data.name, models };
}

/** A whole api.json. Also returns each valid provider's raw object, which is what the cache stores. */
export function parseCatalogue(raw: unknown): { catalogue: ModelsDevCatalogue; rawProviders: Record<string, unknown> } {
  const catalogue: ModelsDevCatalogue = {};
  const rawProviders: Record<string, unknown> = {};
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) {
      const provider = parseProvider(key, value);
      if (!provider) continue;
      catalogue[key] = provider;
      rawProviders[key] = value;
    }
  }
  return { catalogue, rawProviders };
}

/** Providers whose own ids are searched first when a model id is looked up across providers. */
const FIRST_PARTY = ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'xai', 'alibaba', 'moonshotai', 'zai'];

/** Ids to try for a model, most specific first: as given, lowercased, without a vendor prefix or date suffix. */
export function modelIdCandidates(model: string): string[] {
  const out: string[] = [];
  const add = (id: string): void => {
    if (id && !out.includes(id)) out.push(id);
  };
  const trimmed = model.trim();
  for (const id of [trimmed, trimmed.toLowerCase()]) {
    add(id);
    const bare = id.includes('/') ? id.slice(id.lastIndexOf('/') + 1) : id;
    add(bare);
    add(bare.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, ''));
  }
  return out;
}

/**
 * Finds a model: in `preferred` (the models.dev id of the configured provider) first, then across every
 * provider, first-party ones before the rest.
 */
export function findModel(catalogue: ModelsDevCatalogue, model: string, preferred?: string): ModelsDevModel | undefined {
  const candidates = modelIdCandidates(model);
  if (preferred) {
    const own = catalogue[preferred]?.models;
    for (const id of candidates) if (own?.[id]) return own[id];
  }
  const order = [...FIRST_PARTY.filter((p) => p in catalogue), ...Object.keys(catalogue).filter((p) => !FIRST_PARTY.includes(p))];
  for (const id of candidates) {
    for (const p of order) {
      const hit = catalogue[p]?.models[id];
      if (hit) return hit;
    }
  }
  return undefined;
}
