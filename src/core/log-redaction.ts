// What a log line may never carry: API keys and credentials. Known secrets (the configured keys) are
// masked exactly; shapes every provider uses (sk-…, Bearer tokens, Authorization / x-api-key / api-key
// headers, key=… query parameters) are masked even when the key was never configured here.

const MASK = '[REDACTED]';
/** Shorter values are not masked: "abc" as a "key" would blank ordinary words in every line. */
const MIN_SECRET_LENGTH = 8;

const SHAPES: ReadonlyArray<[RegExp, string]> = [
  // A header or field named like a credential, in JSON ("authorization":"…"), HTTP (Authorization: …) or k=v form.
  [/(["']?(?:authorization|proxy-authorization|x-api-key|api[-_]?key|x-goog-api-key|access[-_]?token|secret)["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic)\s+)?[^\s"',;&}]+/gi, `$1${MASK}`],
  // A bare bearer token anywhere.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${MASK}`],
  // OpenAI, Anthropic, OpenRouter, Groq and most vendors' key shapes.
  [/\b(?:sk|rk|pk)-(?:ant-|proj-|or-v1-)?[A-Za-z0-9_-]{16,}/g, MASK],
  [/\bgsk_[A-Za-z0-9]{20,}/g, MASK],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, MASK],
  // A key in a URL's query (?key=…, &api_key=…).
  [/([?&](?:key|api_key|apikey|token|access_token)=)[^&\s"']+/gi, `$1${MASK}`],
];

/** `text` with every known secret and every credential-shaped value masked. */
export function redactSecrets(text: string, known: Iterable<string> = []): string {
  let out = text;
  // Longest first, so a key that contains another is masked whole.
  for (const secret of [...known].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(MASK);
  }
  for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
  return out;
}

export { MASK as REDACTION_MASK, MIN_SECRET_LENGTH };
