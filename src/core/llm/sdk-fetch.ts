// The `fetch` the OpenAI and Anthropic SDKs are given: a request over node:http / node:https, so the
// first model request does not wait for Node to load its own fetch (undici, about 60 ms at start-up;
// see sdk-web-globals.ts for the SDKs' other use of it). The answer streams as a web ReadableStream
// (server-sent events arrive as they are sent), an abort ends the request or the stream with an
// AbortError, and a failure to connect rejects as undici's does (TypeError "fetch failed", the
// system error as its cause), which the SDKs turn into their connection errors. Whatever this does
// not do as undici would goes to the global fetch: a proxy in the environment, a redirect, a body
// that is not text or bytes, another scheme.
import type { IncomingMessage } from 'node:http';

type FetchInput = string | URL | { url: string };
interface FetchInit {
  method?: string;
  headers?: unknown;
  body?: unknown;
  signal?: AbortSignal | null;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** A fetch for the SDKs: node:http where it behaves as the global fetch would, the global fetch elsewhere. */
export function sdkFetch(input: FetchInput, init: FetchInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const body = init.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
  const proxied = PROXY_VARIABLES.some((name) => process.env[name]);
  if (proxied || !plainBody || (url.protocol !== 'http:' && url.protocol !== 'https:')) return globalThis.fetch(input as string, init as RequestInit);
  return new Promise<Response>((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(abortError(signal));
    const request = transportFor(url.protocol).request(url, { method: init.method ?? 'GET', headers: headerRecord(init.headers), agent: agentFor(url.protocol) });
    const onAbort = () => request.destroy(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err: Error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(err.name === 'AbortError' ? err : new TypeError('fetch failed', { cause: err }));
    });
    request.on('response', (res: IncomingMessage) => {
      if (REDIRECT.has(res.statusCode ?? 0) && res.headers.location) {
        // The global fetch follows redirects by the standard's rules: let it make this request.
        res.resume();
        signal?.removeEventListener('abort', onAbort);
        resolve(globalThis.fetch(input as string, init as RequestInit));
        return;
      }
      resolve(toResponse(res, url, signal, () => signal?.removeEventListener('abort', onAbort)));
    });
    request.end(body === undefined || body === null ? undefined : typeof body === 'string' ? body : Buffer.from(body as Uint8Array));
  });
}

/** node:https or node:http, required on first use (start-up loads neither). */
function transportFor(protocol: string): typeof import('node:http') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (protocol === 'https:' ? require('node:https') : require('node:http')) as typeof import('node:http');
}

let agents: Map<string, import('node:http').Agent> | undefined;

/** One keep-alive agent per scheme, as undici keeps its connections: idle sockets do not hold the process. */
function agentFor(protocol: string): import('node:http').Agent {
  agents ??= new Map();
  let agent = agents.get(protocol);
  if (!agent) {
    agent = new (transportFor(protocol).Agent)({ keepAlive: true });
    agents.set(protocol, agent);
  }
  return agent;
}

function headerRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined || headers === null) return out;
  const pairs = Symbol.iterator in Object(headers) ? (headers as Iterable<[string, string]>) : Object.entries(headers as Record<string, string>);
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : String(value);
  }
  return out;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

/** The response as a fetch Response: status, headers, and the body as a stream read as it arrives. */
function toResponse(res: IncomingMessage, url: URL, signal: AbortSignal | undefined, done: () => void): Response {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Headers } = require('./sdk-web-globals') as typeof import('./sdk-web-globals');
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const source = decoded(res);
  res.on('close', done);
  // Node's events may come after the stream ended (an error after the end, an abort after an
  // error): the first ending wins, so nothing throws inside an event handler.
  let open = true;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, err: Error) => {
    if (!open) return;
    open = false;
    controller.error(err.name === 'AbortError' ? err : signal?.aborted ? abortError(signal) : new TypeError('terminated', { cause: err }));
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      source.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      source.on('end', () => {
        if (!open) return;
        open = false;
        controller.close();
      });
      source.on('error', (err: Error) => fail(controller, err));
      res.on('aborted', () => fail(controller, new Error('aborted')));
      res.on('error', (err: Error) => fail(controller, err));
    },
    pull() {
      source.resume();
    },
    cancel() {
      open = false;
      res.destroy();
    },
  });
  let used = false;
  const read = async (): Promise<Buffer> => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    const chunks: Uint8Array[] = [];
    const reader = stream.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) return Buffer.concat(chunks);
      chunks.push(value);
    }
  };
  const status = res.statusCode ?? 0;
  const response = {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    headers,
    url: url.href,
    redirected: false,
    type: 'basic',
    body: stream,
    get bodyUsed() {
      return used || stream.locked;
    },
    text: async () => (await read()).toString('utf8'),
    json: async () => JSON.parse((await read()).toString('utf8')) as unknown,
    arrayBuffer: async () => {
      const bytes = await read();
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
  };
  return response as unknown as Response;
}

/** The body as sent, decompressed when the server compressed it (the global fetch does the same). */
function decoded(res: IncomingMessage): import('node:stream').Readable {
  const encoding = res.headers['content-encoding']?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return res;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const zlib = require('node:zlib') as typeof import('node:zlib');
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}
