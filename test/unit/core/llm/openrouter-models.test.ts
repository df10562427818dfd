import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listOpenRouterModels } from '../../../../src/core/llm/openrouter-models';
import { FakeProvider } from '../../../fixtures/fake-provider';

describe('OpenRouter model list', () => {
  it('reads GET <base>/models into catalogue models: context window, prices per million tokens, vision', async () => {
    const fake = new FakeProvider();
    await fake.start();
    try {
      const models = await listOpenRouterModels(fake.openRouterBaseUrl);
      assert.deepEqual(models, [
        {
          id: 'fake-model',
          name: 'Fake fake-model',
          capabilities: { contextWindow: 200_000, maxOutputTokens: 64_000, vision: true, reasoning: false, toolCalls: true, pricing: { inputPerMTok: 3, outputPerMTok: 15 }, known: true },
        },
      ]);
    } finally {
      await fake.stop();
    }
  });

  it('leaves out models without tool calls and entries it cannot read; sends no key', async () => {
    let headers: http.IncomingHttpHeaders | undefined;
    const server = http.createServer((req, res) => {
      headers = req.headers;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'no-tools', supported_parameters: ['max_tokens'] }, { id: 42 }, { id: 'image-out', architecture: { output_modalities: ['image'] } }, { id: 'plain' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const models = await listOpenRouterModels(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`);
      assert.deepEqual(models.map((m) => m.id), ['plain']);
      assert.equal(headers?.authorization, undefined);
    } finally {
      server.close();
    }
  });
});
