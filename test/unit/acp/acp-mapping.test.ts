// The pure pieces of the ACP front end: our questions as permission options and back, a prompt's
// content blocks as turn input, and a saved conversation as the updates a client replays.
import * as assert from 'node:assert/strict';
import { approvalDecision, chosenLabel, planDecision, PLAN_NOT_APPROVED, questionOptions } from '../../../src/acp/permission-options';
import { promptInput } from '../../../src/acp/prompt-content';
import { replayUpdates } from '../../../src/acp/conversation-replay';
import { toolKind } from '../../../src/acp/tool-call-view';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('ACP mapping', () => {
  it('approval outcomes: allow once, always, reject, and a cancelled request denies', () => {
    assert.deepEqual(approvalDecision({ outcome: 'selected', optionId: 'allow' }), { action: 'allow' });
    assert.deepEqual(approvalDecision({ outcome: 'selected', optionId: 'always' }), { action: 'always' });
    assert.deepEqual(approvalDecision({ outcome: 'selected', optionId: 'reject' }), { action: 'deny' });
    assert.deepEqual(approvalDecision({ outcome: 'cancelled' }), { action: 'deny' });
  });

  it('plan review: approve, approve and run, and anything else keeps planning with a note for the model', () => {
    assert.deepEqual(planDecision({ outcome: 'selected', optionId: 'approve' }), { action: 'approve' });
    assert.deepEqual(planDecision({ outcome: 'selected', optionId: 'approve_auto' }), { action: 'approve_auto' });
    assert.deepEqual(planDecision({ outcome: 'cancelled' }), { action: 'modify', feedback: PLAN_NOT_APPROVED });
  });

  it('ask_user: options by index, so labels with any character come back as they were', () => {
    const question = { header: 'H', question: 'Q?', multiSelect: false, options: [{ label: 'a "b"', description: '' }, { label: 'option-0', description: '' }] };
    const options = questionOptions(question);
    assert.deepEqual(options.map((o) => o.name), ['a "b"', 'option-0']);
    assert.equal(chosenLabel(question, { outcome: 'selected', optionId: options[1]!.optionId }), 'option-0');
    assert.equal(chosenLabel(question, { outcome: 'selected', optionId: 'bogus' }), undefined);
    assert.equal(chosenLabel(question, { outcome: 'cancelled' }), undefined);
  });

  it('prompt content: text, an embedded buffer as context, a link as a mention, a real image; a fake image and audio are left out', () => {
    const input = promptInput([
      { type: 'text', text: 'look' },
      { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'const a = 1;' } },
      { type: 'resource_link', uri: 'file:///w/b.ts', name: 'b.ts' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'image', data: 'bm90IGFuIGltYWdlIGF0IGFsbA==', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    ]);
    assert.equal(input.text, 'look\n@/w/b.ts');
    assert.equal(input.input.context, '<file path="/w/a.ts">\nconst a = 1;\n</file>');
    assert.equal(input.input.images?.length, 1);
    assert.equal(input.skipped.length, 2);
  });

  it('replay: what the user typed, the answers and the tool calls; harness notes are not the user\'s words', () => {
    const updates = replayUpdates(
      [
        { role: 'user', content: 'fix it\n\n<attached/>', origin: { kind: 'prompt', text: 'fix it' } },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit_file', arguments: '{"file_path":"a.ts"}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'edit_file', content: 'long', summary: '✓ edited', isError: false },
        { role: 'user', content: 'a reminder', origin: { kind: 'note' } },
        { role: 'assistant', content: 'Fixed.', toolCalls: [] },
      ],
      '/w',
    );
    assert.deepEqual(updates.map((u) => u.sessionUpdate), ['user_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk']);
    assert.deepEqual(updates[0], { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix it' } });
    assert.deepEqual(updates[1], { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'edit_file a.ts', kind: 'edit', status: 'pending', locations: [{ path: '/w/a.ts' }], rawInput: { file_path: 'a.ts' } });
    assert.equal(toolKind('an_mcp_tool'), 'other');
  });
});
