import type { Message, UserMessage } from '../../messages';
import type { StageOutcome } from './observation-stages';
import { estimateMessageTokens } from '../token-estimate';
import { imageNames, imageText } from '../../images/image-texts';

/**
 * The masking stage for images: every user message with images, except the `keepRecent` latest
 * ones, loses its images for a one-line note naming them (an image costs as much as a long tool
 * output and is rarely needed again once the model has looked at it). The message object is
 * replaced, not changed, since a session transcript may share it.
 */
export function maskOldImages(history: Message[], keepRecent = 1): StageOutcome {
  const outcome: StageOutcome = { tokensFreed: 0, messagesAffected: 0 };
  const withImages: number[] = [];
  history.forEach((m, i) => {
    if (m.role === 'user' && m.images?.length) withImages.push(i);
  });
  for (const index of withImages.slice(0, Math.max(0, withImages.length - keepRecent))) {
    const message = history[index] as UserMessage;
    const images = message.images ?? [];
    const note = imageText('masked', { COUNT: String(images.length), NAMES: imageNames(images) }) ?? '';
    const next: UserMessage = { role: 'user', content: note ? `${message.content}\n${note}` : message.content, ...(message.origin ? { origin: message.origin } : {}) };
    history[index] = next;
    outcome.tokensFreed += Math.max(0, estimateMessageTokens(message) - estimateMessageTokens(next));
    outcome.messagesAffected++;
  }
  return outcome;
}
