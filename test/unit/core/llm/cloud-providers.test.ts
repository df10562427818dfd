// Each cloud provider through its official SDK against the fake provider speaking that cloud's wire
// shape: Azure's URL and headers, Bedrock's signed request and event stream, Vertex's rewritten path
// and bearer token, Gemini's and OpenRouter's paths and headers; a streamed answer with a tool call each.
import * as assert from 'node:assert/strict';
import { createProvider } from '../../../../src/core/llm/create-provider';
import type { ProviderSettings } from '../../../../src/core/config/provider-settings';
import type { ProviderEvent } from '../../../../src/core/llm/provider';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { collect, FAST_RETRY, request } from './helpers';

const readFileTool = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } };
const turn = { text: 'Reading it.', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { file_path: 'src/a.ts' } }] };

function run(settings: ProviderSettings, model = settings.model): Promise<ProviderEvent[]> {
  const provider = createProvider(settings, { retry: FAST_RETRY });
  return collect(provider.stream(request({ model, tools: [readFileTool] }), new AbortController().signal));
}

/** The text, the tool call and a usage report: a complete streamed turn. */
function assertStreamedTurn(events: ProviderEvent[]): void {
  const text = events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
  assert.equal(text, 'Reading it.');
  assert.ok(events.filter((e) => e.type === 'text').length > 1, 'the text arrives in several deltas');
  const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.name, 'read_file');
  assert.deepEqual(JSON.parse(calls[0]!.arguments), { file_path: 'src/a.ts' });
  assert.ok(events.some((e) => e.type === 'usage' && e.usage.outputTokens > 0));
}

describe('cloud providers on their wire formats (official SDKs, fake provider)', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  describe('Azure OpenAI', () => {
    it('posts to /openai/deployments/<deployment>/chat/completions?api-version=… with the api-key header', async () => {
      fake.enqueue(turn);
      const events = await run({ provider: 'azure-openai', model: 'gpt-4.1', apiKey: 'azure-key-123', baseUrl: fake.cloudEndpoint, cloud: { azureDeployment: 'my-gpt', azureApiVersion: '2025-04-01-preview' } });
      assertStreamedTurn(events);
      const sent = fake.requests[0]!;
      assert.equal(sent.cloud, 'azure');
      assert.equal(sent.path, '/openai/deployments/my-gpt/chat/completions?api-version=2025-04-01-preview');
      assert.equal(sent.headers['api-key'], 'azure-key-123');
      assert.equal(sent.headers.authorization, undefined, 'a key goes in api-key, not as a bearer token');
      assert.equal(sent.body.tools[0].function.name, 'read_file');
    });

    it('without a deployment the model names it; the default API version; an Entra ID token as a bearer token', async () => {
      fake.enqueue(turn);
      const events = await run({ provider: 'azure-openai', model: 'gpt-4o-prod', baseUrl: fake.cloudEndpoint, cloud: { azureAdToken: 'entra-token-xyz' } });
      assertStreamedTurn(events);
      const sent = fake.requests[0]!;
      assert.equal(sent.path, '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
      assert.equal(sent.headers.authorization, 'Bearer entra-token-xyz');
      assert.equal(sent.headers['api-key'], undefined);
    });

    it('is not created without an endpoint, nor without a key or a token', () => {
      assert.throws(() => createProvider({ provider: 'azure-openai', model: 'gpt-4.1', apiKey: 'k' }), { name: 'MissingBaseUrlError' });
      assert.throws(() => createProvider({ provider: 'azure-openai', model: 'gpt-4.1', baseUrl: fake.cloudEndpoint }), { name: 'MissingApiKeyError' });
    });
  });

  describe('Amazon Bedrock', () => {
    const model = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

    it('posts a SigV4-signed request to /model/<id>/invoke-with-response-stream and reads the AWS event stream back', async () => {
      fake.enqueue(turn);
      const events = await run({
        provider: 'bedrock',
        model,
        baseUrl: fake.cloudEndpoint,
        cloud: { awsRegion: 'eu-west-1', awsCredentials: { accessKeyId: 'AKIAFAKEFAKE', secretAccessKey: 'fake-secret', sessionToken: 'fake-session' } },
      });
      assertStreamedTurn(events);
      const sent = fake.requests[0]!;
      assert.equal(sent.cloud, 'bedrock');
      assert.equal(sent.path, `/model/${model}/invoke-with-response-stream`);
      assert.equal(sent.pathModel, model);
      const auth = String(sent.headers.authorization);
      assert.match(auth, /^AWS4-HMAC-SHA256 Credential=AKIAFAKEFAKE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/);
      assert.equal(sent.headers['x-amz-security-token'], 'fake-session');
      assert.ok(sent.headers['x-amz-date']);
      assert.match(sent.body.anthropic_version, /^(bedrock-)?\d{4}-\d{2}-\d{2}$/, 'the API version moves into the body, as Bedrock takes it');
      assert.equal(sent.body.model, undefined, 'the model is in the path');
      assert.equal(sent.body.tools[0].name, 'read_file');
    });

    it('a Bedrock API key goes as a bearer token, unsigned', async () => {
      fake.enqueue(turn);
      assertStreamedTurn(await run({ provider: 'bedrock', model, apiKey: 'bedrock-api-key-1', baseUrl: fake.cloudEndpoint, cloud: { awsRegion: 'us-east-1' } }));
      assert.equal(fake.requests[0]!.headers.authorization, 'Bearer bedrock-api-key-1');
    });
  });

  describe('Google Vertex AI', () => {
    it('posts to /v1/projects/<p>/locations/<r>/publishers/anthropic/models/<m>:streamRawPredict with the bearer token', async () => {
      fake.enqueue(turn);
      const events = await run({ provider: 'vertex', model: 'claude-sonnet-4-5@20250929', apiKey: 'ya29.fake-token', baseUrl: fake.vertexBaseUrl, cloud: { vertexProjectId: 'my-project-123', vertexRegion: 'us-east5' } });
      assertStreamedTurn(events);
      const sent = fake.requests[0]!;
      assert.equal(sent.cloud, 'vertex');
      assert.equal(sent.path, '/v1/projects/my-project-123/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict');
      assert.equal(sent.headers.authorization, 'Bearer ya29.fake-token');
      // The SDK moves the API version from its header into the body, as Vertex takes it.
      assert.match(sent.body.anthropic_version, /^(vertex-)?\d{4}-\d{2}-\d{2}$/);
      assert.equal(sent.headers['anthropic-version'], undefined);
      assert.equal(sent.body.model, undefined, 'the model is in the path');
      assert.equal(sent.body.tools[0].name, 'read_file');
    });
  });

  describe('Gemini', () => {
    it('posts Chat Completions to …/v1beta/openai/chat/completions with the key as a bearer token', async () => {
      fake.enqueue(turn);
      assertStreamedTurn(await run({ provider: 'gemini', model: 'gemini-2.5-pro', apiKey: 'gemini-key-1', baseUrl: fake.geminiBaseUrl }));
      const sent = fake.requests[0]!;
      assert.equal(sent.cloud, 'gemini');
      assert.equal(sent.path, '/v1beta/openai/chat/completions');
      assert.equal(sent.headers.authorization, 'Bearer gemini-key-1');
      assert.equal(sent.body.model, 'gemini-2.5-pro');
    });

    it('goes to Google’s endpoint unless told otherwise, and needs its key', () => {
      const provider = createProvider({ provider: 'gemini', model: 'gemini-2.5-pro', apiKey: 'k' }) as unknown as { client: { sdk: { baseURL: string } } };
      assert.equal(provider.client.sdk.baseURL, 'https://generativelanguage.googleapis.com/v1beta/openai/');
      assert.throws(() => createProvider({ provider: 'gemini', model: 'gemini-2.5-pro' }), { name: 'MissingApiKeyError' });
    });
  });

  describe('OpenRouter', () => {
    it('posts Chat Completions to …/api/v1/chat/completions with its key and its HTTP-Referer and X-Title headers', async () => {
      fake.enqueue(turn);
      assertStreamedTurn(await run({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', apiKey: 'sk-or-v1-fake', baseUrl: fake.openRouterBaseUrl }));
      const sent = fake.requests[0]!;
      assert.equal(sent.cloud, 'openrouter');
      assert.equal(sent.path, '/api/v1/chat/completions');
      assert.equal(sent.headers.authorization, 'Bearer sk-or-v1-fake');
      assert.equal(sent.headers['http-referer'], 'https://marketplace.visualstudio.com/items?itemName=opendev.opendev');
      assert.equal(sent.headers['x-title'], 'OpenDev');
      assert.equal(sent.body.model, 'anthropic/claude-sonnet-4.5');
    });
  });
});
