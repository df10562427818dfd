// The provider request lines of a real agent run: the agent built by the real factory, the real SDKs,
// the fake provider on 127.0.0.1. A line must carry model, tokens and latency, and never the key,
// even when the server echoes the key back in an error (OpenAI's 401 does, in part).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { lineLogger } from '../../../../src/core/log-line';
import type { LogLevel } from '../../../../src/core/logger';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider } from '../../../fixtures/fake-provider';

const KEY = 'opendev-unit-key-4b7e9c21';

describe('provider request lines in the log', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let workspace: string;
  let home: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-log-ws-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-log-home-'));
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  async function run(prompt: string, level: LogLevel, wire: 'openai' | 'anthropic' = 'openai') {
    const lines: string[] = [];
    const logger = lineLogger((at, line) => lines.push(`[${at}] ${line}`), { level: () => level });
    const agent = await createMainAgent({
      roles: { action: { provider: wire, model: 'fake-model', apiKey: KEY, baseUrl: wire === 'openai' ? fake.openaiBaseUrl : fake.anthropicBaseUrl, maxAttempts: 3 } },
      workspaceRoot: workspace,
      home,
      undo: false,
      mcp: false,
      host: { logger },
    });
    try {
      const result = await agent.runTurn(prompt, silentUI);
      return { lines, result };
    } finally {
      await agent.dispose();
    }
  }

  for (const wire of ['openai', 'anthropic'] as const) {
    it(`writes one line per call with provider, model, tokens and latency (${wire}), and never the key`, async () => {
      fake.enqueue({ text: 'hello there', usage: { promptTokens: 321, outputTokens: 7 } });
      const { lines, result } = await run('say hello', 'info', wire);
      assert.equal(result.status, 'completed');
      const request = lines.find((l) => l.includes('provider request'));
      assert.ok(request, lines.join('\n'));
      assert.match(request, /^\[info\] provider request /);
      assert.match(request, new RegExp(`provider=${wire} model=fake-model purpose=action`));
      assert.match(request, /inputTokens=321 /);
      assert.match(request, /outputTokens=7 /);
      assert.match(request, /latencyMs=\d+ /);
      assert.match(request, /attempts=1 status=ok/);
      assert.match(lines.join('\n'), /session: agent built .*projectTrusted=false/);
      assert.ok(!lines.join('\n').includes(KEY));
      // The request itself did carry it: the line is clean because of the logger, not because it was absent.
      const sent = fake.requests[0]!.headers;
      assert.ok(sent.authorization === `Bearer ${KEY}` || sent['x-api-key'] === KEY);
    });
  }

  it('logs each retry with its attempt and reason, then the request with its attempt count', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 503 } }, { text: 'ok now' });
    const { lines, result } = await run('hi', 'info');
    assert.equal(result.status, 'completed');
    const retry = lines.find((l) => l.includes('provider retry'));
    assert.ok(retry, lines.join('\n'));
    assert.match(retry, /^\[warn\] provider retry provider=openai model=fake-model .*attempt=2 maxAttempts=3 delayMs=\d+ reason="a server error \(503\)"/);
    assert.match(lines.find((l) => l.includes('provider request'))!, /attempts=2 status=ok/);
  });

  it('logs a failed call at error level with the status, masking the key the server echoed back', async () => {
    fake.enqueue({ failure: { kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } } });
    const { lines, result } = await run('hi', 'info');
    assert.equal(result.status, 'failed');
    const failed = lines.find((l) => l.includes('provider request'));
    assert.ok(failed, lines.join('\n'));
    assert.match(failed, /^\[error\] provider request .*status=error errorKind=auth httpStatus=401 /);
    assert.match(failed, /\[REDACTED\]/);
    assert.ok(!lines.join('\n').includes(KEY), lines.join('\n'));
  });

  it('writes what was sent to the model only at trace', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    const info = await run('the secret plan is tuesday', 'info');
    assert.ok(!info.lines.join('\n').includes('tuesday'));
    const trace = await run('the secret plan is tuesday', 'trace');
    assert.match(trace.lines.join('\n'), /^\[trace\] provider request content .*the secret plan is tuesday/m);
    assert.ok(!trace.lines.join('\n').includes(KEY));
  });
});
