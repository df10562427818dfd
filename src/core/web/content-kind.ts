/** What a response is, as far as reading it goes: a page, plain text, a PDF, or a file to download. */
export type ContentKind = 'html' | 'text' | 'pdf' | 'binary';

const TEXT_TYPES = /^(?:text\/|application\/(?:json|ld\+json|xml|rss\+xml|atom\+xml|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|graphql|x-ndjson|problem\+json|manifest\+json)$|image\/svg\+xml$)/;

/** By the declared media type; `peek` (the first bytes) decides when the server sent none. */
export function contentKind(mediaType: string, peek?: Buffer): ContentKind {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'application/pdf') return 'pdf';
  if (mediaType !== '' && mediaType !== 'application/octet-stream') return TEXT_TYPES.test(mediaType) || mediaType.endsWith('+json') || mediaType.endsWith('+xml') ? 'text' : 'binary';
  if (!peek) return 'binary';
  if (peek.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (looksBinary(peek)) return 'binary';
  return /^\s*<(?:!doctype html|html|head|body)/i.test(peek.toString('utf8')) ? 'html' : 'text';
}

/** NUL bytes, or more than one byte in ten a control character that text does not use. */
function looksBinary(bytes: Buffer): boolean {
  if (bytes.includes(0)) return true;
  let control = 0;
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
  return control > bytes.length / 10;
}
