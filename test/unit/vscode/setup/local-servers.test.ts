import * as assert from 'node:assert/strict';
import { localServerAddresses, probeLocalServers } from '../../../../src/vscode/setup/local-servers';
import { FakeProvider } from '../../../fixtures/fake-provider';

describe('local model servers for the setup card', () => {
  it('looks at Ollama and LM Studio on their usual ports; the test seam names other loopback addresses, or none', () => {
    assert.deepEqual(localServerAddresses({}), [
      { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
      { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
    ]);
    assert.deepEqual(localServerAddresses({ OPENDEV_LOCAL_SERVERS: 'Fake=http://127.0.0.1:4567/v1, Other=http://localhost:9/v1' }), [
      { name: 'Fake', baseUrl: 'http://127.0.0.1:4567/v1' },
      { name: 'Other', baseUrl: 'http://localhost:9/v1' },
    ]);
    assert.deepEqual(localServerAddresses({ OPENDEV_LOCAL_SERVERS: '' }), []);
    assert.deepEqual(localServerAddresses({ OPENDEV_LOCAL_SERVERS: 'Far=http://example.com/v1,broken' }), [], 'only this machine is probed');
  });

  it('offers the servers that answer, in order, with a model that calls tools; one that is not there is left out', async () => {
    const ollama = new FakeProvider();
    const studio = new FakeProvider();
    const gone = new FakeProvider();
    await Promise.all([ollama.start(), studio.start(), gone.start()]);
    const goneUrl = gone.openaiBaseUrl;
    await gone.stop();
    try {
      ollama.servedModels = ['embed-only', 'llama3.1:8b'];
      ollama.ollama = { 'embed-only': { capabilities: ['embedding'] }, 'llama3.1:8b': {} };
      studio.servedModels = ['qwen2.5-coder-7b-instruct'];
      const found = await probeLocalServers([
        { name: 'Gone', baseUrl: goneUrl },
        { name: 'Ollama', baseUrl: ollama.openaiBaseUrl },
        { name: 'LM Studio', baseUrl: studio.openaiBaseUrl },
      ]);
      assert.deepEqual(found, [
        { name: 'Ollama', baseUrl: ollama.openaiBaseUrl, model: 'llama3.1:8b' },
        { name: 'LM Studio', baseUrl: studio.openaiBaseUrl, model: 'qwen2.5-coder-7b-instruct' },
      ]);
    } finally {
      await Promise.all([ollama.stop(), studio.stop()]);
    }
  });
});
