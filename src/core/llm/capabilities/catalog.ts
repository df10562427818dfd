// The capability catalogue (§2.5.4): what each model can do and costs, from models.dev data.
//
// Sources, first match wins for a lookup: the loaded catalogue (OPENDEV_MODELS_DEV_PATH, else the
// per-provider cache under OPENDEV_HOME/cache/providers), then the built-in catalogue, then a
// conservative default flagged `known: false`. `load()` never waits for the network: a stale or
// missing cache is served at once and refreshed from models.dev in the background (24 h TTL);
// a failed refresh is silent and keeps what was there.
import { readFile } from 'node:fs/promises';
import type { ProviderKind } from '../../config/provider-settings';
import { opendevPaths, resolveOpendevHome } from '../../config/opendev-home';
import { BUILTIN_MODELS } from './builtin-models';
import { toCapabilities, unknownModelCapabilities, withServerFacts, type ModelCapabilities, type ServerModelFacts } from './model-capabilities';
import { findModel, MODELS_DEV_URL, parseCatalogue, type ModelsDevCatalogue } from './models-dev';
import { ProviderCache } from './provider-cache';

export const MODELS_DEV_PATH_ENV = 'OPENDEV_MODELS_DEV_PATH';
export const DISABLE_REMOTE_MODELS_ENV = 'OPENDEV_DISABLE_REMOTE_MODELS';
export const CAPABILITY_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

export type FetchFunction = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

export interface CapabilityCatalogOptions {
  /** Where OPENDEV_HOME, OPENDEV_MODELS_DEV_PATH and OPENDEV_DISABLE_REMOTE_MODELS are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** The OpenDev home; default resolved from `env`. */
  home?: string;
  /** Default: the global fetch. */
  fetch?: FetchFunction;
  /** Default: https://models.dev/api.json */
  url?: string;
  timeoutMs?: number;
  ttlMs?: number;
  now?: () => number;
  /** When the background refresh of a stale cache starts: `start` is handed over (a session holds it until its first model request has left); default at once. */
  holdRefresh?(start: () => void): void;
}

/** Where the loaded data came from: the OPENDEV_MODELS_DEV_PATH file, the cache (or a fresh download), or only the built-in catalogue. */
export type CatalogSource = 'file' | 'cache' | 'builtin';

/** A model a picker can offer: its id, display name and what it can do. */
export interface CatalogModel {
  id: string;
  name: string;
  capabilities: ModelCapabilities;
}

/** Provider kinds → models.dev provider ids. OpenAI-compatible servers host anything: searched across providers. */
const MODELS_DEV_PROVIDER: Record<ProviderKind, string | undefined> = {
  openai: 'openai',
  anthropic: 'anthropic',
  'openai-compatible': undefined,
  // Azure deployments are named by the user; the model behind one is usually OpenAI's, found by name.
  'azure-openai': 'azure',
  bedrock: 'amazon-bedrock',
  vertex: 'google-vertex-anthropic',
  gemini: 'google',
  openrouter: 'openrouter',
  // VS Code's language models report their own context window (the vscode-lm provider reads it).
  'vscode-lm': undefined,
};

export class CapabilityCatalog {
  private loaded: ModelsDevCatalogue | undefined;
  private loadedFrom: CatalogSource = 'builtin';
  private synced: number | undefined;
  private readonly memo = new Map<string, ModelCapabilities>();
  /** What OpenAI-compatible servers said about their models this session, by base URL and model. */
  private readonly serverFacts = new Map<string, ServerModelFacts>();
  private loading: Promise<void> | undefined;
  private refreshing: Promise<boolean> | undefined;
  private readonly closed = new AbortController();
  private readonly env: NodeJS.ProcessEnv;
  private readonly cache: ProviderCache;
  /** Problems worth a line in a log (an unreadable OPENDEV_MODELS_DEV_PATH, the last failed refresh). */
  readonly warnings: string[] = [];

  constructor(private readonly options: CapabilityCatalogOptions = {}) {
    this.env = options.env ?? process.env;
    const home = options.home ?? resolveOpendevHome(this.env);
    this.cache = new ProviderCache(opendevPaths(home).providerCacheDir);
  }

  get source(): CatalogSource {
    return this.loadedFrom;
  }

  /** When the cache was last synced with models.dev (undefined: never, or not from the cache). */
  get lastSync(): Date | undefined {
    return this.synced === undefined ? undefined : new Date(this.synced);
  }

  get cacheDir(): string {
    return this.cache.dir;
  }

  /**
   * What `model` can do, from memory (before `load()` only the built-in catalogue is known).
   * `baseUrl`: for OpenAI-compatible servers on this machine or the local network, prices are dropped
   * (a local model costs nothing, whatever a cloud host charges for it).
   */
  get(provider: ProviderKind, model: string, baseUrl?: string): ModelCapabilities {
    const local = provider === 'openai-compatible' && isLocalUrl(baseUrl);
    // A compatible server's own facts differ by server: its address is part of the key.
    const key = `${provider}\u0000${model}\u0000${local}\u0000${provider === 'openai-compatible' ? (baseUrl ?? '') : ''}`;
    const memo = this.memo.get(key);
    if (memo) return copy(memo);
    const preferred = MODELS_DEV_PROVIDER[provider];
    const hit = (this.loaded && findModel(this.loaded, model, preferred)) ?? findModel(BUILTIN_MODELS, model, preferred);
    const found = hit ? toCapabilities(hit) : unknownModelCapabilities();
    const facts = provider === 'openai-compatible' && baseUrl ? this.serverFacts.get(serverKey(baseUrl, model)) : undefined;
    const capabilities = facts ? withServerFacts(found, facts) : found;
    if (local) delete capabilities.pricing;
    this.memo.set(key, capabilities);
    return copy(capabilities);
  }

  /**
   * What an OpenAI-compatible server at `baseUrl` said about `model` (its context window, whether it
   * calls tools): from now on `get` lays it over the catalogue's answer for that server and model.
   */
  learn(baseUrl: string, model: string, facts: ServerModelFacts): void {
    this.serverFacts.set(serverKey(baseUrl, model), { ...facts });
    this.memo.clear();
  }

  /** True once the server at `baseUrl` was asked about `model` this session (whatever it said). */
  learned(baseUrl: string, model: string): boolean {
    return this.serverFacts.has(serverKey(baseUrl, model));
  }

  /**
   * The models `provider` serves that can drive the agent (tool calls, text out), in catalogue order,
   * for pickers. A dated id is left out when its alias is listed. OpenAI-compatible servers host
   * anything, so there is no list for them (empty).
   */
  list(provider: ProviderKind): CatalogModel[] {
    const id = MODELS_DEV_PROVIDER[provider];
    if (!id) return [];
    const models = this.loaded?.[id]?.models ?? BUILTIN_MODELS[id]?.models ?? {};
    const usable = Object.values(models).filter((m) => m.tool_call !== false && (m.modalities?.output?.includes('text') ?? true));
    const ids = new Set(usable.map((m) => m.id));
    return usable
      .filter((m) => !/-\d{8}$/.test(m.id) || !ids.has(m.id.replace(/-\d{8}$/, '')))
      .map((m) => ({ id: m.id, name: m.name ?? m.id, capabilities: toCapabilities(m) }));
  }

  /** Loads the local data (idempotent) and, when the cache is stale or missing, starts a background refresh. */
  load(): Promise<void> {
    this.loading ??= this.doLoad();
    return this.loading;
  }

  private async doLoad(): Promise<void> {
    const file = this.env[MODELS_DEV_PATH_ENV]?.trim();
    if (file) {
      await this.loadFile(file);
      return; // an explicit catalogue file: never the cache, never the network
    }
    const cached = await this.cache.read();
    if (cached) this.use(cached.catalogue, 'cache', cached.lastSync);
    const now = this.now();
    const fresh = cached?.lastSync !== undefined && now - cached.lastSync < (this.options.ttlMs ?? CAPABILITY_CACHE_TTL_MS) && cached.lastSync <= now;
    if (fresh || !this.remoteAllowed()) return;
    const start = () => {
      if (!this.closed.signal.aborted) void this.refresh();
    };
    if (this.options.holdRefresh) this.options.holdRefresh(start);
    else start();
  }

  private async loadFile(path: string): Promise<void> {
    try {
      const { catalogue } = parseCatalogue(JSON.parse(await readFile(path, 'utf8')));
      if (Object.keys(catalogue).length === 0) throw new Error('no provider with models in it');
      this.use(catalogue, 'file', undefined);
    } catch (err) {
      this.warnings.push(`${MODELS_DEV_PATH_ENV}=${path} could not be used (${errorText(err)}); using the built-in model list.`);
    }
  }

  /**
   * Downloads models.dev now, rewrites the cache and switches to it. Resolves false (and keeps the
   * current data) when remote models are disabled, a catalogue file is configured, or the download fails.
   * Concurrent calls share one download.
   */
  refresh(): Promise<boolean> {
    if (!this.remoteAllowed() || this.env[MODELS_DEV_PATH_ENV]?.trim()) return Promise.resolve(false);
    this.refreshing ??= this.download().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Resolves once no refresh is in flight (hosts and tests that want the refreshed data). */
  async whenRefreshed(): Promise<void> {
    await this.refreshing;
  }

  /** Cancels a background refresh, so a short-lived process (the CLI) is not kept alive by it. */
  close(): void {
    this.closed.abort();
  }

  private async download(): Promise<boolean> {
    const fetchFn: FetchFunction = this.options.fetch ?? ((url, init) => fetch(url, init));
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs ?? FETCH_TIMEOUT_MS), this.closed.signal]);
      const res = await fetchFn(this.options.url ?? MODELS_DEV_URL, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const { catalogue, rawProviders } = parseCatalogue(await res.json());
      if (Object.keys(catalogue).length === 0) throw new Error('the answer holds no provider');
      const now = this.now();
      await this.cache.write(rawProviders, now);
      this.use(catalogue, 'cache', now);
      return true;
    } catch (err) {
      // Offline or models.dev down: silent, the current data stays. Kept for a diagnostics log.
      this.warnings.push(`Refreshing the model list from models.dev failed: ${errorText(err)}`);
      if (this.warnings.length > 20) this.warnings.splice(0, this.warnings.length - 20);
      return false;
    }
  }

  private use(catalogue: ModelsDevCatalogue, source: CatalogSource, lastSync: number | undefined): void {
    this.loaded = catalogue;
    this.loadedFrom = source;
    this.synced = lastSync;
    this.memo.clear();
  }

  private remoteAllowed(): boolean {
    const v = this.env[DISABLE_REMOTE_MODELS_ENV]?.trim().toLowerCase();
    return !v || v === '0' || v === 'false' || v === 'no';
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/** http://127.0.0.1:11434/v1/ and http://127.0.0.1:11434/v1 are one server. */
function serverKey(baseUrl: string, model: string): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}\u0000${model}`;
}

function copy(c: ModelCapabilities): ModelCapabilities {
  return c.pricing ? { ...c, pricing: { ...c.pricing } } : { ...c };
}

function errorText(err: unknown): string {
  if (err instanceof Error) return (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) || err.name;
  return String(err);
}

/** localhost, loopback, private (RFC 1918) and link-local addresses, `.local` names. */
export function isLocalUrl(url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1' || host === '0.0.0.0') return true;
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (!m) return host.includes(':') && /^(fc|fd|fe80:)/.test(host);
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}
