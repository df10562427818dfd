import * as assert from 'node:assert/strict';
import { checkApiKeyShape } from '../../../../src/vscode/setup/api-key-shape';

describe('API key shape check', () => {
  it('accepts the keys each provider issues', () => {
    assert.equal(checkApiKeyShape('openai', 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789'), undefined);
    assert.equal(checkApiKeyShape('anthropic', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz'), undefined);
    assert.equal(checkApiKeyShape('openai-compatible', 'anything-the-server-wants'), undefined);
    assert.equal(checkApiKeyShape('openai', '  sk-integration  '), undefined, 'surrounding spaces are trimmed');
  });

  it('refuses what cannot be a key, saying why', () => {
    const errors: Array<[string, RegExp]> = [
      ['', /Enter a key/],
      ['Bearer sk-abcdefghijklmnop', /without "Bearer "/],
      ['"sk-abcdefghijklmnop"', /without quotes/],
      ['sk-abc defghijklmnop', /no spaces or line breaks/],
      ['sk-abcdefgh\nijklmnop', /no spaces or line breaks/],
      ['sk-abcdéfghijklmnop', /plain ASCII/],
      ['sk-abc', /too short/],
    ];
    for (const [key, why] of errors) {
      const problem = checkApiKeyShape('openai', key);
      assert.equal(problem?.severity, 'error', JSON.stringify(key));
      assert.match(problem!.message, why);
    }
  });

  it('only warns about an unexpected prefix (Azure and proxies have keys of their own)', () => {
    assert.deepEqual(checkApiKeyShape('openai', '0123456789abcdef0123456789abcdef')?.severity, 'warning');
    assert.match(checkApiKeyShape('openai', '0123456789abcdef0123456789abcdef')!.message, /usually start with "sk-"/);
    assert.match(checkApiKeyShape('openai', 'sk-ant-api03-abcdefghijklmnop')!.message, /looks like an Anthropic key/);
    assert.match(checkApiKeyShape('anthropic', 'sk-proj-abcdefghijklmnop')!.message, /usually start with "sk-ant-"/);
  });
});
