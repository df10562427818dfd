import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { allToolResults } from '../fixtures/fake-provider';
import { clearSettings, config, fakeProviderSuite, useSettings } from './support';

const TOKEN = 'vscode-childenv-token-marker-71ab';
const EXTRA = 'vscode-childenv-corp-marker-0c9d';

/**
 * The extension host is VS Code's process: its environment stays as it is, but every child the
 * agent starts gets it without the secret variables (the built-in list and opendev.secretEnvVars,
 * which only the user's settings can set).
 */
describe('no secret variable in the children of the VS Code agent', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;

  after(async () => {
    delete process.env.OPENDEV_IT_TOKEN;
    delete process.env.CORP_LOGIN;
    delete process.env.OPENDEV_IT_VISIBLE;
    await clearSettings(['secretEnvVars']);
  });

  it('run_command sees no *_TOKEN of the extension host and no variable opendev.secretEnvVars names; a workspace cannot set that list', async () => {
    // Tests run inside the extension host: these are its variables, as VS Code's own would be.
    process.env.OPENDEV_IT_TOKEN = TOKEN;
    process.env.CORP_LOGIN = EXTRA;
    process.env.OPENDEV_IT_VISIBLE = 'visible-value';
    await useSettings({ secretEnvVars: ['CORP_*'] });
    await assert.rejects(
      Promise.resolve(config().update('secretEnvVars', [], vscode.ConfigurationTarget.Workspace)),
      'VS Code refuses an application-scoped setting in the workspace',
    );

    fake.enqueue({ toolCalls: [{ id: 'call_env', name: 'run_command', arguments: { command: 'env' } }] }, { text: 'Looked.' });
    assert.equal((await suite.api.send('show the environment'))?.status, 'completed');
    const result = fake.requests.flatMap((r) => allToolResults(r)).find((r) => r.toolCallId === 'call_env');
    assert.ok(result, `the command's result reached the model (${fake.requests.length} requests; the chat: ${JSON.stringify(suite.api.transcript()).slice(0, 2000)})`);
    assert.match(result!.content, /OPENDEV_IT_VISIBLE=visible-value/, 'the command ran and saw the other variables');
    assert.ok(!result!.content.includes(TOKEN), 'no *_TOKEN in the command');
    assert.ok(!result!.content.includes(EXTRA), 'no variable of opendev.secretEnvVars in the command');
    for (const req of fake.requests) assert.ok(!JSON.stringify(req.body).includes(TOKEN) && !JSON.stringify(req.body).includes(EXTRA));
  });
});
