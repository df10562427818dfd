// The models an OpenAI-compatible server serves, from its `GET /v1/models`, asked through the
// official `openai` client over the SDKs' fetch (the same request path as a model call, the user's
// key if there is one). Where the server is Ollama, each model's context window and tool support are
// asked of its own API as well (ollama-api.ts), a few at a time.
import { openAiSdk } from '../../lazy-libraries';
import { toProviderError } from '../provider-error';
import { sdkFetch } from '../sdk-fetch';
import { isOllama, ollamaModelFacts, ollamaRoot, type OllamaModelFacts } from './ollama-api';

export interface ServerModel {
  id: string;
  /** What the server's own API said about it (Ollama); absent when nothing was said. */
  facts?: OllamaModelFacts;
}

export interface ServerModelList {
  /** Ollama (its own API answered), or any other OpenAI-compatible server. */
  server: 'ollama' | 'openai-compatible';
  models: ServerModel[];
}

export interface ServerEndpoint {
  baseUrl: string;
  apiKey?: string;
}

/** Local servers (Ollama, LM Studio, vLLM) accept any key; the SDK insists on one. */
const KEYLESS_PLACEHOLDER = 'not-needed';
/** Ollama answers /api/show from disk; a handful at once keeps a long list quick without flooding it. */
const SHOW_CONCURRENCY = 4;

/**
 * Lists the server's models (sorted by id) and, on Ollama, what it says about each. Throws a
 * ProviderError the user can act on (unreachable, the key refused, …) when `/v1/models` fails.
 */
export async function listServerModels(endpoint: ServerEndpoint, signal: AbortSignal): Promise<ServerModelList> {
  const sdk = openAiSdk();
  const client = new sdk.OpenAI({ apiKey: endpoint.apiKey || KEYLESS_PLACEHOLDER, baseURL: endpoint.baseUrl, maxRetries: 0, fetch: sdkFetch });
  const ollama = isOllama(ollamaRoot(endpoint.baseUrl), signal, authHeader(endpoint));
  let ids: string[];
  try {
    const page = await client.models.list({ signal });
    ids = [...new Set(page.data.map((m) => m.id).filter((id): id is string => typeof id === 'string' && id.length > 0))].sort((a, b) => a.localeCompare(b));
  } catch (err) {
    void ollama.catch(() => undefined);
    throw toProviderError(err, { abort: sdk.APIUserAbortError, connection: sdk.APIConnectionError }, 'the model server', endpoint.baseUrl);
  }
  if (!(await ollama)) return { server: 'openai-compatible', models: ids.map((id) => ({ id })) };
  const facts = await mapLimited(ids, SHOW_CONCURRENCY, (id) => ollamaModelFacts(ollamaRoot(endpoint.baseUrl), id, signal, authHeader(endpoint)));
  return { server: 'ollama', models: ids.map((id, i) => (facts[i] ? { id, facts: facts[i] } : { id })) };
}

/**
 * What the server says about one model (Ollama only): undefined when it is not Ollama or does not
 * answer. For the agent's first turn, when the model was never listed in this session.
 */
export async function describeServerModel(endpoint: ServerEndpoint, model: string, signal: AbortSignal): Promise<{ server: ServerModelList['server']; facts?: OllamaModelFacts }> {
  const root = ollamaRoot(endpoint.baseUrl);
  if (!(await isOllama(root, signal, authHeader(endpoint)))) return { server: 'openai-compatible' };
  const facts = await ollamaModelFacts(root, model, signal, authHeader(endpoint));
  return facts ? { server: 'ollama', facts } : { server: 'ollama' };
}

/** The key the user gave for this server goes to the same server's own API (never elsewhere). */
function authHeader(endpoint: ServerEndpoint): Record<string, string> {
  return endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};
}

async function mapLimited<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
