import { ToolError } from '../tool-result';
import { BrowserUnavailableError } from './browser';
import { formatTimeout } from './network-errors';

/**
 * A failure inside the browser as a typed tool error: Chromium's `net::ERR_*` codes, playwright's
 * timeouts, and no browser at all (whose message says how to get one).
 */
export function browserFailure(err: unknown, url: string, timeoutMs: number): Error {
  if (err instanceof ToolError) return err;
  if (err instanceof BrowserUnavailableError) return new ToolError('other', err.message);
  const error = err as Error;
  const message = (error?.message ?? String(err)).split('\n')[0]!.replace(/^[\w.]+: /, '');
  if (error?.name === 'TimeoutError' || /Timeout \d+ms exceeded/.test(message)) {
    return new ToolError('timeout', `${url} was not ready within ${formatTimeout(timeoutMs)} (${message}). Give a larger timeout_ms, or drop wait_for.`);
  }
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  if (code === 'ERR_NAME_NOT_RESOLVED') return new ToolError('not_found', `The host of ${url} does not exist (DNS lookup failed). Check the address.`);
  if (code === 'ERR_CONNECTION_REFUSED') return new ToolError('other', `Connection refused for ${url}: nothing is listening there (is the server running?).`);
  if (code === 'ERR_TIMED_OUT' || code === 'ERR_CONNECTION_TIMED_OUT') return new ToolError('timeout', `${url} timed out (${code}).`);
  if (code?.startsWith('ERR_CERT_') || code?.startsWith('ERR_SSL_')) return new ToolError('other', `TLS error with ${url} (${code}): the certificate or protocol is not accepted.`);
  if (code === 'ERR_ABORTED' && /download/i.test(message)) return new ToolError('other', `${url} is a file download, not a page.`);
  return new ToolError('other', `The browser could not load ${url}: ${message}`);
}
