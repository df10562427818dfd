// The user's shell environment inside the real OS sandbox (bubblewrap + socat, which CI installs):
// the profile is read once outside it, in the home folder, and its PATH and variables reach the
// command through the wrapper, with no file to source in the read-only filesystem; its secrets do not.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { SessionShell } from '../../../../src/core/process/session-shell';
import { CommandSandbox } from '../../../../src/core/sandbox/command-sandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/core/config/sandbox-settings';
import { stopSandboxRuntime } from '../../../../src/core/sandbox/sandbox-runtime';
import { runCommandTool } from '../../../../src/core/tools/run-command';
import { toolContext } from '../../../helpers/tool-context';
import { fakeHome } from '../process/process-helpers';

describe('the user\'s shell environment in the OS sandbox (real bubblewrap)', function () {
  this.timeout(120_000);
  let root: string;
  let processes: ProcessManager;
  let shell: SessionShell;
  let ws: string;
  let home: string;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opendev-sbx-shellenv-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    home = fakeHome(root);
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'CANARY-KEY');
    const sandbox = new CommandSandbox({ settings: DEFAULT_SANDBOX_SETTINGS, workspaceRoot: ws, home });
    const status = await sandbox.status();
    assert.equal(status.state, 'active', `the sandbox must run here (CI installs bubblewrap and socat): ${JSON.stringify(status)}`);
    shell = new SessionShell({ userShell: '/bin/bash', home, base: { ...process.env, HOME: home } });
    processes = new ProcessManager({ sandbox, shell, home: join(root, 'opendev'), limits: { initialWindowMs: 10_000 } });
  });

  after(async () => {
    await processes?.shutdown();
    await stopSandboxRuntime();
    rmSync(root, { recursive: true, force: true });
  });

  it('the profile\'s PATH and marker reach a sandboxed command; its secret does not; the sandbox still holds', async () => {
    const ctx = toolContext({ workspaceRoot: ws, processes });
    const r = await runCommandTool.run({ command: 'hello-from-profile; echo "marker=$OPENDEV_PROFILE_MARKER tmp=$TMPDIR"; env | grep -c sk-canary || true; cat ~/.ssh/id_rsa; touch ~/.profile-written' }, ctx);
    assert.match(r.output, /tool from the profile PATH/);
    assert.match(r.output, /marker=from-profile tmp=\/tmp\/opendev-cmd-/, 'the sandbox\'s private temp folder wins over the captured TMPDIR');
    assert.match(r.output, /^0$/m, 'no secret in the environment');
    assert.ok(!r.output.includes('CANARY-KEY'), 'secret locations stay unreadable');
    assert.match(r.output, /Read-only file system|Permission denied/, 'the home folder stays read-only');
    const bg = await runCommandTool.run({ command: 'echo "bg=$OPENDEV_RC_MARKER"', background: true }, ctx);
    assert.match(bg.output, /bg=from-bashrc/);
    assert.equal(shell.captures, 1);
  });
});
