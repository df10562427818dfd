import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderSettings } from '../../../../src/core/config/provider-settings';
import { CapabilityCatalog } from '../../../../src/core/llm/capabilities/catalog';
import { MissingApiKeyError } from '../../../../src/core/llm/create-provider';
import { RoleSettingsSchema, type RoleSettings } from '../../../../src/core/config/model-role-settings';
import { ModelRoles } from '../../../../src/core/llm/model-roles';
import type { ObservedCall } from '../../../../src/core/llm/observed-provider';
import type { LlmProvider } from '../../../../src/core/llm/provider';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { collect, finalText, request } from './helpers';

const fixturePath = join(__dirname, '../../../../../test/fixtures/models/api.json');

function catalog(): CapabilityCatalog {
  return new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home: mkdtempSync(join(tmpdir(), 'opendev-home-')) });
}

/** A provider factory that records what it built. */
function recordingFactory() {
  const built: ProviderSettings[] = [];
  const factory = (settings: ProviderSettings): LlmProvider => {
    built.push(settings);
    return { id: `client-${built.length}`, stream: () => collect((async function* () {})()) as never };
  };
  return { built, factory };
}

const gpt: ProviderSettings = { provider: 'openai', model: 'gpt-4.1', apiKey: 'k-openai' };
const sonnet: ProviderSettings = { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'k-anthropic' };
const haiku: ProviderSettings = { provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'k-anthropic' };
const local: ProviderSettings = { provider: 'openai-compatible', model: 'llama3.1', baseUrl: 'http://localhost:11434/v1' };

describe('model roles', () => {
  it('follow the fallback chains: thinking → action; critique → thinking → action; compact → action', () => {
    const { factory } = recordingFactory();
    const only = new ModelRoles({ action: gpt }, catalog(), { createProvider: factory });
    for (const role of ['action', 'thinking', 'critique', 'compact'] as const) {
      const r = only.forRole(role);
      assert.equal(r?.model, 'gpt-4.1', role);
      assert.equal(r?.role, role);
      assert.equal(r?.servedBy, 'action');
    }

    const withThinking = new ModelRoles({ action: gpt, thinking: sonnet }, catalog(), { createProvider: factory });
    assert.equal(withThinking.forRole('thinking')?.model, 'claude-sonnet-4-5');
    assert.equal(withThinking.forRole('critique')?.model, 'claude-sonnet-4-5');
    assert.equal(withThinking.forRole('critique')?.servedBy, 'thinking');
    assert.equal(withThinking.forRole('compact')?.model, 'gpt-4.1');

    const all = new ModelRoles({ action: gpt, thinking: sonnet, critique: haiku, compact: haiku }, catalog(), { createProvider: factory });
    assert.equal(all.forRole('critique')?.model, 'claude-haiku-4-5');
    assert.equal(all.forRole('compact')?.servedBy, 'compact');
  });

  it('vision: the action model when it sees images, undefined when it does not, the vision model when configured', () => {
    const { factory } = recordingFactory();
    const seeing = new ModelRoles({ action: gpt }, catalog(), { createProvider: factory }).forRole('vision');
    assert.equal(seeing?.model, 'gpt-4.1');
    assert.equal(seeing?.servedBy, 'action');
    assert.equal(seeing?.capabilities.vision, true);

    assert.equal(new ModelRoles({ action: local }, catalog(), { createProvider: factory }).forRole('vision'), undefined);
    const configured = new ModelRoles({ action: local, vision: sonnet }, catalog(), { createProvider: factory }).forRole('vision');
    assert.equal(configured?.model, 'claude-sonnet-4-5');
  });

  it('uses the catalogue for capabilities (a text-only action model has no vision role)', async () => {
    const { factory } = recordingFactory();
    const cat = new CapabilityCatalog({ env: { OPENDEV_MODELS_DEV_PATH: fixturePath }, home: mkdtempSync(join(tmpdir(), 'opendev-home-')) });
    await cat.load();
    const roles = new ModelRoles({ action: { ...gpt, model: 'text-only-1' } }, cat, { createProvider: factory });
    assert.equal(roles.forRole('vision'), undefined);
    assert.equal(roles.forRole('action')?.capabilities.contextWindow, 64_000);
    assert.equal(new ModelRoles({ action: local }, cat, { createProvider: factory }).forRole('action')?.capabilities.known, false);
  });

  it('a configured context window overrides the catalogue (local and unlisted models), other capabilities stay', async () => {
    const { factory } = recordingFactory();
    const cat = new CapabilityCatalog({ env: { OPENDEV_MODELS_DEV_PATH: fixturePath }, home: mkdtempSync(join(tmpdir(), 'opendev-home-')) });
    await cat.load();
    const roles = new ModelRoles({ action: { ...gpt, model: 'text-only-1', contextWindow: 8_192 }, compact: { ...local, contextWindow: 32_000 } }, cat, { createProvider: factory });
    assert.equal(roles.forRole('action')?.capabilities.contextWindow, 8_192);
    assert.equal(roles.forRole('action')?.capabilities.known, true);
    assert.equal(roles.forRole('compact')?.capabilities.contextWindow, 32_000);
    assert.equal(RoleSettingsSchema.safeParse({ action: { ...gpt, contextWindow: 10 } }).success, false, 'a window under 1,000 tokens is a typo');
  });

  it('creates no client until a role is asked for, then one per endpoint, reused', () => {
    const { built, factory } = recordingFactory();
    const roles = new ModelRoles({ action: gpt, thinking: sonnet, critique: haiku, compact: gpt }, catalog(), { createProvider: factory });
    assert.equal(built.length, 0);

    const action = roles.forRole('action')!;
    assert.equal(built.length, 1);
    assert.equal(roles.forRole('compact')!.provider, action.provider, 'same provider, URL and key: same client');
    assert.equal(roles.forRole('action')!.provider, action.provider);
    assert.equal(built.length, 1);

    const thinking = roles.forRole('thinking')!;
    assert.equal(built.length, 2);
    assert.notEqual(thinking.provider, action.provider);
    const critique = roles.forRole('critique')!;
    assert.equal(critique.provider, thinking.provider, 'another Anthropic model on the same endpoint shares the client');
    assert.equal(critique.model, 'claude-haiku-4-5');
    assert.equal(built.length, 2);
  });

  it('a subagent model override keeps the action endpoint and client, with the new model', () => {
    const { built, factory } = recordingFactory();
    const roles = new ModelRoles({ action: sonnet, critique: gpt }, catalog(), { createProvider: factory });
    const main = roles.forRole('action')!;
    const sub = roles.withModelOverride('claude-haiku-4-5');
    const subAction = sub.forRole('action')!;
    assert.equal(subAction.model, 'claude-haiku-4-5');
    assert.equal(subAction.settings.provider, 'anthropic');
    assert.equal(subAction.settings.apiKey, 'k-anthropic');
    assert.equal(subAction.provider, main.provider);
    assert.equal(sub.forRole('thinking')?.model, 'claude-haiku-4-5', 'fallbacks follow the override');
    assert.equal(sub.forRole('critique')?.model, 'gpt-4.1', 'configured roles are kept');
    assert.equal(subAction.capabilities.maxOutputTokens, 64_000);
    assert.equal(roles.forRole('action')!.model, 'claude-sonnet-4-5', 'the original is unchanged');
    assert.equal(built.length, 2);
  });

  it('surfaces a missing key when the role is first used, not before', () => {
    const roles = new ModelRoles({ action: gpt, thinking: { provider: 'anthropic', model: 'claude-sonnet-4-5' } }, catalog());
    assert.ok(roles.forRole('action'));
    assert.throws(() => roles.forRole('thinking'), MissingApiKeyError);
  });

  it('validates role settings with zod', () => {
    const parsed = RoleSettingsSchema.safeParse({ action: gpt, thinking: sonnet });
    assert.equal(parsed.success, true);
    assert.equal(RoleSettingsSchema.safeParse({ thinking: sonnet }).success, false, 'action is required');
    assert.equal(RoleSettingsSchema.safeParse({ action: { ...gpt, provider: 'mistral' } }).success, false);
    assert.equal(RoleSettingsSchema.safeParse({ action: { ...gpt, maxAttempts: 0 } }).success, false);
  });

  describe('with real clients', () => {
    const fake = new FakeProvider();
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => fake.reset());

    it('streams through the role client with the role model', async () => {
      const settings: RoleSettings = {
        action: { provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl },
        thinking: { provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'test-key', baseUrl: fake.anthropicBaseUrl },
      };
      const roles = new ModelRoles(settings, catalog(), { providerOptions: { retry: { baseDelayMs: 1, maxDelayMs: 2 } } });
      fake.enqueue({ text: 'acting' }, { thinking: 'hmm', text: 'thought' });
      const action = roles.forRole('action')!;
      assert.equal(finalText(await collect(action.provider.stream(request({ model: action.model }), new AbortController().signal))), 'acting');
      const thinker = roles.forRole('thinking')!;
      assert.equal(finalText(await collect(thinker.provider.stream(request({ model: thinker.model }), new AbortController().signal))), 'thought');
      assert.deepEqual(
        fake.requests.map((r) => [r.api, r.body.model]),
        [
          ['openai', 'gpt-4.1'],
          ['anthropic', 'claude-haiku-4-5'],
        ],
      );
    });

    it('an observer sees every call of every role: its purpose, the requests its retries took, the usage that answered', async () => {
      const calls: ObservedCall[] = [];
      const settings: RoleSettings = {
        action: { provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fake.openaiBaseUrl },
        compact: { provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'test-key', baseUrl: fake.anthropicBaseUrl },
      };
      const roles = new ModelRoles(settings, catalog(), { providerOptions: { retry: { baseDelayMs: 1, maxDelayMs: 2 } }, observe: (c) => calls.push(c) });
      fake.enqueue({ text: 'acting', usage: { promptTokens: 120, outputTokens: 3 } }, { failure: { kind: 'status', status: 503 } }, { text: 'A title', usage: { promptTokens: 40, outputTokens: 2 } });
      const action = roles.forRole('action')!;
      await collect(action.provider.stream(request({ model: action.model, purpose: 'action' }), new AbortController().signal));
      const compact = roles.forRole('compact')!;
      assert.equal(finalText(await collect(compact.provider.stream(request({ model: compact.model, purpose: 'title' }), new AbortController().signal))), 'A title');
      assert.equal(fake.requests.length, 3);
      assert.deepEqual(calls, [
        { purpose: 'action', model: 'gpt-4.1', requests: 1, usage: { promptTokens: 120, cachedTokens: 0, outputTokens: 3 } },
        { purpose: 'title', model: 'claude-haiku-4-5', requests: 2, usage: { promptTokens: 40, cachedTokens: 0, outputTokens: 2 } },
      ]);
      assert.ok(fake.requests.every((r) => !JSON.stringify(r.body).includes('purpose')), 'the purpose never reaches the provider');
    });
  });
});
