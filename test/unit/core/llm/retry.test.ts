import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProvider } from '../../../../src/core/llm/create-provider';
import { ProviderError } from '../../../../src/core/llm/provider-error';
import { backoffDelay, parseRetryAfter, resolveRetryPolicy } from '../../../../src/core/llm/retry';
import type { ProviderEvent } from '../../../../src/core/llm/provider';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { collect, finalText, providerFor, request, retries, WIRES } from './helpers';

function isProviderError(kind: ProviderError['kind']) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    return true;
  };
}

for (const wire of WIRES) {
  describe(`retries through the real ${wire} SDK`, () => {
    const fake = new FakeProvider();
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => fake.reset());

    it('waits exactly what a 429 retry-after asks, says so, and keeps only the second answer', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 1 } }, { text: 'second answer' });
      const events = await collect(providerFor(wire, fake).stream(request(), new AbortController().signal));

      const [retry, ...more] = retries(events);
      assert.equal(more.length, 0);
      assert.deepEqual(retry, { type: 'retry', attempt: 2, maxAttempts: 4, delayMs: 1000, reason: 'rate limited (429)' });
      assert.equal(fake.requests.length, 2);
      // The wait it announces is checked exactly above; the clock confirms only that it did wait (a
      // loaded machine may add to it, never take from it).
      const gap = fake.requests[1]!.at - fake.requests[0]!.at;
      assert.ok(gap >= 950, `retried after ${gap} ms`);
      assert.equal(finalText(events), 'second answer');
      assert.ok(events.some((e) => e.type === 'usage'));
    });

    it('retries a 500 twice, then succeeds', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 500 } }, { failure: { kind: 'status', status: 500 } }, { text: 'third time lucky' });
      const events = await collect(providerFor(wire, fake).stream(request(), new AbortController().signal));
      assert.deepEqual(
        retries(events).map((r) => [r.attempt, r.reason]),
        [
          [2, 'a server error (500)'],
          [3, 'a server error (500)'],
        ],
      );
      assert.ok(retries(events).every((r) => r.delayMs >= 1 && r.delayMs <= 10), 'test backoff is tiny');
      assert.equal(fake.requests.length, 3);
      assert.equal(finalText(events), 'third time lucky');
    });

    it('retries a stream cut mid-way: the retry event comes after the partial text', async () => {
      fake.enqueue(
        { text: 'partial answer that never ends', failure: { kind: 'cut', afterChunks: wire === 'openai' ? 2 : 4 } },
        { text: 'complete answer' },
      );
      const events = await collect(providerFor(wire, fake).stream(request(), new AbortController().signal));
      const retryAt = events.findIndex((e) => e.type === 'retry');
      assert.ok(retryAt > 0, 'a retry event');
      assert.ok(events.slice(0, retryAt).some((e) => e.type === 'text'), 'partial text came before the retry');
      assert.equal(retries(events)[0]!.reason, 'the connection dropped mid-answer');
      assert.equal(finalText(events), 'complete answer');
      assert.equal(fake.requests.length, 2);
    });

    it('never retries a 400', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 400 } }, { text: 'not reached' });
      const events: string[] = [];
      await assert.rejects(async () => {
        for await (const e of providerFor(wire, fake).stream(request(), new AbortController().signal)) events.push(e.type);
      }, isProviderError('bad_request'));
      assert.deepEqual(events, []);
      assert.equal(fake.requests.length, 1);
    });

    it('never retries a 401', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 401 } }, { text: 'not reached' });
      await assert.rejects(collect(providerFor(wire, fake).stream(request(), new AbortController().signal)), isProviderError('auth'));
      assert.equal(fake.requests.length, 1);
    });

    it('bounds the attempts: an endless 503 makes exactly maxAttempts requests, then a server error', async () => {
      fake.setResponder(() => ({ failure: { kind: 'status', status: 503 } }));
      const seen: number[] = [];
      await assert.rejects(async () => {
        for await (const e of providerFor(wire, fake).stream(request(), new AbortController().signal)) if (e.type === 'retry') seen.push(e.attempt);
      }, (err: unknown) => {
        isProviderError('server')(err);
        assert.match((err as Error).message, /\(503\).*gave up after 4 attempts/);
        return true;
      });
      assert.deepEqual(seen, [2, 3, 4]);
      assert.equal(fake.requests.length, 4);
    });

    it('takes maxAttempts from the settings', async () => {
      fake.setResponder(() => ({ failure: { kind: 'status', status: wire === 'anthropic' ? 529 : 502 } }));
      await assert.rejects(collect(providerFor(wire, fake, undefined, 2).stream(request(), new AbortController().signal)), isProviderError('server'));
      assert.equal(fake.requests.length, 2);
    });

    it('does not retry what the server marks x-should-retry: false', async () => {
      // The fake answers an unscripted request with a 500 carrying that header.
      await assert.rejects(collect(providerFor(wire, fake).stream(request(), new AbortController().signal)), isProviderError('server'));
      assert.equal(fake.requests.length, 1);
    });

    it('stops promptly with "aborted" when the user aborts during the backoff wait', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 30 } }, { text: 'not reached' });
      const controller = new AbortController();
      const started = Date.now();
      let sawRetry = false;
      await assert.rejects(async () => {
        for await (const e of providerFor(wire, fake).stream(request(), controller.signal)) {
          if (e.type === 'retry') {
            sawRetry = true;
            assert.equal(e.delayMs, 30_000);
            setTimeout(() => controller.abort(), 50);
          }
        }
      }, isProviderError('aborted'));
      assert.ok(sawRetry);
      assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms: it sat out much of the 30 s wait`);
      assert.equal(fake.requests.length, 1);
    });

    it('"Retry now" cuts a 30 s backoff wait short: the next attempt starts at once and answers', async () => {
      fake.enqueue({ failure: { kind: 'status', status: 429, retryAfterSeconds: 30 } }, { text: 'answered after retry now' });
      const started = Date.now();
      const events: ProviderEvent[] = [];
      for await (const e of providerFor(wire, fake).stream(request(), new AbortController().signal)) {
        events.push(e);
        if (e.type === 'retry') {
          assert.equal(e.delayMs, 30_000);
          assert.equal(typeof e.retryNow, 'function');
          e.retryNow!();
          e.retryNow!(); // pressed twice: harmless
        }
      }
      assert.equal(finalText(events), 'answered after retry now');
      assert.equal(fake.requests.length, 2);
      assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms: it sat out much of the 30 s wait`);
    });

    it('does not retry an abort while streaming', async () => {
      fake.enqueue({ text: 'a slow answer in pieces', chunkDelayMs: 100 }, { text: 'not reached' });
      const controller = new AbortController();
      await assert.rejects(async () => {
        for await (const e of providerFor(wire, fake).stream(request(), controller.signal)) if (e.type === 'text') controller.abort();
      }, isProviderError('aborted'));
      assert.equal(fake.requests.length, 1);
    });
  });
}

describe('retries without a server', () => {
  it('retries a refused connection, then reports the server as unreachable', async () => {
    const provider = createProvider(
      { provider: 'openai', model: 'm', apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', maxAttempts: 3 },
      { retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    );
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const e of provider.stream(request(), new AbortController().signal)) if (e.type === 'retry') seen.push(e.reason);
    }, isProviderError('unreachable'));
    assert.deepEqual(seen, ['the connection failed', 'the connection failed']);
  });
});

describe('an error event inside a stream', () => {
  /** Anthropic sends `overloaded_error` as an SSE error event after a 200; then a normal answer. */
  function sse(events: Array<Record<string, unknown>>): string {
    return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  }
  const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } };
  const answer = (text: string) => [
    start,
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: 'message_stop' },
  ];

  it('Anthropic: an overloaded_error mid-answer is retried', async () => {
    let n = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        n++;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (n === 1) {
          res.end(sse([...answer('half').slice(0, 3), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]));
        } else res.end(sse(answer('whole answer')));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const provider = createProvider(
        { provider: 'anthropic', model: 'm', apiKey: 'k', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
        { retry: { baseDelayMs: 1, maxDelayMs: 2 } },
      );
      const events = await collect(provider.stream(request(), new AbortController().signal));
      assert.deepEqual(retries(events).map((r) => r.reason), ['overloaded mid-answer']);
      assert.equal(finalText(events), 'whole answer');
      assert.equal(n, 2);
    } finally {
      await new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
    }
  });
});

describe('retry timing rules', () => {
  const cap = 60_000;
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('reads retry-after in seconds, as an HTTP date, and retry-after-ms first', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '3' }), cap, now), 3000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '0.5' }), cap, now), 500);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 01 Jun 2025 12:00:07 GMT' }), cap, now), 7000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }), cap, now), 0);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), cap, now), 250);
    assert.equal(parseRetryAfter({ 'retry-after': '2' }, cap, now), 2000);
  });

  it('caps a server-requested wait at 60 s and ignores nonsense', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '3600' }), cap, now), 60_000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), cap, now), undefined);
    assert.equal(parseRetryAfter(new Headers({}), cap, now), undefined);
    assert.equal(parseRetryAfter(undefined, cap, now), undefined);
  });

  it('backs off exponentially from 500 ms with jitter, capped at 30 s', () => {
    const low = resolveRetryPolicy({ random: () => 0 });
    const high = resolveRetryPolicy({ random: () => 0.999999 });
    assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay(n, low)), [250, 500, 1000, 2000]);
    assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay(n, high)), [500, 1000, 2000, 4000]);
    assert.equal(backoffDelay(20, high), 30_000);
    assert.equal(backoffDelay(20, low), 15_000);
    assert.equal(resolveRetryPolicy().maxAttempts, 4);
    assert.equal(resolveRetryPolicy({ maxAttempts: 0 }).maxAttempts, 1);
  });
});
