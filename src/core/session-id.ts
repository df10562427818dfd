// A new session's id: 8 characters of [a-z0-9].
import { randomBytes } from 'node:crypto';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function newSessionId(): string {
  const bytes = randomBytes(8);
  let id = '';
  // 36 does not divide 256; the bias (≤ 1/256 per character) does not matter for ids.
  for (const b of bytes) id += ID_ALPHABET[b % ID_ALPHABET.length];
  return id;
}
