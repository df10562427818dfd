// A session/prompt's content blocks as our turn input: the text the user typed, the files the
// client embedded (its open buffers, mentioned files) as attached context, and images as vision
// input, each checked as any attachment is (type, size, the bytes being the type they claim).
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { ImageAttachmentSchema, MAX_IMAGES_PER_MESSAGE, type ImageAttachment } from '../shared/image-attachment';
import type { TurnInput } from '../core/turn-input';

export interface PromptInput {
  text: string;
  input: TurnInput;
  /** What was left out (audio, an image that is no image, too many images), for a notice. */
  skipped: string[];
}

export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
  const texts: string[] = [];
  const context: string[] = [];
  const images: ImageAttachment[] = [];
  const skipped: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'resource_link':
        // The client names a file without its content: the agent reads it itself, if it wants to.
        texts.push(`@${pathOf(block.uri)}`);
        break;
      case 'resource':
        if ('text' in block.resource) context.push(`<file path="${pathOf(block.resource.uri)}">\n${block.resource.text}\n</file>`);
        else skipped.push(`${pathOf(block.resource.uri)} (binary content)`);
        break;
      case 'image': {
        const image = ImageAttachmentSchema.safeParse({ mediaType: block.mimeType, data: block.data });
        if (!image.success) skipped.push(`an image (${block.mimeType}) that cannot be read as one`);
        else if (images.length >= MAX_IMAGES_PER_MESSAGE) skipped.push(`images past the first ${MAX_IMAGES_PER_MESSAGE}`);
        else images.push(image.data);
        break;
      }
      default:
        skipped.push(`${block.type} content`);
    }
  }
  const input: TurnInput = {
    ...(context.length ? { context: context.join('\n\n') } : {}),
    ...(images.length ? { images } : {}),
  };
  return { text: texts.join('\n').trim(), input, skipped };
}

/** A file: URI as its path; any other URI as it is. */
function pathOf(uri: string): string {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
}
