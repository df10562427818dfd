import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { allToolResults } from '../fixtures/fake-provider';
import { fakeProviderSuite, until, useSettings } from './support';

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

/**
 * `opendev.shell.readProfile`: on (the default) the user's profile is read once per session; off,
 * commands start without it. The user's shell is a wrapper named bash, set as the default terminal
 * profile, that exports a marker only when started the way a profile is read (`-i -l -c`), as a
 * line in ~/.profile would.
 */
describe('opendev.shell.readProfile in VS Code', function () {
  this.timeout(120_000);
  const os = process.platform === 'darwin' ? 'osx' : 'linux';
  let dir: string;
  const terminal = () => vscode.workspace.getConfiguration('terminal.integrated');
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-it-shell-'));
    const shell = join(dir, 'bash');
    writeFileSync(shell, '#!/bin/bash\nif [ "$1" = "-i" ]; then export OPENDEV_IT_PROFILE=read; fi\nexec /bin/bash "$@"\n');
    chmodSync(shell, 0o755);
    await terminal().update(`profiles.${os}`, { 'opendev-it': { path: shell } }, vscode.ConfigurationTarget.Global);
    await terminal().update(`defaultProfile.${os}`, 'opendev-it', vscode.ConfigurationTarget.Global);
    await until(() => terminal().inspect(`defaultProfile.${os}`)?.globalValue === 'opendev-it', 'the default terminal profile to reach the extension');
  });
  after(async () => {
    await terminal().update(`defaultProfile.${os}`, undefined, vscode.ConfigurationTarget.Global);
    await terminal().update(`profiles.${os}`, undefined, vscode.ConfigurationTarget.Global);
    await useSettings({ 'shell.readProfile': undefined });
    rmSync(dir, { recursive: true, force: true });
  });
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;

  async function profileSeen(id: string): Promise<string> {
    fake.enqueue({ toolCalls: [{ id, name: 'run_command', arguments: { command: 'echo "profile=${OPENDEV_IT_PROFILE:-none}"' } }] }, { text: 'Looked.' });
    assert.equal((await suite.api.send('was the profile read?'))?.status, 'completed');
    const result = fake.requests.flatMap((r) => allToolResults(r)).find((r) => r.toolCallId === id);
    assert.ok(result, `the command's result reached the model (the chat: ${JSON.stringify(suite.api.transcript()).slice(0, 2000)})`);
    return /profile=(\w+)/.exec(result!.content)?.[1] ?? result!.content;
  }

  it('on, the profile is read; turned off, the next message\'s commands start without it', async () => {
    assert.equal(await profileSeen('call_profile_on'), 'read', 'the default reads the profile of the user\'s shell');
    await useSettings({ 'shell.readProfile': false });
    suite.api.newChat();
    assert.equal(await profileSeen('call_profile_off'), 'none', 'off: no profile');
  });
});
