import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import type { ImageAttachment } from '../messages';

const EXTENSIONS: Record<ImageAttachment['mediaType'], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * Saves the images the user attached to a message as files in `dir` (the session's scratch
 * folder), so analyze_image can look at them again once they have left the context (masked,
 * compacted, or never sent because the action model cannot read images). Returns the paths, in
 * order. Names: `<time>-<tag>-<n>-<original name>.<ext>`: readable, and never reused.
 */
export async function saveAttachedImages(dir: string, images: readonly ImageAttachment[], now = new Date()): Promise<string[]> {
  await mkdirPrivate(dir);
  const stamp = `${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}-${randomBytes(2).toString('hex')}`;
  const paths: string[] = [];
  for (const [i, image] of images.entries()) {
    const base = (image.name ?? 'image').replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[^\w.-]+/g, '_').slice(0, 60) || 'image';
    const path = join(dir, `${stamp}-${i + 1}-${base}.${EXTENSIONS[image.mediaType]}`);
    await writeFile(path, Buffer.from(image.data, 'base64'), { flag: 'wx', mode: PRIVATE_FILE_MODE });
    paths.push(path);
  }
  return paths;
}
