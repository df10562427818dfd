import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import type { OpenAiApi } from '../../../../src/core/config/provider-settings';
import { createProvider } from '../../../../src/core/llm/create-provider';
import type { LlmProvider, ProviderEvent } from '../../../../src/core/llm/provider';
import { ProviderError } from '../../../../src/core/llm/provider-error';
import { SessionStore } from '../../../../src/core/session/session-store';
import { fakeEncryptedReasoning, FakeProvider, toolResults } from '../../../fixtures/fake-provider';
import { collect, FAST_RETRY, finalText, request, retries } from './helpers';

const systemParts = { stable: 'You are OpenDev.', dynamic: 'Working directory: /tmp/project' };
const readFile = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };

function openai(fake: FakeProvider, openaiApi?: OpenAiApi, promptCacheKey?: string): LlmProvider {
  return createProvider(
    { provider: 'openai', model: 'o3', apiKey: 'sk-test-secret-key', baseUrl: fake.openaiBaseUrl, ...(openaiApi ? { openaiApi } : {}) },
    { retry: FAST_RETRY, ...(promptCacheKey ? { promptCacheKey } : {}) },
  );
}

const of = <T extends ProviderEvent['type']>(events: ProviderEvent[], type: T) => events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
const signal = () => new AbortController().signal;

describe('OpenAI Responses API (official client → fake provider over HTTP)', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('streams an answer: reasoning summary as thinking, text, usage with cached and reasoning tokens, the reasoning item to keep', async () => {
    fake.enqueue({ thinking: 'The user greets me.', text: 'Hello there, how can I help?', usage: { promptTokens: 1200, cachedTokens: 1024, outputTokens: 90, reasoningTokens: 64 } });
    const events = await collect(openai(fake).stream(request({ model: 'o3', systemParts }), signal()));

    const sent = fake.requests[0]!;
    assert.equal(sent.api, 'openai-responses');
    assert.equal(sent.path, '/v1/responses');
    assert.equal(sent.body.stream, true);
    assert.equal(sent.body.store, false, 'nothing is kept at OpenAI');
    assert.deepEqual(sent.body.include, ['reasoning.encrypted_content']);
    assert.deepEqual(sent.body.reasoning, { summary: 'auto' });
    assert.equal(sent.body.instructions, `${systemParts.stable}\n\n${systemParts.dynamic}`);
    assert.deepEqual(sent.body.input, [{ role: 'user', content: 'hello' }]);

    assert.equal(of(events, 'thinking').map((e) => e.delta).join(''), 'The user greets me.');
    assert.equal(finalText(events), 'Hello there, how can I help?');
    assert.ok(of(events, 'thinking').length > 1 && of(events, 'text').length > 1, 'deltas arrive one by one');
    assert.deepEqual(of(events, 'usage').map((e) => e.usage), [{ promptTokens: 1200, cachedTokens: 1024, outputTokens: 90, reasoningTokens: 64 }]);
    const kept = of(events, 'provider_items');
    assert.equal(kept.length, 1);
    assert.equal(kept[0]!.items.api, 'openai-responses');
    assert.equal(kept[0]!.items.model, 'o3', 'the items remember the model that can read them');
    assert.equal(kept[0]!.items.items.length, 1);
    assert.equal(kept[0]!.items.items[0]!.type, 'reasoning');
    assert.equal(kept[0]!.items.items[0]!.encrypted_content, fakeEncryptedReasoning('The user greets me.'));
  });

  it('a tool call comes back whole, and its result goes out as function_call_output after the call and the reasoning before it', async () => {
    fake.enqueue(
      { thinking: 'I should read a.ts first.', toolCalls: [{ id: 'call_read_1', name: 'read_file', arguments: { file_path: 'a.ts' } }] },
      { text: 'a.ts exports PI.' },
    );
    const provider = openai(fake);
    const first = await collect(provider.stream(request({ model: 'o3', tools: [readFile] }), signal()));
    assert.deepEqual(fake.requests[0]!.body.tools, [{ type: 'function', name: 'read_file', description: 'Reads a file.', parameters: readFile.parameters, strict: false }]);
    const calls = of(first, 'tool_call').map((e) => e.call);
    assert.deepEqual(calls, [{ id: 'call_read_1', name: 'read_file', arguments: '{"file_path":"a.ts"}' }]);
    const items = of(first, 'provider_items')[0]!.items;

    const history: Message[] = [
      { role: 'user', content: 'what does a.ts export?' },
      { role: 'assistant', content: '', toolCalls: calls, providerItems: items },
      { role: 'tool', toolCallId: 'call_read_1', name: 'read_file', content: 'export const PI = 3.14;', isError: false },
    ];
    const second = await collect(provider.stream(request({ model: 'o3', messages: history, tools: [readFile] }), signal()));
    assert.equal(finalText(second), 'a.ts exports PI.');
    const input = fake.requests[1]!.body.input;
    assert.deepEqual(input[0], { role: 'user', content: 'what does a.ts export?' });
    assert.equal(input[1].type, 'reasoning');
    assert.equal(input[1].encrypted_content, fakeEncryptedReasoning('I should read a.ts first.'));
    assert.deepEqual(input[1].summary, [{ type: 'summary_text', text: 'I should read a.ts first.' }]);
    assert.deepEqual(input[2], { type: 'function_call', call_id: 'call_read_1', name: 'read_file', arguments: '{"file_path":"a.ts"}' });
    assert.deepEqual(input[3], { type: 'function_call_output', call_id: 'call_read_1', output: 'export const PI = 3.14;' });
    assert.equal(input.length, 4);
    assert.deepEqual(toolResults(fake.requests[1]!), [{ toolCallId: 'call_read_1', content: 'export const PI = 3.14;' }]);
  });

  it('reasoning items survive a session save and load, and go out again on the next request', async () => {
    fake.enqueue({ thinking: 'Plan: answer briefly.', text: 'Short answer.' }, { text: 'Second answer.' });
    const provider = openai(fake);
    const events = await collect(provider.stream(request({ model: 'o3' }), signal()));
    const answer: Message = { role: 'assistant', content: finalText(events), toolCalls: [], providerItems: of(events, 'provider_items')[0]!.items };

    const home = mkdtempSync(join(tmpdir(), 'opendev-responses-'));
    try {
      const store = new SessionStore({ home });
      const record = await store.create('/tmp/project', 'reasoning');
      await store.append(record, [{ role: 'user', content: 'hello' }, answer]);
      const loaded = await new SessionStore({ home }).load(record.meta.id, '/tmp/project');
      assert.ok(loaded, 'the session loads');
      assert.deepEqual(loaded.problems, []);
      assert.deepEqual(loaded.messages[1], answer, 'the reasoning items are read back as they were');

      await collect(provider.stream(request({ model: 'o3', messages: [...loaded.messages, { role: 'user', content: 'and again?' }] }), signal()));
      const input = fake.requests[1]!.body.input;
      assert.deepEqual(input.map((i: any) => i.type ?? i.role), ['user', 'reasoning', 'assistant', 'user']);
      assert.equal(input[1].encrypted_content, fakeEncryptedReasoning('Plan: answer briefly.'));
      assert.deepEqual(input[2], { role: 'assistant', content: 'Short answer.' });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('reasoning items another provider or another model wrote, or without encrypted content, are not sent', async () => {
    fake.enqueue({ text: 'ok' });
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'by gpt-5', toolCalls: [], providerItems: { api: 'openai-responses', model: 'gpt-5', items: [{ type: 'reasoning', id: 'rs_0', summary: [], encrypted_content: 'for gpt-5 only' }] } },
      { role: 'assistant', content: 'hello', toolCalls: [], providerItems: { api: 'someone-else', items: [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'x' }] } },
      { role: 'assistant', content: 'again', toolCalls: [], providerItems: { api: 'openai-responses', items: [{ type: 'reasoning', id: 'rs_2', summary: [] }, { type: 'bogus' }] } },
      { role: 'user', content: 'go on' },
    ];
    await collect(openai(fake).stream(request({ model: 'o3', messages: history }), signal()));
    assert.deepEqual(fake.requests[0]!.body.input.map((i: any) => i.type ?? i.role), ['user', 'assistant', 'assistant', 'assistant', 'user']);
  });

  it('sends the session prompt_cache_key', async () => {
    fake.enqueue({ text: 'ok' }, { text: 'ok' });
    const provider = openai(fake, undefined, 'opendev-abcd1234');
    await collect(provider.stream(request({ model: 'o3' }), signal()));
    await collect(provider.stream(request({ model: 'gpt-5-mini' }), signal()));
    assert.deepEqual(fake.requests.map((r) => r.body.prompt_cache_key), ['opendev-abcd1234', 'opendev-abcd1234']);
  });

  describe('which API: openai.api', () => {
    const pathFor = async (api: OpenAiApi | undefined, model: string) => {
      fake.reset();
      fake.enqueue({ text: 'ok' });
      const events = await collect(openai(fake, api).stream(request({ model }), signal()));
      assert.equal(finalText(events), 'ok');
      return fake.requests[0]!.path;
    };

    it('auto: the Responses API for reasoning models (o-series, gpt-5, codex), Chat Completions for gpt-4o and gpt-4.1', async () => {
      assert.equal(await pathFor(undefined, 'o3'), '/v1/responses');
      assert.equal(await pathFor('auto', 'o4-mini'), '/v1/responses');
      assert.equal(await pathFor('auto', 'gpt-5-mini'), '/v1/responses');
      assert.equal(await pathFor('auto', 'gpt-5-codex'), '/v1/responses');
      assert.equal(await pathFor('auto', 'gpt-4o'), '/v1/chat/completions');
      assert.equal(await pathFor(undefined, 'gpt-4.1'), '/v1/chat/completions');
    });

    it('the setting overrides the model: chat for o3, responses for gpt-4o (without reasoning options it would refuse)', async () => {
      assert.equal(await pathFor('chat', 'o3'), '/v1/chat/completions');
      assert.equal(await pathFor('responses', 'gpt-4o'), '/v1/responses');
      assert.equal(fake.requests[0]!.body.reasoning, undefined);
      assert.equal(fake.requests[0]!.body.include, undefined);
    });
  });

  describe('errors and retries, mapped as on Chat Completions', () => {
    it('a 429 is retried, and the retry is announced', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 0 } }, { text: 'after the wait' });
      const events = await collect(openai(fake).stream(request({ model: 'o3' }), signal()));
      assert.deepEqual(retries(events).map((r) => [r.attempt, r.reason]), [[2, 'rate limited (429)']]);
      assert.equal(finalText(events), 'after the wait');
      assert.equal(fake.requests.length, 2);
    });

    it('a failure inside the stream (response.failed, server_error) is retried too', async () => {
      fake.enqueue({ text: 'partial', failure: { kind: 'stream-error', code: 'server_error' } }, { text: 'whole answer' });
      const events = await collect(openai(fake).stream(request({ model: 'o3' }), signal()));
      assert.equal(retries(events).length, 1);
      assert.equal(finalText(events), 'whole answer');
    });

    it('a cut stream is retried', async () => {
      fake.enqueue({ text: 'this answer is cut short', failure: { kind: 'cut', afterChunks: 3 } }, { text: 'second try' });
      const events = await collect(openai(fake).stream(request({ model: 'o3' }), signal()));
      assert.equal(retries(events).length, 1);
      assert.equal(finalText(events), 'second try');
    });

    it('a rejected key is a typed auth error, not retried, and never shows the key', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 401 } });
      const err = await collect(openai(fake).stream(request({ model: 'o3' }), signal())).then(
        () => assert.fail('expected a ProviderError'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ProviderError);
      assert.equal(err.kind, 'auth');
      assert.equal(err.status, 401);
      assert.doesNotMatch(err.message, /sk-test-secret-key/);
      assert.equal(fake.requests.length, 1);
    });

    it('a refused prompt inside the stream is a bad request, given up at once', async () => {
      fake.enqueue({ failure: { kind: 'stream-error', code: 'invalid_prompt' } });
      const err = await collect(openai(fake).stream(request({ model: 'o3' }), signal())).catch((e: unknown) => e);
      assert.ok(err instanceof ProviderError);
      assert.equal(err.kind, 'bad_request');
      assert.match(err.message, /invalid_prompt/);
      assert.equal(fake.requests.length, 1);
    });

    it('an abort mid-answer stops the call with the aborted error', async () => {
      fake.enqueue({ text: 'a long answer that takes a while to stream', chunkDelayMs: 200 });
      const controller = new AbortController();
      const seen: ProviderEvent[] = [];
      const err = await (async () => {
        for await (const e of openai(fake).stream(request({ model: 'o3' }), controller.signal)) {
          seen.push(e);
          if (e.type === 'text') controller.abort();
        }
      })().catch((e: unknown) => e);
      assert.ok(err instanceof ProviderError);
      assert.equal(err.kind, 'aborted');
      assert.equal(of(seen, 'provider_items').length + of(seen, 'usage').length, 0, 'nothing of an unfinished answer is kept');
    });
  });
});
