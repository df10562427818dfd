import * as assert from 'node:assert/strict';
import { buildRoleSettings, RoleOverrideSchema } from '../../../../src/core/config/role-overrides';

describe('role overrides', () => {
  const action = { provider: 'openai' as const, model: 'gpt-4.1', apiKey: 'sk-openai', baseUrl: 'http://127.0.0.1:1/v1' };

  it('binds a role to another model of the same provider, sharing its key and endpoint', () => {
    const roles = buildRoleSettings(action, { compact: { model: 'gpt-4.1-mini' } }, () => undefined);
    assert.deepEqual(roles.compact, { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: action.baseUrl, apiKey: 'sk-openai', maxAttempts: undefined });
    assert.equal(roles.thinking, undefined, 'unset roles fall back to action later (ModelRoles)');
  });

  it('binds a role to another provider with that provider’s key and official endpoint', () => {
    const roles = buildRoleSettings(action, { critique: { provider: 'anthropic', model: 'claude-haiku-4-5' } }, (p) => (p === 'anthropic' ? 'sk-ant' : undefined));
    assert.deepEqual(roles.critique, { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: undefined, apiKey: 'sk-ant', maxAttempts: undefined });
  });

  it('validates what users write', () => {
    assert.equal(RoleOverrideSchema.safeParse({ model: '' }).success, false);
    assert.equal(RoleOverrideSchema.safeParse({ model: 'x', provider: 'mistral' }).success, false);
    assert.equal(RoleOverrideSchema.safeParse({ model: 'x', baseUrl: 'not a url' }).success, false);
  });
});
