import * as assert from 'node:assert/strict';
import type { Message } from '../../../../src/core/messages';
import type { ProviderEvent } from '../../../../src/core/llm/provider';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { collect, providerFor, request } from './helpers';

const systemParts = { stable: 'You are OpenDev. Tools: read_file.', dynamic: 'Working directory: /tmp/project' };
const readFileTool = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } };

function toolCalls(events: ProviderEvent[]) {
  return events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
}

describe('what the providers put on the wire', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  describe('systemParts', () => {
    it('OpenAI: one system message, stable then dynamic, replacing the system messages', async () => {
      fake.enqueue({ text: 'ok' });
      const messages: Message[] = [
        { role: 'system', content: 'an old system prompt' },
        { role: 'user', content: 'hello' },
      ];
      await collect(providerFor('openai', fake).stream(request({ messages, systemParts }), new AbortController().signal));
      const sent = fake.requests[0]!.body.messages;
      assert.deepEqual(sent, [
        { role: 'system', content: `${systemParts.stable}\n\n${systemParts.dynamic}` },
        { role: 'user', content: 'hello' },
      ]);
    });

    it('OpenAI: an empty dynamic part adds no separator; without systemParts the system messages go as they are', async () => {
      fake.enqueue({ text: 'ok' }, { text: 'ok' });
      const provider = providerFor('openai', fake);
      await collect(provider.stream(request({ systemParts: { stable: 'stable only', dynamic: '' } }), new AbortController().signal));
      assert.deepEqual(fake.requests[0]!.body.messages[0], { role: 'system', content: 'stable only' });
      const messages: Message[] = [
        { role: 'system', content: 'plain system' },
        { role: 'user', content: 'hello' },
      ];
      await collect(provider.stream(request({ messages }), new AbortController().signal));
      assert.deepEqual(fake.requests[1]!.body.messages[0], { role: 'system', content: 'plain system' });
    });

    it('Anthropic: the stable block carries cache_control, the dynamic block does not', async () => {
      fake.enqueue({ text: 'ok' });
      await collect(providerFor('anthropic', fake).stream(request({ systemParts }), new AbortController().signal));
      assert.deepEqual(fake.requests[0]!.body.system, [
        { type: 'text', text: systemParts.stable, cache_control: { type: 'ephemeral' } },
        { type: 'text', text: systemParts.dynamic },
      ]);
    });

    it('Anthropic: empty parts are left out; plain system messages get one breakpoint, on the last', async () => {
      fake.enqueue({ text: 'ok' }, { text: 'ok' });
      const provider = providerFor('anthropic', fake);
      await collect(provider.stream(request({ systemParts: { stable: '', dynamic: 'only dynamic' } }), new AbortController().signal));
      assert.deepEqual(fake.requests[0]!.body.system, [{ type: 'text', text: 'only dynamic' }]);
      const messages: Message[] = [
        { role: 'system', content: 'first' },
        { role: 'system', content: 'second' },
        { role: 'user', content: 'hello' },
      ];
      await collect(provider.stream(request({ messages }), new AbortController().signal));
      assert.deepEqual(fake.requests[1]!.body.system, [
        { type: 'text', text: 'first' },
        { type: 'text', text: 'second', cache_control: { type: 'ephemeral' } },
      ]);
    });
  });

  describe('reasoning', () => {
    it('Anthropic: becomes the thinking parameter, with max_tokens above the budget', async () => {
      fake.enqueue({ thinking: 'Let me think.', text: 'Answer.' });
      const events = await collect(
        providerFor('anthropic', fake).stream(request({ reasoning: { budgetTokens: 4000 }, maxOutputTokens: 2000 }), new AbortController().signal),
      );
      const body = fake.requests[0]!.body;
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 4000 });
      assert.ok(body.max_tokens > 4000, `max_tokens ${body.max_tokens}`);
      assert.equal(events.filter((e) => e.type === 'thinking').map((e) => (e as { delta: string }).delta).join(''), 'Let me think.');
    });

    it('Anthropic: keeps max_tokens when it already exceeds the budget, and raises a tiny budget to the API minimum', async () => {
      fake.enqueue({ text: 'a' }, { text: 'b' });
      const provider = providerFor('anthropic', fake);
      await collect(provider.stream(request({ reasoning: { budgetTokens: 2048 }, maxOutputTokens: 16000 }), new AbortController().signal));
      assert.equal(fake.requests[0]!.body.max_tokens, 16000);
      await collect(provider.stream(request({ reasoning: { budgetTokens: 10 } }), new AbortController().signal));
      assert.equal(fake.requests[1]!.body.thinking.budget_tokens, 1024);
    });

    it('Anthropic: without reasoning there is no thinking parameter', async () => {
      fake.enqueue({ text: 'ok' });
      await collect(providerFor('anthropic', fake).stream(request(), new AbortController().signal));
      assert.equal(fake.requests[0]!.body.thinking, undefined);
    });

    it('OpenAI: reasoning is not sent (Chat Completions has no budget); streamed reasoning_content still arrives as thinking', async () => {
      fake.enqueue({ thinking: 'hmm', text: 'ok' });
      const events = await collect(providerFor('openai', fake).stream(request({ reasoning: { budgetTokens: 4000 } }), new AbortController().signal));
      const body = fake.requests[0]!.body;
      assert.equal(body.thinking, undefined);
      assert.equal(body.reasoning_effort, undefined);
      assert.ok(events.some((e) => e.type === 'thinking'));
    });

    it('Anthropic: sends the signed thinking block back with the tool call it led to', async () => {
      const provider = providerFor('anthropic', fake);
      const reasoning = { budgetTokens: 2048 };
      fake.enqueue({ thinking: 'I should read the file.', toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: { file_path: 'a.ts' } }] }, { text: 'Done.' });
      const first = await collect(provider.stream(request({ tools: [readFileTool], reasoning }), new AbortController().signal));
      const [call] = toolCalls(first);
      assert.equal(call?.id, 'toolu_1');

      const messages: Message[] = [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: '', toolCalls: [call!] },
        { role: 'tool', toolCallId: 'toolu_1', name: 'read_file', content: 'export const a = 1;', isError: false },
      ];
      await collect(provider.stream(request({ messages, tools: [readFileTool], reasoning }), new AbortController().signal));
      const second = fake.requests[1]!.body;
      assert.deepEqual(second.thinking, { type: 'enabled', budget_tokens: 2048 });
      const assistant = second.messages[1];
      assert.equal(assistant.role, 'assistant');
      assert.equal(assistant.content[0].type, 'thinking');
      assert.equal(assistant.content[0].thinking, 'I should read the file.');
      assert.equal(assistant.content[0].signature, Buffer.from('fake-signature:23').toString('base64'));
      assert.equal(assistant.content[1].type, 'tool_use');
    });

    it('Anthropic: when the thinking of a tool call is unknown (a resumed session), the call goes without thinking', async () => {
      fake.enqueue({ text: 'Done.' });
      const messages: Message[] = [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'toolu_old', name: 'read_file', arguments: '{"file_path":"a.ts"}' }] },
        { role: 'tool', toolCallId: 'toolu_old', name: 'read_file', content: 'x', isError: false },
      ];
      const events = await collect(
        providerFor('anthropic', fake).stream(request({ messages, tools: [readFileTool], reasoning: { budgetTokens: 2048 } }), new AbortController().signal),
      );
      const body = fake.requests[0]!.body;
      assert.equal(body.thinking, undefined);
      assert.deepEqual(
        body.messages[1].content.map((b: { type: string }) => b.type),
        ['text', 'tool_use'],
      );
      assert.ok(events.some((e) => e.type === 'text'));
    });

    it('Anthropic: a new user message starts a new turn, so thinking is on again', async () => {
      fake.enqueue({ text: 'Sure.' });
      const messages: Message[] = [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_old', name: 'read_file', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'toolu_old', name: 'read_file', content: 'x', isError: false },
        { role: 'assistant', content: 'It says x.', toolCalls: [] },
        { role: 'user', content: 'and now?' },
      ];
      await collect(providerFor('anthropic', fake).stream(request({ messages, reasoning: { budgetTokens: 2048 } }), new AbortController().signal));
      assert.deepEqual(fake.requests[0]!.body.thinking, { type: 'enabled', budget_tokens: 2048 });
    });
  });

  describe('usage', () => {
    it('Anthropic: reports the whole prompt with its cached part', async () => {
      fake.enqueue({ text: 'ok', usage: { promptTokens: 1200, cachedTokens: 1000, outputTokens: 7 } });
      const events = await collect(providerFor('anthropic', fake).stream(request(), new AbortController().signal));
      assert.deepEqual(
        events.filter((e) => e.type === 'usage').map((e) => (e as { usage: unknown }).usage),
        [{ promptTokens: 1200, cachedTokens: 1000, outputTokens: 7 }],
      );
    });

    it('OpenAI: reports prompt, cached and output tokens', async () => {
      fake.enqueue({ text: 'ok', usage: { promptTokens: 1200, cachedTokens: 1000, outputTokens: 7 } });
      const events = await collect(providerFor('openai', fake).stream(request(), new AbortController().signal));
      assert.deepEqual(
        events.filter((e) => e.type === 'usage').map((e) => (e as { usage: unknown }).usage),
        [{ promptTokens: 1200, cachedTokens: 1000, outputTokens: 7 }],
      );
    });
  });
});
