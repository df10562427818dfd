import * as assert from 'node:assert/strict';
import { getReminder } from '../../../../src/core/context/reminders';
import { describeUndo } from '../../../../src/core/undo/describe-undo';
import { userMessageOrigin } from '../../../../src/core/session/user-message-origin';
import { loadTemplateSections, renderTemplate } from '../../../../src/core/templates';

/**
 * A saved conversation holds the harness's reminders as user messages too; a resumed chat must show
 * only what the user typed. Each case renders the real template the harness uses.
 */
describe('userMessageOrigin (which saved user messages the user typed)', () => {
  it('a plain message is a prompt, as typed', () => {
    assert.deepEqual(userMessageOrigin('What does math.ts export?'), { kind: 'prompt', text: 'What does math.ts export?' });
  });

  it('the plan-mode note the agent appends to a prompt is cut off', () => {
    const note = getReminder('plan_mode')!;
    assert.deepEqual(userMessageOrigin(`Plan the multiply feature\n\n${note}`), { kind: 'prompt', text: 'Plan the multiply feature' });
    const exited = getReminder('plan_mode_exited')!;
    assert.deepEqual(userMessageOrigin(`Now do it\n\n${exited}`), { kind: 'prompt', text: 'Now do it' });
  });

  it('a follow-up typed while the agent worked comes back as the words the user typed', () => {
    const injected = getReminder('injected_followup', { MESSAGE: 'also mention\nthe tests' })!;
    assert.deepEqual(userMessageOrigin(injected), { kind: 'followup', text: 'also mention\nthe tests' });
  });

  it('reminders, hook context and error nudges are notes for the model', () => {
    const samples = [
      getReminder('todos_incomplete', { TODOS: '- [ ] write tests' }),
      getReminder('hook_context', { EVENT: 'UserPromptSubmit', CONTEXT: 'The branch is main.' }),
      getReminder('error_not_found', { CALL: 'read_file(src/x.ts)', ERROR: 'ENOENT' }),
      getReminder('all_todos_complete'),
      getReminder('plan_mode'),
    ];
    for (const text of samples) assert.deepEqual(userMessageOrigin(text!), { kind: 'note' }, text);
  });

  it('the undo note and a compaction summary are recognised as such', () => {
    const undone = describeUndo({ steps: [{ type: 'step', session: 's', step: 3, before: 'a', after: 'b', changed: [], skipped: [], tools: ['write_file'], at: '' }], restored: [], removed: ['notes.txt'], changedSince: [], notRestored: [] });
    assert.deepEqual(userMessageOrigin(undone.note!), { kind: 'undo', steps: 'step 3' });
    const summary = renderTemplate(loadTemplateSections('compaction/full-compaction.md').get('summary_message')!, { COUNT: '12', SUMMARY: 'We fixed the parser.', ARTIFACT_INDEX: 'Files: a.ts', ARCHIVE: '' });
    assert.deepEqual(userMessageOrigin(summary), { kind: 'compaction' });
  });

  it('a prompt that quotes part of a reminder is still the user\'s', () => {
    const quoted = `Why did you say "${getReminder('all_todos_complete')!.slice(0, 30)}"?`;
    assert.equal(userMessageOrigin(quoted).kind, 'prompt');
  });
});
