// A first run of the real dist/cli.js: what works before a key is set (the commands that need no
// model, in -p and interactively), and an OpenAI-compatible provider without its server's address,
// which must stop with the fix instead of sending the request (and the key) to api.openai.com.
import * as assert from 'node:assert/strict';
import { FakeProvider, lastUserText } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

describe('opendev CLI on a first run', () => {
  const fake = new FakeProvider();
  let home: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
  });

  it('runs -p /help, /models and /config without a key, and still names the key for a command that needs the model', async () => {
    const help = await opendev(['-p', '/help'], { OPENDEV_HOME: home });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Commands \(handled without the model\):/);
    assert.equal(help.stderr, '');
    const models = await opendev(['-p', '/models', '--provider', 'anthropic'], { OPENDEV_HOME: home });
    assert.equal(models.code, 0, models.stderr);
    assert.match(models.stdout, /action: claude-sonnet-4-5 \(anthropic\)/);
    const config = await opendev(['-p', '/config'], { OPENDEV_HOME: home });
    assert.equal(config.code, 0, config.stderr);
    assert.match(config.stdout, /provider/);
    const mode = await opendev(['-p', '/mode plan'], { OPENDEV_HOME: home });
    assert.equal(mode.code, 2);
    assert.match(mode.stderr, /no API key for OpenAI\. Set OPENAI_API_KEY/);
  });

  it('starts the interactive session without a key: /help works, a task says what is missing', async () => {
    const r = await opendev([], { OPENDEV_HOME: home }, { input: '/help\nlist the files\n/exit\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Commands \(handled without the model\):/);
    assert.match(r.stdout, /No model yet/);
    assert.equal(r.stderr.match(/no API key for OpenAI\. Set OPENAI_API_KEY/g)?.length, 2, 'at the start, and again for the task');
    assert.equal(fake.requests.length, 0);
  });

  it('stops an OpenAI-compatible provider without a base URL with exit 2 and the variable to set', async () => {
    const r = await opendev(['-p', 'hi', '--provider', 'openai-compatible'], { OPENDEV_HOME: home, OPENAI_API_KEY: 'sk-marker' });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /the openai-compatible provider needs the server's address\. Set OPENAI_BASE_URL/);
    // With the address it runs, against that server.
    fake.enqueue({ text: 'hello' });
    const ok = await opendev(['-p', 'hi', '--provider', 'openai-compatible'], { OPENDEV_HOME: home, OPENAI_BASE_URL: fake.openaiBaseUrl });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(lastUserText(fake.requests[0]!), 'hi');
  });

  it('refuses --provider vscode-lm clearly: VS Code\'s Language Model API exists only inside VS Code', async () => {
    const r = await opendev(['-p', 'list the files', '--provider', 'vscode-lm'], { OPENDEV_HOME: home });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /The provider "vscode-lm" \(VS Code's language models\) works only inside VS Code, through its Language Model API\. Choose another provider here \(openai, anthropic, openai-compatible or a cloud: azure-openai, bedrock, vertex, gemini, openrouter\)\./);
    assert.equal(fake.requests.length, 0);
  });
});
