import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { CommandSandbox } from '../../../../src/core/sandbox/command-sandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/core/config/sandbox-settings';
import { stopSandboxRuntime } from '../../../../src/core/sandbox/sandbox-runtime';
import { runCommandTool } from '../../../../src/core/tools/run-command';
import { toolContext } from '../../../helpers/tool-context';

/**
 * On a busy machine the sandbox's network relays (socat, inside bubblewrap) can take longer to
 * listen than the library waits for them (0.3 s). A command's first connection must still get
 * through: here every relay inside the sandbox starts a second late, as a loaded CI machine makes
 * it, and the command's request reaches the allowed local server.
 */
describe('commands in the OS sandbox when its network relays start slowly (real bubblewrap)', function () {
  this.timeout(120_000);
  let root: string;
  let server: Server;
  let port: number;
  let processes: ProcessManager;
  const path = process.env.PATH;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opendev-slow-relays-'));
    mkdirSync(join(root, 'ws'));
    // socat, late only where it listens inside the sandbox (the host's bridges start as usual).
    const bin = join(root, 'bin');
    mkdirSync(bin);
    const real = execFileSync('sh', ['-c', 'command -v socat'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'socat'), `#!/bin/sh\ncase "$*" in *TCP*LISTEN*) sleep 1;; esac\nexec ${real} "$@"\n`);
    chmodSync(join(bin, 'socat'), 0o755);
    server = createServer((_req, res) => res.end('served\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    await stopSandboxRuntime(); // the runtime of an earlier suite found the usual socat
    process.env.PATH = `${bin}:${path}`;
    const sandbox = new CommandSandbox({ settings: { ...DEFAULT_SANDBOX_SETTINGS, networkAllow: [`127.0.0.1:${port}`] }, workspaceRoot: join(root, 'ws'), home: join(root, 'home') });
    const status = await sandbox.status();
    assert.equal(status.state, 'active', `the sandbox must run here (CI installs bubblewrap and socat): ${JSON.stringify(status)}`);
    processes = new ProcessManager({ sandbox, home: join(root, 'opendev'), limits: { initialWindowMs: 10_000 } });
  });

  after(async () => {
    process.env.PATH = path;
    processes?.dispose();
    await stopSandboxRuntime();
    server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("the command's first connection goes through the proxy once the relay listens", async () => {
    const result = await runCommandTool.run({ command: `curl -sS http://127.0.0.1:${port}/` }, toolContext({ workspaceRoot: join(root, 'ws'), processes }));
    assert.ok(result.ok, result.output);
    assert.match(result.output, /served/);
  });
});
