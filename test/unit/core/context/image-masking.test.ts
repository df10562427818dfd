import * as assert from 'node:assert/strict';
import type { Message } from '../../../../src/core/messages';
import { maskOldImages } from '../../../../src/core/context/compaction/image-masking';
import { StagedCompactor } from '../../../../src/core/context/compaction/staged-compactor';
import { estimateMessageTokens, IMAGE_TOKENS } from '../../../../src/core/context/token-estimate';
import { entry } from '../../../../src/core/context/compaction/summary-input';
import { pngAttachment } from '../../../helpers/png';

describe('images and the context window', () => {
  it('an attached image counts as IMAGE_TOKENS in the estimate, not as its base64 length', () => {
    const plain = estimateMessageTokens({ role: 'user', content: 'look' });
    const withImage = estimateMessageTokens({ role: 'user', content: 'look', images: [pngAttachment()] });
    assert.equal(withImage - plain, IMAGE_TOKENS);
  });

  it('masking keeps the latest message with images and replaces older images by a note naming them', () => {
    const history: Message[] = [
      { role: 'user', content: 'first screen', images: [pngAttachment('one.png')] },
      { role: 'assistant', content: 'ok', toolCalls: [] },
      { role: 'user', content: 'second screen', images: [pngAttachment('two.png')] },
    ];
    const shared = history[0];
    const outcome = maskOldImages(history);
    assert.equal(outcome.messagesAffected, 1);
    assert.ok(outcome.tokensFreed >= IMAGE_TOKENS - 100);
    assert.equal(history[0]!.role === 'user' && history[0]!.images, undefined);
    assert.match(history[0]!.content, /^first screen\n\[1 image\(s\) the user attached here were removed from the context to save space: one\.png \(PNG, 1 KB\)/);
    assert.equal(history[2]!.role === 'user' && history[2]!.images?.length, 1, 'the latest keeps its image');
    assert.equal(shared!.role === 'user' && shared!.images?.length, 1, 'the original object (a transcript may share it) is not changed');
    assert.deepEqual(maskOldImages(history), { tokensFreed: 0, messagesAffected: 0 }, 'a second run changes nothing');
  });

  it('the staged compactor masks old images at 80% pressure', async () => {
    const history: Message[] = [
      { role: 'user', content: 'a', images: [pngAttachment('a.png'), pngAttachment('b.png')] },
      { role: 'user', content: 'b', images: [pngAttachment('c.png')] },
    ];
    const events: string[] = [];
    await new StagedCompactor({ onEvent: (e) => events.push(e.stage) }).run(history, 0, 5_000);
    assert.ok(events.includes('mask'));
    assert.equal(history[0]!.role === 'user' && history[0]!.images, undefined);
  });

  it('the summariser reads a note in place of the images', () => {
    const line = entry({ role: 'user', content: 'what is wrong here?', images: [pngAttachment('bug.png')] }, { user: 4000, assistant: 2000, args: 300, wholeOutput: 1000 });
    assert.match(line, /^\[user\] what is wrong here\?\n\[1 image\(s\) attached by the user: bug\.png \(PNG, 1 KB\)\]$/);
  });
});
