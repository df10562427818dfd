import * as assert from 'node:assert/strict';
import type { Message } from '../../../../src/core/messages';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { pngAttachment } from '../../../helpers/png';
import { collect, providerFor, request } from './helpers';

/** Images attached to a user message reach each API in its own wire format, through the real SDKs. */
describe('image parts on the wire', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const image = pngAttachment('chart.png');
  const messages: Message[] = [{ role: 'user', content: 'What does this chart show?', images: [image] }];

  it('OpenAI: the text part, then an image_url part with a base64 data URL', async () => {
    fake.enqueue({ text: 'A gradient.' });
    await collect(providerFor('openai', fake).stream(request({ messages }), new AbortController().signal));
    const [user] = fake.requests[0]!.body.messages;
    assert.deepEqual(user, {
      role: 'user',
      content: [
        { type: 'text', text: 'What does this chart show?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${image.data}` } },
      ],
    });
  });

  it('Anthropic: an image block with a base64 source, then the text block', async () => {
    fake.enqueue({ text: 'A gradient.' });
    await collect(providerFor('anthropic', fake).stream(request({ messages }), new AbortController().signal));
    const [user] = fake.requests[0]!.body.messages;
    assert.deepEqual(user, {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image.data } },
        { type: 'text', text: 'What does this chart show?' },
      ],
    });
  });

  it('a user message without images stays plain text on both wires', async () => {
    fake.enqueue({ text: 'ok' }, { text: 'ok' });
    await collect(providerFor('openai', fake).stream(request(), new AbortController().signal));
    await collect(providerFor('anthropic', fake).stream(request(), new AbortController().signal));
    assert.deepEqual(fake.requests[0]!.body.messages[0], { role: 'user', content: 'hello' });
    assert.deepEqual(fake.requests[1]!.body.messages[0], { role: 'user', content: [{ type: 'text', text: 'hello' }] });
  });
});
