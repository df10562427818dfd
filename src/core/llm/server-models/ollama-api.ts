// Ollama's own API, beside its OpenAI-compatible one: the OpenAI `/v1/models` answer names the
// models but says nothing of their context windows or whether they can call tools, which
// `POST /api/show` does (`model_info["<arch>.context_length"]`, the Modelfile's `num_ctx`, and
// `capabilities`). Requests go through the same fetch as the SDKs (sdk-fetch.ts); every answer is
// checked with zod, and anything unexpected means "not Ollama" or "nothing known", never a failure.
import * as z from 'zod';
import { sdkFetch } from '../sdk-fetch';

/** What Ollama says about one model; a field it did not say is left out. */
export interface OllamaModelFacts {
  /** The context the server runs the model with: the Modelfile's num_ctx, else the model's own maximum. */
  contextWindow?: number;
  /** From `capabilities`: "tools" present or not (absent when the server lists no capabilities: an older Ollama). */
  toolCalls?: boolean;
  vision?: boolean;
}

// Built on first parse (z.lazy): activation, which loads this file, does not pay for them.
const VersionSchema = z.lazy(() => z.object({ version: z.string().min(1) }));

const ShowSchema = z.lazy(() =>
  z.object({
    model_info: z.record(z.string(), z.unknown()).optional(),
    parameters: z.string().optional(),
    capabilities: z.array(z.string()).optional(),
  }),
);

/**
 * The server's root for its own API: an OpenAI-compatible base URL without its `/v1`
 * (http://127.0.0.1:11434/v1 → http://127.0.0.1:11434).
 */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** True when `GET /api/version` answers as Ollama does. */
export async function isOllama(root: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<boolean> {
  try {
    const res = await sdkFetch(`${root}/api/version`, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal });
    if (!res.ok) {
      await res.body?.cancel();
      return false;
    }
    return VersionSchema.safeParse(await res.json()).success;
  } catch {
    return false;
  }
}

/** `POST /api/show` for one model; undefined when the server does not answer it. */
export async function ollamaModelFacts(root: string, model: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<OllamaModelFacts | undefined> {
  try {
    const res = await sdkFetch(`${root}/api/show`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ model }),
      signal,
    });
    if (!res.ok) {
      await res.body?.cancel();
      return undefined;
    }
    const show = ShowSchema.safeParse(await res.json());
    return show.success ? factsOf(show.data) : undefined;
  } catch {
    return undefined;
  }
}

/** The facts in an /api/show answer. */
export function factsOf(show: z.infer<typeof ShowSchema>): OllamaModelFacts {
  const facts: OllamaModelFacts = {};
  const contextWindow = numCtx(show.parameters) ?? contextLength(show.model_info);
  if (contextWindow) facts.contextWindow = contextWindow;
  if (show.capabilities) {
    facts.toolCalls = show.capabilities.includes('tools');
    facts.vision = show.capabilities.includes('vision');
  }
  return facts;
}

/** `num_ctx 8192` in the Modelfile's parameters: what the server really allocates, which may be less than the model's maximum. */
function numCtx(parameters: string | undefined): number | undefined {
  const m = parameters && /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  return m ? positive(Number(m[1])) : undefined;
}

/** `<arch>.context_length`, the architecture named by `general.architecture` (else any key ending so). */
function contextLength(info: Record<string, unknown> | undefined): number | undefined {
  if (!info) return undefined;
  const arch = info['general.architecture'];
  const own = typeof arch === 'string' ? info[`${arch}.context_length`] : undefined;
  const value = own ?? Object.entries(info).find(([key]) => key.endsWith('.context_length'))?.[1];
  return typeof value === 'number' ? positive(value) : undefined;
}

function positive(n: number): number | undefined {
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
