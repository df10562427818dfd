import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { CapabilityCatalog } from '../../../../src/core/llm/capabilities/catalog';
import { ModelWithoutToolsError } from '../../../../src/core/llm/provider-error';
import { ServerModelDirectory } from '../../../../src/core/llm/server-models/server-model-directory';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { recordingUI } from '../../../helpers/hook-workspace';

function catalog(): CapabilityCatalog {
  return new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home: mkdtempSync(join(tmpdir(), 'opendev-home-')) });
}

const modelListings = (fake: FakeProvider) => fake.listingRequests.filter((r) => r.path === '/v1/models').length;

describe('the models of an OpenAI-compatible server', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('lists GET /v1/models through the openai client, sorted, with the user\'s key, and keeps the listing for the session', async () => {
    fake.servedModels = ['qwen3-coder', 'gpt-oss-20b', 'deepseek-r1'];
    const directory = new ServerModelDirectory(catalog());
    const listing = await directory.list({ baseUrl: fake.openaiBaseUrl, apiKey: 'sk-local' });
    assert.ok(listing.ok, JSON.stringify(listing));
    assert.equal(listing.server, 'openai-compatible', 'no /api/version: not Ollama');
    assert.deepEqual(listing.models.map((m) => m.id), ['deepseek-r1', 'gpt-oss-20b', 'qwen3-coder']);
    const list = fake.listingRequests.find((r) => r.path === '/v1/models')!;
    assert.equal(list.headers.authorization, 'Bearer sk-local');

    // Asked again (the picker opened again, with a trailing slash): the kept listing, no request.
    fake.servedModels = ['new-model'];
    const again = await directory.list({ baseUrl: `${fake.openaiBaseUrl}/` });
    assert.deepEqual(again.ok && again.models.map((m) => m.id), ['deepseek-r1', 'gpt-oss-20b', 'qwen3-coder']);
    assert.equal(modelListings(fake), 1);

    // The refresh entry asks the server again.
    const refreshed = await directory.list({ baseUrl: fake.openaiBaseUrl }, { refresh: true });
    assert.deepEqual(refreshed.ok && refreshed.models.map((m) => m.id), ['new-model']);
    assert.equal(modelListings(fake), 2);
  });

  it('a server that does not answer is a clear failure, not kept: the next look asks again', async () => {
    const down = new FakeProvider();
    await down.start();
    const baseUrl = down.openaiBaseUrl;
    const port = Number(new URL(down.url).port);
    await down.stop();
    const directory = new ServerModelDirectory(catalog());
    const failed = await directory.list({ baseUrl });
    assert.equal(failed.ok, false);
    assert.ok(!failed.ok && failed.error.kind === 'unreachable', JSON.stringify(failed));
    assert.match(!failed.ok ? failed.error.message : '', new RegExp(`Cannot reach the model server at ${baseUrl.replace(/[.]/g, '\\.')}`));

    await down.start(port);
    try {
      down.servedModels = ['llama3.2'];
      const listing = await directory.list({ baseUrl });
      assert.deepEqual(listing.ok && listing.models.map((m) => m.id), ['llama3.2']);
    } finally {
      await down.stop();
    }
  });

  it('on Ollama, asks /api/show for each model\'s context window and tool support, and the catalogue then knows them', async () => {
    fake.servedModels = ['llama3.1:8b', 'gemma3:4b', 'tuned:latest'];
    fake.ollama = {
      'llama3.1:8b': { contextLength: 131_072 },
      'gemma3:4b': { arch: 'gemma3', contextLength: 131_072, capabilities: ['completion', 'vision'] },
      'tuned:latest': { contextLength: 131_072, numCtx: 16_384 },
    };
    const known = catalog();
    const listing = await new ServerModelDirectory(known).list({ baseUrl: fake.openaiBaseUrl });
    assert.ok(listing.ok && listing.server === 'ollama', JSON.stringify(listing));
    const byId = Object.fromEntries(listing.models.map((m) => [m.id, m.capabilities]));
    assert.equal(byId['llama3.1:8b']!.contextWindow, 131_072, "model_info's llama.context_length");
    assert.equal(byId['llama3.1:8b']!.toolCalls, true);
    assert.equal(byId['gemma3:4b']!.contextWindow, 131_072, "model_info's gemma3.context_length");
    assert.equal(byId['gemma3:4b']!.toolCalls, false, 'no "tools" in its capabilities');
    assert.equal(byId['gemma3:4b']!.vision, true);
    assert.equal(byId['tuned:latest']!.contextWindow, 16_384, "the Modelfile's num_ctx is what the server runs it with");
    assert.ok(listing.models.every((m) => m.capabilities.fromServer));
    assert.deepEqual(fake.listingRequests.filter((r) => r.path === '/api/show').map((r) => r.body.model).sort(), ['gemma3:4b', 'llama3.1:8b', 'tuned:latest']);

    // What the agent's compaction and the status bar read: this server's facts, no other server's.
    assert.equal(known.get('openai-compatible', 'tuned:latest', `${fake.openaiBaseUrl}/`).contextWindow, 16_384);
    assert.equal(known.get('openai-compatible', 'tuned:latest', 'http://127.0.0.1:1/v1').contextWindow, 128_000, 'another server: the default');
  });

  it('before the first turn, the configured model is described once (Ollama) and a model without tools is refused before any request', async () => {
    fake.ollama = { 'gemma3:4b': { arch: 'gemma3', contextLength: 32_768, capabilities: ['completion'] } };
    const known = catalog();
    const workspace = mkdtempSync(join(tmpdir(), 'opendev-models-'));
    const agent = await createMainAgent({
      roles: { action: { provider: 'openai-compatible', model: 'gemma3:4b', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home: join(workspace, '.home'),
      catalog: known,
    });
    try {
      assert.equal(known.get('openai-compatible', 'gemma3:4b', fake.openaiBaseUrl).contextWindow, 32_768);
      const result = await agent.runTurn('fix the bug in math.ts', recordingUI());
      assert.equal(result.status, 'failed');
      assert.ok(result.status === 'failed' && result.error instanceof ModelWithoutToolsError);
      assert.equal(result.status === 'failed' && result.error.kind, 'unsupported_model');
      assert.match(result.status === 'failed' ? result.error.message : '', /gemma3:4b cannot call tools/);
      assert.equal(fake.requests.length, 0, 'nothing was sent to the model');
      assert.equal(agent.messages.filter((m) => m.role === 'user').length, 0, 'the refused prompt is not kept');
    } finally {
      await agent.dispose();
    }
  });

  it('a model the server does not describe (not Ollama) keeps the catalogue\'s capabilities, asked once a session', async () => {
    const known = catalog();
    const directory = new ServerModelDirectory(known);
    await directory.describe({ baseUrl: fake.openaiBaseUrl }, 'gpt-4.1');
    await directory.describe({ baseUrl: fake.openaiBaseUrl }, 'gpt-4.1');
    assert.equal(fake.listingRequests.filter((r) => r.path === '/api/version').length, 1);
    const c = known.get('openai-compatible', 'gpt-4.1', fake.openaiBaseUrl);
    assert.equal(c.contextWindow, 1_047_576);
    assert.equal(c.toolCalls, true);
    assert.equal(c.fromServer, undefined);
  });
});
