import type { ImageAttachment, UserMessage, UserMessageOrigin } from './messages';

/**
 * What a front end sends with the user's text besides the text itself: context it gathered for the
 * model (the expanded `@` mentions) and images (vision input). The text alone goes to the hooks,
 * the planning-intent check and the playbook's query; the model reads text, then context, with
 * the images on the same message.
 */
export interface TurnInput {
  context?: string;
  images?: readonly ImageAttachment[];
}

/** The user message of a turn; `typed` is what the user wrote of it (default: all of `text`). */
export function userMessage(text: string, input?: TurnInput, typed = text): UserMessage {
  const content = input?.context ? `${text}\n\n${input.context}` : text;
  const origin: UserMessageOrigin = { kind: 'prompt', text: typed };
  return input?.images?.length ? { role: 'user', content, images: input.images.map((image) => ({ ...image })), origin } : { role: 'user', content, origin };
}
