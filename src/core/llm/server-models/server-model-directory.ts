// The session's memory of OpenAI-compatible servers' model lists: one listing per base URL, asked
// once and kept until the user refreshes it (Select Model's refresh entry, `opendev models`), so
// opening the picker again is instant. What a server says about a model (Ollama's context window and
// tool support) is taught to the capability catalogue, which every other reader (the agent's
// compaction, the status bar) already asks.
import type { CapabilityCatalog } from '../capabilities/catalog';
import type { ModelCapabilities } from '../capabilities/model-capabilities';
import { ProviderError } from '../provider-error';
import { describeServerModel, listServerModels, type ServerEndpoint, type ServerModelList } from './server-model-list';

/** One listed model with what is known of it (the server's facts over the catalogue's). */
export interface ListedModel {
  id: string;
  capabilities: ModelCapabilities;
}

export type ServerListing =
  | { ok: true; baseUrl: string; server: ServerModelList['server']; models: ListedModel[]; at: Date }
  | { ok: false; baseUrl: string; error: ProviderError };

export interface ServerModelDirectoryOptions {
  /** One generous limit for a whole listing (default 15 s: a remote server with many models). */
  listTimeoutMs?: number;
  /** For the agent's build, which waits on it (default 3 s: a slow server must not hold the first turn). */
  describeTimeoutMs?: number;
}

export class ServerModelDirectory {
  private readonly listings = new Map<string, Promise<ServerListing>>();

  constructor(
    private readonly catalog: CapabilityCatalog,
    private readonly options: ServerModelDirectoryOptions = {},
  ) {}

  /**
   * The server's models: the session's listing of this base URL, or a new one (`refresh`, or none
   * yet). A failed listing is not kept: the next call asks again.
   */
  list(endpoint: ServerEndpoint, options: { refresh?: boolean } = {}): Promise<ServerListing> {
    const key = normalized(endpoint.baseUrl);
    const kept = this.listings.get(key);
    if (kept && !options.refresh) return kept;
    const listing = this.fetchListing({ ...endpoint, baseUrl: key });
    this.listings.set(key, listing);
    void listing.then((l) => {
      if (!l.ok && this.listings.get(key) === listing) this.listings.delete(key);
    });
    return listing;
  }

  /**
   * Before the agent's first turn: asks the server about `model` unless it was asked this session,
   * so its context window and tool support are known. Never throws; a server that does not answer
   * in time leaves the catalogue as it was.
   */
  async describe(endpoint: ServerEndpoint, model: string): Promise<void> {
    const baseUrl = normalized(endpoint.baseUrl);
    if (this.catalog.learned(baseUrl, model)) return;
    try {
      const described = await describeServerModel({ ...endpoint, baseUrl }, model, AbortSignal.timeout(this.options.describeTimeoutMs ?? 3000));
      // Learnt even when nothing was said (not Ollama): the next build of this session does not ask again.
      this.catalog.learn(baseUrl, model, described.facts ?? {});
    } catch {
      // Not answering is not an error here: the catalogue's (or the default) capabilities stand.
    }
  }

  private async fetchListing(endpoint: ServerEndpoint): Promise<ServerListing> {
    const limitMs = this.options.listTimeoutMs ?? 15_000;
    try {
      const list = await listServerModels(endpoint, AbortSignal.timeout(limitMs));
      for (const m of list.models) if (m.facts) this.catalog.learn(endpoint.baseUrl, m.id, m.facts);
      const models = list.models.map((m) => ({ id: m.id, capabilities: this.catalog.get('openai-compatible', m.id, endpoint.baseUrl) }));
      return { ok: true, baseUrl: endpoint.baseUrl, server: list.server, models, at: new Date() };
    } catch (err) {
      // Our own time limit ends the request as an abort: to the user, the server did not answer.
      const error =
        err instanceof ProviderError && err.kind !== 'aborted'
          ? err
          : new ProviderError('unreachable', `The model server at ${endpoint.baseUrl} did not answer within ${Math.round(limitMs / 1000)} s.`);
      return { ok: false, baseUrl: endpoint.baseUrl, error };
    }
  }
}

/** http://host/v1/ and http://host/v1 are one server. */
function normalized(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}
