// Model roles (§2.2.5): one model slot per job, each with a fallback chain, and provider clients
// created lazily the first time a role needs them, then shared by every role on the same endpoint.
import type { ModelRole, RoleSettings } from '../config/model-role-settings';
import type { ProviderSettings } from '../config/provider-settings';
import type { CapabilityCatalog } from './capabilities/catalog';
import type { ModelCapabilities } from './capabilities/model-capabilities';
import { createProvider, type CreateProviderOptions } from './create-provider';
import { observedProvider, type ModelCallObserver } from './observed-provider';
import { signalAnswers } from './answer-signal';
import { loggedProvider } from './logged-provider';
import type { Logger } from '../logger';
import type { LlmProvider } from './provider';

export interface ResolvedModel {
  /** The role asked for. */
  role: ModelRole;
  /** The configured slot that serves it (differs from `role` when a fallback was taken). */
  servedBy: ModelRole;
  provider: LlmProvider;
  model: string;
  capabilities: ModelCapabilities;
  settings: ProviderSettings;
}

/** Roles to try, in order: thinking → action; critique → thinking → action; compact → action. */
const FALLBACKS: Record<Exclude<ModelRole, 'vision'>, ModelRole[]> = {
  action: ['action'],
  thinking: ['thinking', 'action'],
  critique: ['critique', 'thinking', 'action'],
  compact: ['compact', 'action'],
};

/** Builds a client; `options` are the session's (createProvider's), which a host's factory passes on to the core's. */
export type ProviderFactory = (settings: ProviderSettings, options?: CreateProviderOptions) => LlmProvider;

export interface ModelRolesOptions {
  /** Builds a provider client (default: createProvider). Tests count calls through it. */
  createProvider?: ProviderFactory;
  /** Passed to the factory (createProvider or the host's). */
  providerOptions?: CreateProviderOptions;
  /** Told about every call of every role's client, with its purpose and usage (bench/cost). */
  observe?: ModelCallObserver;
  /** Told when an answer starts arriving on any role's client, or a call ends without one (the session's held start-up work). */
  onAnswer?: () => void;
  /** Every call of every role's client, written as a line (the host's log; keys masked). */
  log?: Logger;
}

export class ModelRoles {
  private readonly factory: ProviderFactory;

  constructor(
    readonly settings: RoleSettings,
    private readonly capabilities: CapabilityCatalog,
    options: ModelRolesOptions = {},
    /** Clients by endpoint, shared with the ModelRoles derived by withModelOverride. */
    private readonly clients: Map<string, LlmProvider> = new Map(),
  ) {
    const build: ProviderFactory = options.createProvider ?? createProvider;
    const create: ProviderFactory = (s) => build(s, options.providerOptions);
    const { observe, onAnswer, log } = options;
    const logged: ProviderFactory = log ? (s) => loggedProvider(create(s), log, { provider: s.provider, baseUrl: s.baseUrl, apiKey: s.apiKey }) : create;
    const observed: ProviderFactory = observe ? (s) => observedProvider(logged(s), observe) : logged;
    this.factory = onAnswer ? (s) => signalAnswers(observed(s), onAnswer) : observed;
  }

  /**
   * The model for a role, following its fallback chain. Vision falls back to the action model only
   * when that model accepts images; otherwise undefined (the caller says vision is unavailable).
   * Creating the client may throw MissingApiKeyError.
   */
  forRole(role: ModelRole): ResolvedModel | undefined {
    if (role === 'vision') {
      if (this.settings.vision) return this.resolve('vision', 'vision', this.settings.vision);
      const action = this.capabilitiesOf(this.settings.action);
      return action.vision ? this.resolve('vision', 'action', this.settings.action, action) : undefined;
    }
    for (const slot of FALLBACKS[role]) {
      const settings = this.settings[slot];
      if (settings) return this.resolve(role, slot, settings);
    }
    return undefined; // unreachable: action is required
  }

  /** A subagent's model override: the action provider and endpoint with another model. Other configured roles are kept; fallbacks follow the new action model. */
  withModelOverride(model: string): ModelRoles {
    const settings: RoleSettings = { ...this.settings, action: { ...this.settings.action, model } };
    return new ModelRoles(settings, this.capabilities, { createProvider: this.factory }, this.clients);
  }

  private resolve(role: ModelRole, servedBy: ModelRole, settings: ProviderSettings, capabilities?: ModelCapabilities): ResolvedModel {
    return {
      role,
      servedBy,
      provider: this.client(settings),
      model: settings.model,
      capabilities: capabilities ?? this.capabilitiesOf(settings),
      settings,
    };
  }

  private capabilitiesOf(settings: ProviderSettings): ModelCapabilities {
    const known = this.capabilities.get(settings.provider, settings.model, settings.baseUrl);
    return settings.contextWindow ? { ...known, contextWindow: settings.contextWindow } : known;
  }

  /** One client per (provider, base URL, key, attempts); the model is a per-request field. */
  private client(settings: ProviderSettings): LlmProvider {
    const key = JSON.stringify([settings.provider, settings.baseUrl ?? '', settings.apiKey ?? '', settings.maxAttempts ?? 0, settings.openaiApi ?? 'auto']);
    let client = this.clients.get(key);
    if (!client) {
      client = this.factory(settings);
      this.clients.set(key, client);
    }
    return client;
  }
}
