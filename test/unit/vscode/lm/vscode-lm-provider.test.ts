import * as assert from 'node:assert/strict';
import type { ProviderEvent } from '../../../../src/core/llm/provider';
import { ProviderError } from '../../../../src/core/llm/provider-error';
import type { Message } from '../../../../src/core/messages';
import { toLmMessages, toLmTools } from '../../../../src/vscode/lm/lm-messages';
import { matchesSelector, pickLmModel } from '../../../../src/vscode/lm/lm-model-pick';
import { VsCodeLmProvider } from '../../../../src/vscode/lm/vscode-lm-provider';
import { ChatMessage, LmError, TextPart, ToolCallPart, ToolResultPart, fakeApi, fakeModel } from './fake-lm-api';

const collect = async (it: AsyncIterable<ProviderEvent>) => {
  const out: ProviderEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
};

describe('vscode-lm: message and tool-part conversion', () => {
  const api = fakeApi([]);

  it('puts the system prompt before the first user message, and pairs tool calls with their results', () => {
    const messages: Message[] = [
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'fix math.ts' },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"file_path":"math.ts"}' }, { id: 'b', name: 'list_files', arguments: 'not json' }] },
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'export const PI = 3;', isError: false },
      { role: 'tool', toolCallId: 'b', name: 'list_files', content: 'bad arguments', isError: true },
      { role: 'assistant', content: 'Done.', toolCalls: [] },
    ];
    const out = toLmMessages(api, messages) as unknown as ChatMessage[];
    assert.deepEqual(out.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
    assert.deepEqual(out[0]!.content, [new TextPart('SYSTEM\n\nfix math.ts')]);
    assert.deepEqual(out[1]!.content, [new TextPart('Reading.'), new ToolCallPart('a', 'read_file', { file_path: 'math.ts' }), new ToolCallPart('b', 'list_files', {})]);
    // Both results in one user message, right after the calls; an error says so.
    assert.deepEqual(out[2]!.content, [
      new ToolResultPart('a', [new TextPart('export const PI = 3;')]),
      new ToolResultPart('b', [new TextPart('Error: bad arguments')]),
    ]);
  });

  it('joins systemParts given apart, and sends our tool schemas as they are', () => {
    const out = toLmMessages(api, [{ role: 'user', content: 'hi' }], 'STABLE\n\nDYNAMIC') as unknown as ChatMessage[];
    assert.deepEqual(out[0]!.content, [new TextPart('STABLE\n\nDYNAMIC\n\nhi')]);
    const schema = { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] };
    assert.deepEqual(toLmTools([{ name: 'read_file', description: 'Read a file', parameters: schema }]), [{ name: 'read_file', description: 'Read a file', inputSchema: schema }]);
  });
});

describe('vscode-lm: picking the model', () => {
  const copilot = fakeModel({ id: 'gpt-4.1' });
  const other = { ...fakeModel({ id: 'claude-sonnet' }), family: 'claude', vendor: 'acme' };

  it('matches an id, a family or vendor/family, case-insensitively; auto is the first offered', async () => {
    assert.equal(matchesSelector(other, 'claude-sonnet'), true);
    assert.equal(matchesSelector(other, 'ACME/claude'), true);
    assert.equal(matchesSelector(other, 'acme/claude-sonnet'), true);
    assert.equal(matchesSelector(other, 'copilot/claude'), false);
    const api = fakeApi([copilot, other]);
    assert.equal(await pickLmModel(api, 'auto'), copilot);
    assert.equal(await pickLmModel(api, 'acme/claude'), other);
    assert.equal(await pickLmModel(api, 'nope'), undefined);
  });
});

describe('vscode-lm: the provider', () => {
  const request = (model = 'auto') => ({ model, messages: [{ role: 'user' as const, content: 'hi' }], tools: [{ name: 'read_file', description: 'Read', parameters: { type: 'object' } }] });

  it('streams text and tool calls, then the usage the model counts', async () => {
    const model = fakeModel({ parts: [new TextPart('Let me '), new TextPart('look.'), new ToolCallPart('c1', 'read_file', { file_path: 'a.ts' })] });
    const events = await collect(new VsCodeLmProvider(fakeApi([model])).stream(request(), new AbortController().signal));
    assert.deepEqual(events, [
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'look.' },
      { type: 'tool_call', call: { id: 'c1', name: 'read_file', arguments: '{"file_path":"a.ts"}' } },
      // One message of one part (10 by the fake's count); the output text and call by their length.
      { type: 'usage', usage: { promptTokens: 10, cachedTokens: 0, outputTokens: 'Let me look.read_file{"file_path":"a.ts"}'.length } },
    ]);
    assert.deepEqual(model.sent[0]!.options.tools?.map((t) => t.name), ['read_file']);
  });

  it('maps the API errors to clear provider errors', async () => {
    const cases: Array<[Error, string, RegExp]> = [
      [LmError.NoPermissions('denied'), 'auth', /OpenDev may not use GPT-4\.1 \(copilot\)/],
      [LmError.Blocked('quota'), 'rate_limit', /refused the request: its provider blocked it/],
      [LmError.NotFound('gone'), 'bad_request', /is not available any more/],
      [new Error('boom'), 'server', /GPT-4\.1 \(copilot\) failed: boom/],
    ];
    for (const [error, kind, message] of cases) {
      const provider = new VsCodeLmProvider(fakeApi([fakeModel({ error })]));
      await assert.rejects(collect(provider.stream(request(), new AbortController().signal)), (err: unknown) => {
        assert.ok(err instanceof ProviderError);
        assert.equal(err.kind, kind);
        assert.match(err.message, message);
        return true;
      });
    }
    // An error crossing from another extension keeps only its code.
    const crossed = Object.assign(new Error('no'), { code: 'NoPermissions' });
    await assert.rejects(collect(new VsCodeLmProvider(fakeApi([fakeModel({ error: crossed })])).stream(request(), new AbortController().signal)), /OpenDev may not use/);
  });

  it('says which setting names no model, before sending anything', async () => {
    await assert.rejects(collect(new VsCodeLmProvider(fakeApi([fakeModel()])).stream(request('missing-model'), new AbortController().signal)), /No language model in VS Code matches "missing-model" \(opendev\.model\)/);
  });

  it('an abort stops the stream as aborted', async () => {
    const controller = new AbortController();
    const model = fakeModel({ parts: [new TextPart('a'), new TextPart('b')] });
    const provider = new VsCodeLmProvider(fakeApi([model]));
    const seen: ProviderEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of provider.stream(request(), controller.signal)) {
          seen.push(e);
          controller.abort();
        }
      })(),
      (err: unknown) => err instanceof ProviderError && err.kind === 'aborted',
    );
    assert.deepEqual(seen, [{ type: 'text', delta: 'a' }]);
  });
});
