// `opendev models` through the real CLI (`dist/cli.js` in a child process) against the fake provider.
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

describe('opendev models', function () {
  this.timeout(90_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: string;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = mkdtempSync(join(tmpdir(), 'opendev-cli-models-'));
  });

  it('lists an Ollama server\'s models with their context windows, flags the one without tool calling, and stars the current one', async () => {
    fake.servedModels = ['qwen3:8b', 'gemma3:4b'];
    fake.ollama = { 'qwen3:8b': { arch: 'qwen3', contextLength: 40_960 }, 'gemma3:4b': { arch: 'gemma3', contextLength: 131_072, capabilities: ['completion', 'vision'] } };
    const run = await opendev(['models', '-C', ws, '--provider', 'openai-compatible', '-m', 'qwen3:8b'], { OPENAI_BASE_URL: fake.openaiBaseUrl, OPENAI_API_KEY: 'sk-local', OPENDEV_HOME: home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [`Models of Ollama at ${fake.openaiBaseUrl}:`, '  gemma3:4b  131k context · vision · no tool calling: the agent cannot act with it', '* qwen3:8b  41k context', ''].join('\n'),
    );
    assert.equal(fake.listingRequests.find((r) => r.path === '/v1/models')?.headers.authorization, 'Bearer sk-local');
    assert.equal(fake.requests.length, 0, 'no model was called');
  });

  it('says so (exit 1) when the server does not answer, and names the missing address (exit 2)', async () => {
    const down = new FakeProvider();
    await down.start();
    const baseUrl = down.openaiBaseUrl;
    await down.stop();
    const failed = await opendev(['models', '-C', ws, '--provider', 'openai-compatible'], { OPENAI_BASE_URL: baseUrl, OPENDEV_HOME: home });
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, new RegExp(`opendev models: Cannot reach the model server at ${baseUrl.replace(/[.]/g, '\\.')}`));
    const missing = await opendev(['models', '-C', ws, '--provider', 'openai-compatible'], { OPENDEV_HOME: home });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no address is set/);
  });

  it('lists the catalogue\'s models for a cloud provider, without a key', async () => {
    const run = await opendev(['models', '-C', ws, '--provider', 'anthropic'], { OPENDEV_HOME: home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Models of Anthropic \(from the model catalogue\):\n/);
    assert.match(run.stdout, /\* claude-sonnet-4-5 {2}200k context · vision/);
  });
});
