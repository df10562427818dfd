import { open, stat } from 'node:fs/promises';
import { BINARY_SNIFF_BYTES, MAX_FILE_BYTES } from './limits';

/** A file's text, or undefined for what search skips: binary (a NUL byte near the start), oversized, unreadable. */
export async function readSearchableText(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return undefined;
    const handle = await open(file, 'r');
    try {
      const buffer = await handle.readFile();
      if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
