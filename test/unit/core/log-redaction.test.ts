import * as assert from 'node:assert/strict';
import { formatLogLine, lineLogger } from '../../../src/core/log-line';
import { redactSecrets } from '../../../src/core/log-redaction';
import type { LogLevel } from '../../../src/core/logger';
import { NO_LOGGER, scopedLogger } from '../../../src/core/logger';

describe('log redaction', () => {
  const cases: Array<[string, string, string]> = [
    ['an OpenAI key', 'key sk-proj-abcdefghijklmnopqrstuvwx1234 rejected', 'sk-proj-abcdefghijklmnopqrstuvwx1234'],
    ['an Anthropic key', 'using sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA-BBBB now', 'sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA-BBBB'],
    ['an Authorization header', 'headers: {"authorization":"Bearer custom-token-value-123"}', 'custom-token-value-123'],
    ['an HTTP Authorization line', 'Authorization: Bearer abc.def.ghi-jkl', 'abc.def.ghi-jkl'],
    ['an x-api-key header', "{ 'x-api-key': 'anthropic-style-secret-99' }", 'anthropic-style-secret-99'],
    ['an api_key field', 'api_key=plainsecretvalue42', 'plainsecretvalue42'],
    ['a bare bearer token', 'sent Bearer zzzzyyyyxxxxwwww', 'zzzzyyyyxxxxwwww'],
    ['a key in a URL query', 'GET https://generativelanguage.example/v1?key=QUERYSECRET123&alt=sse', 'QUERYSECRET123'],
  ];
  for (const [what, text, secret] of cases) {
    it(`masks ${what}`, () => {
      const out = redactSecrets(text);
      assert.ok(!out.includes(secret), out);
      assert.match(out, /\[REDACTED\]/);
    });
  }

  it('masks a configured key of any shape, wherever it appears, and leaves ordinary text alone', () => {
    const key = 'local-server-key-7f3a';
    const out = redactSecrets(`server said: invalid key ${key} (…${key.slice(-4)})`, [key]);
    assert.ok(!out.includes(key), out);
    assert.equal(redactSecrets('provider request model=gpt-4.1 inputTokens=12'), 'provider request model=gpt-4.1 inputTokens=12');
    // A "secret" too short to mask safely would blank ordinary words: it is not taken.
    assert.equal(redactSecrets('the model answered', ['the']), 'the model answered');
  });
});

describe('lineLogger', () => {
  const collect = (level?: LogLevel | 'off') => {
    const lines: Array<[LogLevel, string]> = [];
    const logger = lineLogger((at, line) => lines.push([at, line]), level ? { level: () => level } : {});
    return { lines, logger };
  };

  it('writes the message and its fields as key=value, quoting values with spaces, leaving out undefined ones', () => {
    assert.equal(formatLogLine('provider request', { model: 'gpt-4.1', latencyMs: 12, ok: true, reason: 'rate limited (429)', gone: undefined }), 'provider request model=gpt-4.1 latencyMs=12 ok=true reason="rate limited (429)"');
  });

  it('masks a key told with redact() in messages and fields', () => {
    const { lines, logger } = collect();
    logger.redact('my-configured-key-123');
    logger.error('auth failed for my-configured-key-123', { error: 'Incorrect API key provided: my-configured-key-123' });
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]![1].includes('my-configured-key-123'), lines[0]![1]);
  });

  it('keeps the levels at and above the least one; off keeps none; enabled() says the same', () => {
    const info = collect('info');
    info.logger.debug('hidden');
    info.logger.info('shown');
    info.logger.error('also shown');
    assert.deepEqual(info.lines.map(([l]) => l), ['info', 'error']);
    assert.equal(info.logger.enabled('trace'), false);
    assert.equal(info.logger.enabled('warn'), true);
    const off = collect('off');
    off.logger.error('nothing');
    assert.deepEqual(off.lines, []);
    assert.equal(off.logger.enabled('error'), false);
  });

  it('a scoped logger prefixes its area and shares the redaction', () => {
    const { lines, logger } = collect();
    const mcp = scopedLogger(logger, 'mcp');
    mcp.redact('scoped-secret-value');
    mcp.warn('server failed', { error: 'bad token scoped-secret-value' });
    assert.equal(lines[0]![1], 'mcp: server failed error="bad token [REDACTED]"');
    assert.equal(NO_LOGGER.enabled('error'), false);
  });

  it('a sink that throws never breaks the caller', () => {
    const logger = lineLogger(() => {
      throw new Error('disk full');
    });
    assert.doesNotThrow(() => logger.info('x'));
  });
});
