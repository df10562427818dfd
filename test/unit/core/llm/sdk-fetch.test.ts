// The SDKs' fetch over node:http (src/core/llm/sdk-fetch.ts) against a real local HTTP server, and
// the SDKs' Headers (src/core/llm/sdk-web-globals.ts) against Node's own.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sdkFetch } from '../../../../src/core/llm/sdk-fetch';
import { Headers as SdkHeaders, FormData as SdkFormData } from '../../../../src/core/llm/sdk-web-globals';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

const text = (chunk: Uint8Array | undefined) => Buffer.from(chunk ?? new Uint8Array()).toString('utf8');

describe('sdkFetch', () => {
  it('sends the method, headers and body, and answers with status, headers and JSON', async () => {
    let seen: { method?: string; auth?: string; type?: string; body?: string } = {};
    const { url, server } = await serve((req, res, body) => {
      seen = { method: req.method, auth: req.headers.authorization, type: req.headers['content-type'], body };
      res.setHeader('x-request-id', 'req_1');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"no such model"}}');
    });
    try {
      const response = await sdkFetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: new SdkHeaders([['Authorization', 'Bearer k'], ['Content-Type', 'application/json']]),
        body: '{"model":"m"}',
      });
      assert.deepEqual(seen, { method: 'POST', auth: 'Bearer k', type: 'application/json', body: '{"model":"m"}' });
      assert.equal(response.status, 404);
      assert.equal(response.ok, false);
      assert.equal(response.headers.get('X-Request-Id'), 'req_1');
      assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
      assert.deepEqual(await response.json(), { error: { message: 'no such model' } });
      assert.equal(response.bodyUsed, true);
      await assert.rejects(response.text(), TypeError, 'a body is read once');
    } finally {
      await close(server);
    }
  });

  it('streams server-sent events as they are sent', async () => {
    let sendSecond!: () => void;
    const secondAllowed = new Promise<void>((resolve) => (sendSecond = resolve));
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      void secondAllowed.then(() => res.end('data: {"n":2}\n\ndata: [DONE]\n\n'));
    });
    try {
      const response = await sdkFetch(url, { method: 'POST', body: '{}' });
      const reader = response.body!.getReader();
      // The first event arrives while the server still holds the second back.
      assert.equal(text((await reader.read()).value), 'data: {"n":1}\n\n');
      sendSecond();
      let rest = '';
      for (let r = await reader.read(); !r.done; r = await reader.read()) rest += text(r.value);
      assert.equal(rest, 'data: {"n":2}\n\ndata: [DONE]\n\n');
    } finally {
      await close(server);
    }
  });

  it('an abort during the stream ends it with an AbortError and closes the connection', async () => {
    let serverSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (serverSawClose = resolve));
    const { url, server } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      req.socket.on('close', () => serverSawClose());
    });
    try {
      const controller = new AbortController();
      const response = await sdkFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
      const reader = response.body!.getReader();
      assert.equal(text((await reader.read()).value), 'data: {"n":1}\n\n');
      controller.abort();
      await assert.rejects(reader.read(), (err: Error) => err.name === 'AbortError');
      await closed;
    } finally {
      await close(server);
    }
  });

  it('an abort before the answer, or an aborted signal, rejects with an AbortError', async () => {
    const { url, server } = await serve(() => undefined);
    try {
      const controller = new AbortController();
      const pending = sdkFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
      controller.abort();
      await assert.rejects(pending, (err: Error) => err.name === 'AbortError');
      await assert.rejects(sdkFetch(url, { signal: AbortSignal.abort() }), (err: Error) => err.name === 'AbortError');
    } finally {
      await close(server);
    }
  });

  it('a refused connection rejects as the global fetch does: TypeError, the system error as its cause', async () => {
    const { url, server } = await serve(() => undefined);
    await close(server);
    const failures = await Promise.all([sdkFetch(url).catch((e: unknown) => e), fetch(url).catch((e: unknown) => e)]);
    for (const err of failures as Array<TypeError & { cause: { code: string } }>) {
      assert.ok(err instanceof TypeError);
      assert.equal(err.message, 'fetch failed');
      assert.equal(err.cause.code, 'ECONNREFUSED');
    }
  });

  it('decompresses a compressed answer', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      res.end(gzipSync('{"ok":true}'));
    });
    try {
      assert.deepEqual(await (await sdkFetch(url)).json(), { ok: true });
    } finally {
      await close(server);
    }
  });

  it('leaves a redirect and a proxy in the environment to the global fetch', async () => {
    const { url, server } = await serve((req, res) => {
      if (req.url === '/old') res.writeHead(307, { location: '/new' }).end();
      else res.end(`at ${req.url}`);
    });
    const saved = process.env.HTTPS_PROXY;
    const real = globalThis.fetch;
    try {
      assert.equal(await (await sdkFetch(`${url}/old`)).text(), 'at /new');
      let delegated: unknown;
      globalThis.fetch = (async (input: unknown) => {
        delegated = input;
        return new Response('via the global fetch');
      }) as typeof fetch;
      process.env.HTTPS_PROXY = 'http://proxy.invalid:3128';
      assert.equal(await (await sdkFetch(`${url}/x`)).text(), 'via the global fetch');
      assert.equal(delegated, `${url}/x`);
    } finally {
      globalThis.fetch = real;
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
      await close(server);
    }
  });
});

describe("the SDKs' Headers", () => {
  it('reads as Node’s Headers after the same operations', () => {
    const ops = (h: { append(n: string, v: string): void; set(n: string, v: string): void; delete(n: string): void }) => {
      h.append('X-B', ' two ');
      h.append('x-a', 'one');
      h.append('X-A', 'uno');
      h.set('Content-Type', 'application/json');
      h.append('Set-Cookie', 'a=1');
      h.append('set-cookie', 'b=2');
      h.append('x-gone', 'soon');
      h.delete('X-Gone');
    };
    const ours = new SdkHeaders();
    const node = new Headers();
    ops(ours);
    ops(node);
    assert.deepEqual([...ours], [...node]);
    for (const name of ['x-a', 'X-B', 'content-type', 'x-gone', 'set-cookie']) assert.equal(ours.get(name), node.get(name), name);
    assert.equal(ours.has('X-A'), node.has('X-A'));
    assert.deepEqual(ours.getSetCookie(), node.getSetCookie());
    assert.deepEqual([...new SdkHeaders({ A: '1' })], [...new Headers({ A: '1' })]);
    assert.deepEqual([...new SdkHeaders(node)], [...node]);
  });

  it('counts Node’s Headers and FormData as theirs, and builds Node’s FormData', () => {
    assert.ok(new Headers() instanceof SdkHeaders);
    assert.ok(new SdkHeaders() instanceof SdkHeaders);
    assert.ok(!({} instanceof SdkHeaders));
    const form = new SdkFormData() as unknown as FormData;
    assert.ok(form instanceof globalThis.FormData);
    assert.ok(new globalThis.FormData() instanceof SdkFormData);
    assert.ok(!(new URLSearchParams() instanceof SdkFormData));
  });
});
