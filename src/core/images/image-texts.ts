import type { ImageAttachment, Message } from '../messages';
import { describeImageFile } from '../../shared/image-attachment';
import { loadTemplateSections, renderTemplate } from '../templates';

/** The sections of `templates/chat/images.md`: what the models read about attached images. */
export type ImageTextName = 'attached' | 'masked' | 'saved' | 'describe_system' | 'describe_request' | 'description' | 'unreadable';

const FILE = 'chat/images.md';

/** A section rendered with `vars`; undefined when the template is missing (callers degrade). */
export function imageText(name: ImageTextName, vars: Record<string, string> = {}): string | undefined {
  const section = loadTemplateSections(FILE).get(name);
  return section ? renderTemplate(section, vars) : undefined;
}

/** "a.png (PNG, 12 KB), image 2 (JPEG, 80 KB)". */
export function imageNames(images: readonly ImageAttachment[]): string {
  return images.map((image, i) => describeImageFile(image, i)).join(', ');
}

/** The note that stands for a message's images where only its text travels. */
export function attachedImagesNote(images: readonly ImageAttachment[] | undefined): string {
  if (!images?.length) return '';
  return imageText('attached', { COUNT: String(images.length), NAMES: imageNames(images) }) ?? '';
}

/** A user message's text with its images' note appended (for text-only consumers). */
export function textWithImageNote(content: string, images: readonly ImageAttachment[] | undefined): string {
  const note = attachedImagesNote(images);
  return note ? `${content}\n${note}` : content;
}

/** The message as text only: a user message's images become their note. */
export function withoutImages(message: Message): Message {
  if (message.role !== 'user' || !message.images?.length) return message;
  return { role: 'user', content: textWithImageNote(message.content, message.images), ...(message.origin ? { origin: message.origin } : {}) };
}
