import * as assert from 'node:assert/strict';
import { getReminder } from '../../../src/core/context/reminders';
import type { Message } from '../../../src/core/messages';
import type { StepSummary } from '../../../src/core/undo/describe-undo';
import type { ChatEntry } from '../../../src/shared/protocol';
import { stepMarks } from '../../../src/vscode/step-marks';
import { RESUMED_OUTPUT_MAX_CHARS, transcriptFromMessages } from '../../../src/vscode/transcript-from-session';

const ids = () => {
  let n = 0;
  return () => `e${++n}`;
};

const conversation: Message[] = [
  { role: 'system', content: 'You are OpenDev.' },
  { role: 'user', content: 'Add a note and check math.ts' },
  { role: 'assistant', content: 'I will write the note first.', toolCalls: [{ id: 'c1', name: 'write_file', arguments: '{"file_path":"notes.txt","content":"hi"}' }, { id: 'c2', name: 'read_file', arguments: '{"file_path":"math.ts"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'write_file', content: 'Created notes.txt (1 line)', isError: false, summary: '✓ Created notes.txt' },
  { role: 'tool', toolCallId: 'c2', name: 'read_file', content: `export const PI = 3;\n${'x'.repeat(RESUMED_OUTPUT_MAX_CHARS + 500)}`, isError: false },
  { role: 'user', content: getReminder('todos_incomplete', { TODOS: '- [ ] check' })! },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c3', name: 'run_command', arguments: '{"command":"false"}' }] },
  { role: 'tool', toolCallId: 'c3', name: 'run_command', content: 'exit code 1', isError: true, summary: '✗ false failed (exit 1)' },
  { role: 'user', content: getReminder('injected_followup', { MESSAGE: 'and say hi' })! },
  { role: 'assistant', content: 'Done: the note is written. Hi!', toolCalls: [] },
];

describe('a resumed chat rebuilt from the saved messages', () => {
  it('shows the user\'s messages, the answers and a tool card per call with its summary, not the reminders', () => {
    const entries = transcriptFromMessages(conversation, ids());
    assert.deepEqual(
      entries.map((e) => `${e.kind}:${e.kind === 'tool' ? `${e.id} ${e.status} ${e.summary}` : 'text' in e ? e.text : ''}`),
      [
        'user:Add a note and check math.ts',
        'assistant:I will write the note first.',
        'tool:tool-c1 ok ✓ Created notes.txt',
        'tool:tool-c2 ok export const PI = 3;',
        'tool:tool-c3 error ✗ false failed (exit 1)',
        'user:and say hi',
        'assistant:Done: the note is written. Hi!',
      ],
    );
    const read = entries.find((e) => e.id === 'tool-c2');
    assert.ok(read?.kind === 'tool' && read.output!.length < RESUMED_OUTPUT_MAX_CHARS + 200, 'a long output is clipped for the view');
    assert.match(read?.kind === 'tool' ? read.output! : '', /more characters; the session file keeps them all/);
  });

  it('a call whose result was never saved shows as failed', () => {
    const entries = transcriptFromMessages([{ role: 'assistant', content: '', toolCalls: [{ id: 'lost', name: 'edit_file', arguments: '{}' }] }], ids());
    assert.equal(entries[0]?.kind === 'tool' && entries[0].status, 'error');
  });
});

describe('restore marks on the tool cards', () => {
  const entries = transcriptFromMessages(conversation, ids());
  const step = (n: number, calls: string[], undone = false): StepSummary => ({ step: n, tools: [], changed: 1, at: '', undone, calls });

  it('marks the first card of each step that changed files, and only those', () => {
    const changed = stepMarks(entries, [step(1, ['c1', 'c2']), step(2, ['c3'])]);
    assert.deepEqual(changed.map((e) => [e.id, e.kind === 'tool' ? e.step : undefined]), [['tool-c1', 1], ['tool-c3', 2]]);
  });

  it('says which steps are undone, and returns nothing when the marks already match', () => {
    const marked: ChatEntry[] = entries.map((e) => stepMarks(entries, [step(1, ['c1'])]).find((c) => c.id === e.id) ?? e);
    assert.deepEqual(stepMarks(marked, [step(1, ['c1'])]), []);
    const undone = stepMarks(marked, [step(1, ['c1'], true)]);
    assert.deepEqual(undone.map((e) => e.kind === 'tool' && [e.id, e.step, e.undone]), [['tool-c1', 1, true]]);
    const cleared = stepMarks(marked, []);
    assert.deepEqual(cleared.map((e) => e.kind === 'tool' && [e.id, e.step]), [['tool-c1', undefined]], 'a step no longer in the history loses its mark');
  });
});
