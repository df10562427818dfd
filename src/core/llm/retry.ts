// Our own retry loop around a provider call (the SDKs' retries are off: `maxRetries: 0`), so every
// retry is visible to the user as a `retry` event and every wait honours the AbortSignal.
import { DEFAULT_MAX_ATTEMPTS } from '../config/provider-settings';
import type { ProviderEvent } from './provider';
import { isConnectionDrop, ProviderError, type SdkErrorClasses } from './provider-error';

export interface RetryPolicy {
  /** Total attempts, the first one included (≥ 1). */
  maxAttempts: number;
  /** Backoff before the first retry; doubled for each further one, with jitter. */
  baseDelayMs: number;
  /** Backoff ceiling. */
  maxDelayMs: number;
  /** Ceiling on a server-requested wait (`retry-after`, `retry-after-ms`). */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1); injectable so tests are deterministic. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as Partial<RetryPolicy>;
  const policy = { ...DEFAULT_RETRY_POLICY, ...defined };
  return { ...policy, maxAttempts: Math.max(1, Math.floor(policy.maxAttempts)) };
}

export interface RetryDecision {
  retryable: boolean;
  /** For the user: "rate limited (429)", "the connection dropped mid-answer", … */
  reason: string;
  /** The wait the server asked for, already capped. */
  retryAfterMs?: number;
}

/** Anything with a header lookup: the SDKs' fetch `Headers`, or a plain record. */
type HeaderBag = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The wait a response asks for: `retry-after-ms` (milliseconds), else `retry-after` in seconds or as
 * an HTTP date. Capped at `capMs`; undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderBag | undefined, capMs: number, now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return Math.min(capMs, Math.round(n));
  }
  const after = header(headers, 'retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.min(capMs, Math.round(Number(after) * 1000));
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.min(capMs, Math.max(0, date - now));
}

/** Exponential backoff with jitter for the retry after failed attempt `attempt` (1-based): in [d/2, d]. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

const STATUS_REASONS: Record<number, string> = {
  408: 'the request timed out (408)',
  409: 'a conflict (409)',
  429: 'rate limited (429)',
  529: 'overloaded (529)',
};

/** Error types the APIs send in a stream's error event, when they are worth another try. */
const RETRYABLE_ERROR_TYPES: Record<string, string> = {
  overloaded_error: 'overloaded mid-answer',
  api_error: 'a server error mid-answer',
  server_error: 'a server error mid-answer',
  rate_limit_error: 'rate limited mid-answer',
  timeout_error: 'a server timeout mid-answer',
};

function errorType(err: unknown): string | undefined {
  const e = err as { type?: unknown; error?: { type?: unknown; error?: { type?: unknown } } } | null;
  const type = e?.type ?? e?.error?.error?.type ?? e?.error?.type;
  return typeof type === 'string' ? type : undefined;
}

/** Whether a failed attempt may be retried: 408, 409, 429, 5xx, and lost connections. Never aborts, 4xx. */
export function retryDecision(err: unknown, sdk: SdkErrorClasses, policy: RetryPolicy, signal?: AbortSignal): RetryDecision {
  if (signal?.aborted || err instanceof sdk.abort || (err as { name?: unknown } | null)?.name === 'AbortError') {
    return { retryable: false, reason: 'stopped' };
  }
  if (err instanceof ProviderError) return { retryable: false, reason: err.message };
  const e = (err ?? {}) as { status?: unknown; headers?: HeaderBag };
  if (typeof e.status === 'number') {
    const status = e.status;
    const reason = STATUS_REASONS[status] ?? (status >= 500 ? `a server error (${status})` : `status ${status}`);
    // The official APIs say explicitly when a retry is pointless or wanted (the SDKs honour this too).
    const should = header(e.headers, 'x-should-retry');
    const retryable = should === 'true' ? true : should === 'false' ? false : status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, reason, retryAfterMs: retryable ? parseRetryAfter(e.headers, policy.maxRetryAfterMs) : undefined };
  }
  // An error event inside a 200 stream (Anthropic "overloaded" mid-answer): no status, only a type.
  const type = errorType(err);
  if (type && RETRYABLE_ERROR_TYPES[type]) return { retryable: true, reason: RETRYABLE_ERROR_TYPES[type] };
  if (err instanceof sdk.connection) return { retryable: true, reason: 'the connection failed' };
  if (isConnectionDrop(err)) return { retryable: true, reason: 'the connection dropped mid-answer' };
  return { retryable: false, reason: err instanceof Error ? err.message : String(err) };
}

/**
 * Resolves after `ms`, or early as soon as `wake` fires (the user asked to retry now); rejects with
 * ProviderError('aborted') as soon as `signal` fires.
 */
export function abortableSleep(ms: number, signal: AbortSignal, wake?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(stopped());
    if (wake?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      wake?.removeEventListener('abort', onWake);
    };
    const onAbort = (): void => {
      done();
      reject(stopped());
    };
    const onWake = (): void => {
      done();
      resolve();
    };
    const timer = setTimeout(onWake, ms);
    signal.addEventListener('abort', onAbort, { once: true });
    wake?.addEventListener('abort', onWake, { once: true });
  });
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw stopped();
}

function stopped(): ProviderError {
  return new ProviderError('aborted', 'The request was stopped.');
}

export interface RetryLoopOptions {
  policy: RetryPolicy;
  signal: AbortSignal;
  sdk: SdkErrorClasses;
  /** The final error the caller sees (toProviderError with the provider's label and URL). */
  classify: (err: unknown) => ProviderError;
}

/**
 * Runs `attempt` until it completes, yielding its events as they come. On a retryable failure it
 * yields `{ type: 'retry', attempt, maxAttempts, delayMs, reason, retryNow }` — `attempt` is the number of the
 * attempt about to start (2 for the first retry) — waits (until `retryNow` is called, at most `delayMs`), and starts over; the consumer discards
 * whatever the failed attempt streamed. Gives up with the classified ProviderError.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<ProviderEvent>,
  options: RetryLoopOptions,
): AsyncGenerator<ProviderEvent, void, undefined> {
  const { policy, signal } = options;
  for (let n = 1; ; n++) {
    if (signal.aborted) throw stopped();
    try {
      yield* attempt();
      return;
    } catch (err) {
      if (signal.aborted) throw stopped();
      const decision = retryDecision(err, options.sdk, policy, signal);
      if (!decision.retryable) throw options.classify(err);
      if (n >= policy.maxAttempts) throw gaveUp(options.classify(err), n);
      const delayMs = decision.retryAfterMs ?? backoffDelay(n, policy);
      // One waker per wait: a late "Retry now" for an earlier wait does nothing to this one.
      const wake = new AbortController();
      yield { type: 'retry', attempt: n + 1, maxAttempts: policy.maxAttempts, delayMs, reason: decision.reason, retryNow: () => wake.abort() };
      await abortableSleep(delayMs, signal, wake.signal);
    }
  }
}

function gaveUp(error: ProviderError, attempts: number): ProviderError {
  if (attempts <= 1) return error;
  const final = new ProviderError(error.kind, `${error.message.replace(/\s+$/, '')} (gave up after ${attempts} attempts)`, error.status);
  final.stack = error.stack;
  return final;
}
