/**
 * Failures of a model call, classified so front ends can tell the user what to do
 * instead of showing an SDK stack trace.
 */
export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'unreachable'
  | 'server'
  | 'bad_request'
  | 'aborted'
  /** The model cannot do what the agent needs (it calls no tools): refused before any request. */
  | 'unsupported_model';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * The model does not call tools (its server or the catalogue says so): the agent could neither
 * read, edit nor run anything with it, so a turn is refused before the first request.
 */
export class ModelWithoutToolsError extends ProviderError {
  constructor(readonly model: string) {
    super('unsupported_model', `The model ${model} cannot call tools, so OpenDev cannot read or edit files or run commands with it. Choose a model that supports tool calling (Select Model marks the ones that do not).`);
    this.name = 'ModelWithoutToolsError';
  }
}

interface SdkLikeError {
  name?: string;
  status?: number;
  message?: string;
  error?: { message?: string; error?: { message?: string } };
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes an SDK exports; checked with instanceof because bundling may rename classes. */
export interface SdkErrorClasses {
  abort: ErrorClass;
  connection: ErrorClass;
}

/** Maps an error thrown by the openai / anthropic SDKs (or fetch) to a ProviderError. */
export function toProviderError(
  err: unknown,
  sdk: SdkErrorClasses,
  providerLabel: string,
  baseUrl: string,
): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = (err ?? {}) as SdkLikeError;
  const detail = apiMessage(e);
  if (err instanceof sdk.abort || e.name === 'AbortError') {
    return new ProviderError('aborted', 'The request was stopped.');
  }
  if (err instanceof sdk.connection) {
    return new ProviderError(
      'unreachable',
      `Cannot reach ${providerLabel} at ${baseUrl}: ${(detail || 'connection failed').replace(/\.$/, '')}. Check the base URL and your network.`,
    );
  }
  if (isConnectionDrop(err)) {
    return new ProviderError(
      'unreachable',
      `The connection to ${providerLabel} at ${baseUrl} dropped in the middle of the answer (${detail || 'connection lost'}). Check your network.`,
    );
  }
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (status === 401 || status === 403) {
    return new ProviderError('auth', `${providerLabel} rejected the API key (${status}): ${detail}`, status);
  }
  if (status === 429) {
    return new ProviderError('rate_limit', `${providerLabel} is rate limiting requests (429): ${detail}`, status);
  }
  if (status !== undefined && status >= 500) {
    return new ProviderError('server', `${providerLabel} failed (${status}): ${detail}`, status);
  }
  if (status !== undefined) {
    return new ProviderError('bad_request', `${providerLabel} refused the request (${status}): ${detail}`, status);
  }
  return new ProviderError('server', `${providerLabel} call failed: ${detail || String(err)}`);
}

function apiMessage(e: SdkLikeError): string {
  return e.error?.error?.message ?? e.error?.message ?? e.message ?? '';
}

/** Socket-level error codes (Node and undici) that mean the connection died, not that the request was wrong. */
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * True for a connection that died while the SDK was reading the answer: the SDKs do not wrap those
 * (undici throws `TypeError: terminated` with a socket error as its cause), so they are recognised here.
 */
export function isConnectionDrop(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (e instanceof TypeError && (message === 'terminated' || message === 'fetch failed')) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
