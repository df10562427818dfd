import * as assert from 'node:assert/strict';
import type { Message } from '../../../../src/core/messages';
import { MESSAGE_OVERHEAD_TOKENS, estimateMessageTokens, estimateTextTokens, estimateTokens } from '../../../../src/core/context/token-estimate';

describe('token estimate', () => {
  it('counts about 4 characters per token (OpenCode token_estimate_chars_per_token_4 cases)', () => {
    for (const [len, expected] of [[4000, 1000], [20000, 5000], [0, 0]] as const) {
      assert.equal(estimateTextTokens('x'.repeat(len)), expected);
    }
  });

  it('adds a per-message overhead', () => {
    assert.equal(estimateMessageTokens({ role: 'user', content: 'x'.repeat(40) }), 10 + MESSAGE_OVERHEAD_TOKENS);
    assert.equal(estimateTokens([]), 0);
  });

  it('includes tool-call names and arguments, and the tool name of a result', () => {
    const bare: Message = { role: 'assistant', content: 'ok', toolCalls: [] };
    const withCall: Message = { role: 'assistant', content: 'ok', toolCalls: [{ id: 'c1', name: 'read_file', arguments: JSON.stringify({ path: 'x'.repeat(400) }) }] };
    assert.ok(estimateMessageTokens(withCall) - estimateMessageTokens(bare) > 100);
    const result: Message = { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'abcd', isError: false };
    assert.ok(estimateMessageTokens(result) > estimateMessageTokens({ role: 'user', content: 'abcd' }));
    assert.equal(estimateTokens([bare, withCall, result]), estimateMessageTokens(bare) + estimateMessageTokens(withCall) + estimateMessageTokens(result));
  });
});
