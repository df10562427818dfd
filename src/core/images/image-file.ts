import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ImageAttachmentSchema, MAX_IMAGE_BYTES, sniffImageType, type ImageAttachment } from '../../shared/image-attachment';
import { ToolError } from '../tool-result';

/**
 * An image file as vision input: at most MAX_IMAGE_BYTES, and PNG, JPEG, GIF or WebP by its first
 * bytes (the extension is not trusted: a ".png" that is really HTML is refused). `shown` names the
 * file in errors.
 */
export async function readImageFile(absolute: string, shown: string): Promise<ImageAttachment> {
  const info = await stat(absolute).catch(() => undefined);
  if (!info) throw new ToolError('not_found', `${shown} does not exist. Check the path with list_files.`);
  if (!info.isFile()) throw new ToolError('other', `${shown} is not a file.`);
  if (info.size > MAX_IMAGE_BYTES) {
    throw new ToolError('other', `${shown} is ${(info.size / (1024 * 1024)).toFixed(1)} MB; images may have at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB. Ask the user for a smaller one.`);
  }
  const handle = await open(absolute, 'r');
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const data = bytes.toString('base64');
  const mediaType = sniffImageType(data);
  if (!mediaType) throw new ToolError('other', `${shown} is not a PNG, JPEG, GIF or WebP image (judged by its content, not its name).`);
  const parsed = ImageAttachmentSchema.safeParse({ mediaType, data, name: basename(absolute).slice(0, 200) });
  if (!parsed.success) throw new ToolError('other', `${shown} cannot be sent as an image: ${parsed.error.issues.map((i) => i.message).join('; ')}.`);
  return parsed.data;
}
