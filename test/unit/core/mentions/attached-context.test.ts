import * as assert from 'node:assert/strict';
import { withoutAttachedContext } from '../../../../src/core/mentions/attached-context';
import { userMessageOrigin } from '../../../../src/core/session/user-message-origin';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { testAgent } from '../../../helpers/test-agent';
import { pngAttachment } from '../../../helpers/png';

describe('a saved prompt with attached context, read back', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('the model reads text, then the attached context, then the plan-mode note; a resumed chat shows only the text', async () => {
    fake.enqueue({ text: 'ok' });
    const agent = testAgent({ wire: 'openai', fake, tools: [] });
    agent.setMode('plan');
    const context = '<mentioned_context>\nThe user attached…\n<file path="math.ts">\n1\tx\n</file>\n</mentioned_context>';
    // testAgent's model is unknown to the catalogue (no vision): the image becomes a note in the context too.
    await agent.runTurn('explain @math.ts', { onTextDelta() {}, onToolStart() {}, onToolEnd() {} }, undefined, { context, images: [pngAttachment()] });
    const saved = agent.messages.find((m) => m.role === 'user')!.content;
    assert.ok(saved.startsWith(`explain @math.ts\n\n${context}\n\n<attached_images>`), saved.slice(0, 200));
    assert.match(saved, /<\/attached_images>\n\n[\s\S]*plan mode/i, 'the mode note comes last');
    assert.deepEqual(userMessageOrigin(saved), { kind: 'prompt', text: 'explain @math.ts' });
  });

  it('leaves a prompt without attachments as it is', () => {
    assert.equal(withoutAttachedContext('a plain prompt\n\nwith two paragraphs'), 'a plain prompt\n\nwith two paragraphs');
  });
});
