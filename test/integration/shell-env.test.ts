import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { allToolResults } from '../fixtures/fake-provider';
import { fakeProviderSuite, until } from './support';

const KEY = `env.${process.platform === 'darwin' ? 'osx' : process.platform === 'win32' ? 'windows' : 'linux'}`;
const MARKER = 'vscode-terminal-env-marker-3f1d';
const TOKEN = 'vscode-terminal-env-token-8a2c';

async function terminalEnv(value: Record<string, string | null> | undefined): Promise<void> {
  const terminal = () => vscode.workspace.getConfiguration('terminal.integrated');
  await terminal().update(KEY, value, vscode.ConfigurationTarget.Global);
  await until(() => isDeepStrictEqual(terminal().inspect(KEY)?.globalValue, value), `terminal.integrated.${KEY} to reach the extension`);
}

/**
 * Commands see what the user's terminal would: their `terminal.integrated.env.<os>` on top of the
 * environment their shell's profile sets up, without the secret variables.
 */
describe('the user\'s terminal environment reaches run_command in VS Code', function () {
  this.timeout(120_000);
  before(() => terminalEnv({ OPENDEV_IT_TERMINAL_ENV: MARKER, PATH: '/opendev-it-terminal-bin:${env:PATH}', OPENDEV_IT_TERMINAL_TOKEN: TOKEN }));
  after(() => terminalEnv(undefined));
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;

  it('terminal.integrated.env sets variables and extends PATH (${env:PATH}); a secret name set there stays out', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_tenv', name: 'run_command', arguments: { command: 'echo "marker=$OPENDEV_IT_TERMINAL_ENV"; echo "path=$PATH"; env' } }] }, { text: 'Looked.' });
    assert.equal((await suite.api.send('show the environment'))?.status, 'completed');
    const result = fake.requests.flatMap((r) => allToolResults(r)).find((r) => r.toolCallId === 'call_tenv');
    assert.ok(result, `the command's result reached the model (the chat: ${JSON.stringify(suite.api.transcript()).slice(0, 2000)})`);
    assert.ok(result!.content.includes(`marker=${MARKER}`), result!.content.slice(0, 2000));
    assert.match(result!.content, /path=\/opendev-it-terminal-bin:\S*\/usr\/bin/, 'the setting\'s PATH goes first, the shell\'s follows');
    assert.ok(!result!.content.includes(TOKEN), 'a *_TOKEN never reaches a command, even from the terminal settings');
  });
});
