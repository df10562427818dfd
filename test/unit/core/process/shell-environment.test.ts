// Commands see the user's shell: the environment their profile sets up (a PATH entry, a marker) is
// read once per session from a real bash started in a fake home, reaches run_command in the
// foreground and the background, never carries a secret the profile exports, is not shaped by the
// workspace, and a profile that hangs costs one bounded wait and a told fallback.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { SessionShell } from '../../../../src/core/process/session-shell';
import { applyTerminalEnv, parseEnvBlock } from '../../../../src/core/process/shell-environment';
import { runCommandTool } from '../../../../src/core/tools/run-command';
import { toolContext } from '../../../helpers/tool-context';
import { fakeHome, PROFILE_SECRET as SECRET, until } from './process-helpers';

const BASE_SECRET = 'sk-canary-base-91d0';

describe('the user\'s shell environment (real bash, fake home)', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  const managers: ProcessManager[] = [];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-shellenv-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.shutdown()));
    rmSync(root, { recursive: true, force: true });
  });

  function session(home: string, settings: Partial<ConstructorParameters<typeof SessionShell>[0]> = {}, notices: string[] = []) {
    const base = { ...process.env, HOME: home, OPENAI_API_KEY: BASE_SECRET };
    const shell = new SessionShell({ userShell: '/bin/bash', home, base, ...settings }, (t) => notices.push(t));
    const processes = new ProcessManager({ home: join(root, 'opendev'), shell, limits: { initialWindowMs: 10_000 } });
    managers.push(processes);
    return { shell, processes, ctx: toolContext({ workspaceRoot: ws, processes }) };
  }

  it('run_command sees the PATH and variables the profile sets up, not its secrets; the profile is read once', async () => {
    const home = fakeHome(root);
    const { shell, ctx } = session(home);
    assert.equal(shell.captures, 0, 'nothing is read before the first command');
    const first = await runCommandTool.run({ command: 'hello-from-profile; echo "marker=$OPENDEV_PROFILE_MARKER rc=$OPENDEV_RC_MARKER in=$CAPTURED_IN"; env' }, ctx);
    assert.ok(first.ok, first.output);
    assert.match(first.output, /tool from the profile PATH/);
    assert.match(first.output, /marker=from-profile rc=from-bashrc/);
    assert.ok(first.output.includes(`in=${home}`), 'the profile ran in the home folder, not the workspace');
    assert.ok(!first.output.includes(SECRET), 'a secret the profile exports never reaches a command');
    assert.ok(!first.output.includes(BASE_SECRET), 'nor one OpenDev itself was started with');
    assert.ok(!/^OPENAI_API_KEY=|^DEPLOY_TOKEN=/m.test(first.output));
    assert.ok(!first.output.includes('a profile that prints something'), 'what the profile prints is not the command\'s output');

    const second = await runCommandTool.run({ command: 'echo $OPENDEV_PROFILE_MARKER', background: true }, ctx);
    assert.match(second.output, /from-profile/, 'a background task has it too');
    await runCommandTool.run({ command: 'true' }, ctx);
    assert.equal(shell.captures, 1, 'one capture per session');
    assert.ok(shell.outcome && shell.outcome.reason === undefined && shell.outcome.ms > 0);
  });

  it('a profile that hangs: the capture stops at its limit (its scripts clean up), the command runs as before, and the reason is told once', async () => {
    // Like `pyenv rehash`: a script holding a lock file that its trap removes; a SIGKILL would leave it behind.
    const home = fakeHome(root, `sh -c 'trap "rm -f \\"$HOME/lock\\"; exit 1" TERM; : > "$HOME/lock"; sleep 30 & wait'`);
    const notices: string[] = [];
    const { shell, ctx } = session(home, { timeoutMs: 1_000 }, notices);
    const started = Date.now();
    const first = await runCommandTool.run({ command: 'echo "marker=$OPENDEV_PROFILE_MARKER"' }, ctx);
    assert.ok(Date.now() - started < 10_000, 'the wait is bounded by the limit');
    assert.ok(first.ok, first.output);
    assert.match(first.output, /marker=\s/, 'the fallback is OpenDev\'s own environment');
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /Your shell profile could not be read \(bash did not finish starting within 1 s\)/);
    await runCommandTool.run({ command: 'echo again' }, ctx);
    assert.equal(notices.length, 1, 'told once');
    assert.equal(shell.captures, 1, 'a failed capture is not retried by every command');
    await until(() => !existsSync(join(home, 'lock')), 'the hung script to clean up after its SIGTERM', 10_000);
  });

  it('terminal.integrated.env goes on top: ${env:NAME} refers to the captured value, null removes', async () => {
    const home = fakeHome(root);
    const { ctx } = session(home, { terminalEnv: { PATH: '/from/settings:${env:PATH}', FROM_SETTINGS: 'yes', OPENDEV_RC_MARKER: null, GITHUB_TOKEN: SECRET } });
    const r = await runCommandTool.run({ command: 'echo "path=$PATH set=$FROM_SETTINGS rc=[$OPENDEV_RC_MARKER] tok=[$GITHUB_TOKEN]"' }, ctx);
    assert.match(r.output, new RegExp(`path=/from/settings:${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/tools:`));
    assert.match(r.output, /set=yes rc=\[\] tok=\[\]/, 'a secret name is kept out even when the settings set it');
  });

  it('readProfile off (opendev.shell.readProfile, OPENDEV_SHELL_PROFILE=0): the profile is never read; terminal.integrated.env still applies', async () => {
    const home = fakeHome(root);
    const notices: string[] = [];
    const { shell, ctx } = session(home, { readProfile: false, terminalEnv: { FROM_SETTINGS: 'yes' } }, notices);
    const r = await runCommandTool.run({ command: 'echo "marker=[$OPENDEV_PROFILE_MARKER] set=$FROM_SETTINGS"' }, ctx);
    assert.ok(r.ok, r.output);
    assert.match(r.output, /marker=\[\] set=yes/);
    assert.equal(shell.captures, 0, 'no capture at all');
    assert.deepEqual(notices, [], 'nothing to tell: the user chose it');
  });

  it('a shell that is not there falls back to bash, and its reason is the choice\'s', () => {
    const shell = new SessionShell({ userShell: join(root, 'no-such-shell'), home: root });
    assert.match(shell.choice.why, /was not found/);
    assert.ok(shell.judgeable);
  });
});

describe('reading env -0 and terminal.integrated.env', () => {
  it('drops secrets, the shell\'s bookkeeping and exported functions', () => {
    const env = parseEnvBlock(['PATH=/a:/b', 'ANTHROPIC_API_KEY=x', 'MY_SECRET=y', 'PWD=/h', 'SHLVL=2', 'BASH_FUNC_f%%=() { :; }', 'MULTI=line1\nline2', 'EMPTY=', ''].join('\0'));
    assert.deepEqual(env, { PATH: '/a:/b', MULTI: 'line1\nline2', EMPTY: '' });
  });

  it('applies settings with ${env:…} and null', () => {
    assert.deepEqual(applyTerminalEnv({ PATH: '/a', X: '1' }, { PATH: '/b:${env:PATH}', X: null, Y: '${env:NOPE}z' }), { PATH: '/b:/a', Y: 'z' });
  });
});
