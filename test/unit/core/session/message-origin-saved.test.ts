import * as assert from 'node:assert/strict';
import { getReminder } from '../../../../src/core/context/reminders';
import { fromTranscriptLine, toTranscriptLine, TranscriptLineSchema } from '../../../../src/core/session/session-schema';
import { originOf } from '../../../../src/core/session/user-message-origin';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { testAgent } from '../../../helpers/test-agent';

/**
 * A user message says who wrote it (`origin`), set where the harness makes it and kept in the saved
 * session: a resumed chat reads the user's words from it, never by matching the text to templates.
 */
describe('user messages carry their origin, saved and resumed', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());

  it('a prompt keeps the typed words apart from what the chat attached', async () => {
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    fake.enqueue({ text: 'Done.' });
    const ui = { onTextDelta() {}, onToolStart() {}, onToolEnd() {} };
    await agent.runTurn('explain @math.ts', ui, undefined, { context: '<mentioned_context>export const PI = 3.14;</mentioned_context>' });
    const prompt = agent.messages.find((m) => m.role === 'user')!;
    assert.match(prompt.content, /mentioned_context/, 'the model reads the attached context');
    assert.deepEqual(prompt.role === 'user' && prompt.origin, { kind: 'prompt', text: 'explain @math.ts' });
  });

  it('the origin survives the session file, so a prompt that reads like a harness note stays the user\'s', () => {
    // The user typed, word for word, what a reminder says: only the saved origin tells them apart.
    const typed = getReminder('all_todos_complete')!;
    const line = TranscriptLineSchema.parse(JSON.parse(JSON.stringify(toTranscriptLine({ role: 'user', content: typed, origin: { kind: 'prompt', text: typed } }, '2026-12-03T00:00:00Z'))));
    const resumed = fromTranscriptLine(line);
    assert.equal(resumed.role, 'user');
    assert.deepEqual(originOf(resumed as Extract<typeof resumed, { role: 'user' }>), { kind: 'prompt', text: typed });
    // Saved before messages carried it: read by the template, as before.
    assert.deepEqual(originOf({ content: typed }), { kind: 'note' });
  });
});
