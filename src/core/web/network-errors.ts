import { ToolError } from '../tool-result';

/** Node's error codes (undici puts them on `cause`) as failures the model can act on. */
const TLS_CODE = /^(?:CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/**
 * A failed request as a typed tool error: DNS failure (not_found), refused or reset connection,
 * timeout, TLS problem; the caller's own cancellation is passed on unchanged.
 */
export function networkFailure(err: unknown, url: URL, timeoutMs: number): Error {
  const error = err as Error & { cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError') return new ToolError('timeout', `${url.href} did not answer within ${formatTimeout(timeoutMs)}.`);
  if (error?.name === 'AbortError') return error;
  const code = error?.cause?.code ?? (error as { code?: string }).code ?? '';
  const detail = error?.cause?.message ?? error?.message ?? String(err);
  const where = `${url.hostname}${url.port ? `:${url.port}` : ''}`;
  if (code === 'ENOTFOUND') return new ToolError('not_found', `The host ${url.hostname} does not exist (DNS lookup failed). Check the address.`);
  if (code === 'EAI_AGAIN') return new ToolError('other', `The DNS lookup of ${url.hostname} failed for now (no network?). Try again later.`);
  if (code === 'ECONNREFUSED') return new ToolError('other', `Connection refused by ${where}: nothing is listening there (is the server running?).`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return new ToolError('other', `${where} closed the connection (${code}).`);
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new ToolError('timeout', `${url.href} timed out (${code}).`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new ToolError('other', `${where} cannot be reached from this machine (${code}).`);
  if (TLS_CODE.test(code)) return new ToolError('other', `TLS error with ${where}: ${detail} (${code}). The site's certificate or protocol is not accepted; do not retry unchanged.`);
  if (/bad port/i.test(detail)) return new ToolError('other', `Port ${url.port} is blocked for web requests (the fetch standard's unsafe ports); use another port.`);
  if (/redirect/i.test(detail)) return new ToolError('other', `${url.href}: ${detail}.`);
  return new ToolError('other', `Fetching ${url.href} failed: ${detail}${code ? ` (${code})` : ''}.`);
}

/** An HTTP error status as a typed failure, the status in the message. */
export function httpStatusFailure(status: number, statusText: string, url: string): ToolError {
  const what = `HTTP ${status}${statusText ? ` ${statusText}` : ''} from ${url}`;
  if (status === 404 || status === 410) return new ToolError('not_found', `${what}: the page does not exist. Check the URL, or search for the page's new address.`);
  if (status === 401 || status === 403) return new ToolError('permission', `${what}: the site refuses access (a login, or bot protection).`);
  if (status === 429) return new ToolError('rate_limit', `${what}: too many requests. Wait before trying again.`);
  if (status >= 500) return new ToolError('other', `${what}: the server failed. It may work later; do not retry at once.`);
  return new ToolError('other', `${what}.`);
}

/** A timeout as it was set, in whole units: `30 s`, `400 ms` (a measured time is formatDuration's). */
export function formatTimeout(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
