import { ToolError } from '../tool-result';
import { assertReachable, type HostLookup } from './address-guard';
import { httpStatusFailure, networkFailure } from './network-errors';

/** Sent with every request: some sites refuse clients that do not look like a browser. */
export const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 OpenDev';

export interface FetchOptions {
  timeoutMs: number;
  /** Bytes read at most; the rest of the body is dropped and `truncated` set. */
  maxBytes: number;
  signal?: AbortSignal;
  accept?: string;
  /** Resolves host names for the address check (tests give names their own addresses). */
  lookup?: HostLookup;
}

/** A response whose status was fine, before its body is read: the caller decides from the type. */
export interface OpenedResponse {
  /** After redirects. */
  url: string;
  redirected: boolean;
  status: number;
  /** `text/html`, lower case, without parameters ('' when the server sent none). */
  mediaType: string;
  charset?: string;
  /** Content-Length when the server sent it. */
  declaredBytes?: number;
  /** Reads the body (at most `maxBytes`) as text in the response's charset. */
  text(): Promise<{ text: string; bytes: number; truncated: boolean }>;
  /** The first bytes only (to tell text from binary when the type is missing). */
  peek(): Promise<Buffer>;
  /** Drops the body unread. */
  discard(): void;
}

/** The fetch standard's limit. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A GET with a deadline covering the whole exchange, redirects followed (each hop checked by
 * the address guard: no link-local or metadata address, however the agent is led there), the
 * body read only on request and never beyond `maxBytes`. Network failures, refused addresses and
 * HTTP error statuses throw typed ToolErrors; the caller's own cancellation throws an AbortError.
 */
export async function openUrl(url: URL, options: FetchOptions): Promise<OpenedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let current = url;
  let response: Response;
  for (let hop = 0; ; hop++) {
    await assertReachable(current, options.lookup);
    try {
      response = await fetch(current, {
        redirect: 'manual',
        signal,
        headers: { 'user-agent': USER_AGENT, accept: options.accept ?? 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5', 'accept-language': 'en;q=0.9,*;q=0.5' },
      });
    } catch (err) {
      throw networkFailure(err, current, options.timeoutMs);
    }
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) break;
    void response.body?.cancel().catch(() => undefined);
    if (hop === MAX_REDIRECTS) throw new ToolError('other', `${url.href} redirects more than ${MAX_REDIRECTS} times.`);
    current = redirectTarget(location, current);
  }
  if (!response.ok) {
    void response.body?.cancel().catch(() => undefined);
    throw httpStatusFailure(response.status, response.statusText, current.href);
  }
  const [mediaType = '', ...params] = (response.headers.get('content-type') ?? '').split(';').map((p) => p.trim());
  const charset = params.find((p) => /^charset=/i.test(p))?.slice('charset='.length).replace(/"/g, '');
  const length = Number(response.headers.get('content-length'));
  const body = new CappedBody(response, options.maxBytes, (err) => networkFailure(err, current, options.timeoutMs));
  return {
    url: current.href,
    redirected: current !== url,
    status: response.status,
    mediaType: mediaType.toLowerCase(),
    ...(charset ? { charset } : {}),
    ...(Number.isFinite(length) && response.headers.has('content-length') ? { declaredBytes: length } : {}),
    async text() {
      const { bytes, truncated } = await body.read(options.maxBytes);
      return { text: decode(bytes, charset), bytes: bytes.length, truncated };
    },
    async peek() {
      return (await body.read(PEEK_BYTES)).bytes.subarray(0, PEEK_BYTES);
    },
    discard() {
      body.discard();
    },
  };
}

const PEEK_BYTES = 1024;

/** A Location header against the page that sent it; only http(s) may follow. */
function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ToolError('other', `${from.href} redirects to "${location}", which is not a valid URL.`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new ToolError('other', `${from.href} redirects to ${next.protocol} addresses, which are not fetched.`);
  return next;
}

/** A response body read on demand, a little (to sniff it) or up to the cap, never beyond. */
class CappedBody {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly parts: Buffer[] = [];
  private size = 0;
  private done: boolean;

  constructor(
    response: Response,
    private readonly maxBytes: number,
    private readonly failure: (err: unknown) => Error,
  ) {
    this.reader = response.body?.getReader();
    this.done = !this.reader;
  }

  /** At least `want` bytes when the body has them; `truncated` once the cap cut it short. */
  async read(want: number): Promise<{ bytes: Buffer; truncated: boolean }> {
    try {
      while (!this.done && this.size < Math.min(want, this.maxBytes)) {
        const { value, done } = await this.reader!.read();
        if (done) this.done = true;
        else {
          this.parts.push(Buffer.from(value));
          this.size += value.byteLength;
        }
      }
    } catch (err) {
      throw this.failure(err);
    }
    const truncated = !this.done && this.size >= this.maxBytes;
    if (truncated) this.discard();
    return { bytes: Buffer.concat(this.parts).subarray(0, this.maxBytes), truncated };
  }

  discard(): void {
    if (this.done) return;
    this.done = true;
    void this.reader?.cancel().catch(() => undefined);
  }
}

function decode(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
