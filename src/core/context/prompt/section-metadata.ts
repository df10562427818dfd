import { closeSync, openSync, readSync } from 'node:fs';
import * as z from 'zod';
import { asText, parseFrontmatter } from '../../frontmatter';
import { SECTION_CONDITIONS } from './section-condition';

/** A section file's frontmatter: what the composer needs to decide on it without reading its body. */
export const SectionMetadataSchema = z.object({
  name: asText(z.string().trim().min(1)),
  priority: asText(z.coerce.number().finite()),
  condition: z.enum(SECTION_CONDITIONS, { error: (issue) => `unknown condition ${JSON.stringify(issue.input)} (one of: ${SECTION_CONDITIONS.join(', ')})` }),
  cacheable: asText(z.enum(['true', 'false'])).transform((v) => v === 'true'),
});
export type SectionMetadata = z.infer<typeof SectionMetadataSchema>;

export type SectionMetadataResult = { ok: true; metadata: SectionMetadata } | { ok: false; error: string };

/** Frontmatter is a few lines; a file whose header is longer than this is not a section. */
const MAX_HEADER_BYTES = 8192;
const CHUNK_BYTES = 1024;

/**
 * Reads and validates the frontmatter of a section file. Only the header is read (chunk by chunk
 * until the closing `---`), so sections a condition rules out never have their body loaded.
 */
export function readSectionMetadata(file: string): SectionMetadataResult {
  let header: string | undefined;
  try {
    header = readHeader(file);
  } catch (err) {
    return { ok: false, error: `cannot read (${(err as Error).message})` };
  }
  if (header === undefined) return { ok: false, error: 'no frontmatter (the file must start with a --- line and close it with another)' };
  const fields = parseFrontmatter(header);
  if ('error' in fields) return { ok: false, error: `invalid frontmatter: ${fields.error}` };
  const parsed = SectionMetadataSchema.safeParse(fields.values);
  if (!parsed.success) {
    return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  }
  return { ok: true, metadata: parsed.data };
}

/** The text between the opening and closing `---` lines; undefined when there is none. */
function readHeader(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < MAX_HEADER_BYTES) {
      const chunk = Buffer.alloc(CHUNK_BYTES);
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      chunks.push(chunk.subarray(0, n));
      total += n;
      // Decoded whole each time, so a character split across two chunks is never garbled.
      const text = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
      if (text.length >= 4 && !text.startsWith('---\n')) return undefined;
      const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
      if (match) return match[1];
      if (n === 0) return undefined;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
