// Names on disk and on screen: project folders, session ids, titles.
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/** The longest title (paper: 50 characters). */
export const TITLE_MAX = 50;

/**
 * The folder name of a project: a readable slug of the absolute path plus 8 hex digits of its
 * SHA-256, so `/a-b` and `/a/b` (same slug) still get different folders.
 */
export function encodeProjectPath(workingDir: string): string {
  const absolute = resolve(workingDir);
  const slug = absolute.replace(/[^A-Za-z0-9._]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}

/** A session title: the text with its whitespace collapsed, at most 50 characters. */
export function makeTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1)}…` : flat;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function newSessionId(): string {
  const bytes = randomBytes(8);
  let id = '';
  // 36 does not divide 256; the bias (≤ 1/256 per character) does not matter for ids.
  for (const b of bytes) id += ID_ALPHABET[b % ID_ALPHABET.length];
  return id;
}
