import * as z from 'zod';

/**
 * An image the user attached to a message (pasted or dropped in the chat), as vision input for
 * the model: its bytes in base64. Checked wherever it crosses a boundary (the webview's message,
 * a session file read back): an allowed type whose first bytes really are that type, and at most
 * MAX_IMAGE_BYTES. Browser-safe (the webview validates with it too).
 */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** 5 MB: Anthropic's limit per image; OpenAI accepts more. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Images one message may carry. */
export const MAX_IMAGES_PER_MESSAGE = 5;
const MAX_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/** Bytes the base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** The image type the first bytes announce (PNG, JPEG, GIF, WebP signatures); undefined for anything else. */
export function sniffImageType(data: string): ImageMediaType | undefined {
  let head: string;
  try {
    head = atob(data.slice(0, 16));
  } catch {
    return undefined;
  }
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (head.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

export const ImageAttachmentSchema = z
  .object({
    mediaType: z.enum(IMAGE_MEDIA_TYPES),
    data: z
      .string()
      .min(8)
      .max(MAX_BASE64_CHARS, `an image may have at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB`)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'image data must be base64'),
    /** The file name, when it had one (shown on the chip, named in descriptions). */
    name: z.string().trim().min(1).max(200).optional(),
  })
  .refine((image) => base64Bytes(image.data) <= MAX_IMAGE_BYTES, { message: `an image may have at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB`, path: ['data'] })
  .refine((image) => sniffImageType(image.data) === image.mediaType, { message: 'the image data is not of its declared type', path: ['data'] });
export type ImageAttachment = z.infer<typeof ImageAttachmentSchema>;

/** "screenshot.png (PNG, 120 KB)": how a person recognises an image in text. */
export function describeImageFile(image: Pick<ImageAttachment, 'mediaType' | 'data' | 'name'>, index = 0): string {
  const kind = image.mediaType.slice('image/'.length).toUpperCase();
  const kb = Math.max(1, Math.round(base64Bytes(image.data) / 1024));
  return `${image.name ?? `image ${index + 1}`} (${kind}, ${kb.toLocaleString('en-US')} KB)`;
}
