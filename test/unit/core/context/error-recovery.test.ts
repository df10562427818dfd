import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyToolFailure, errorExcerpt, recoveryReminder, type FailureClass } from '../../../../src/core/context/error-recovery';
import type { ToolCall } from '../../../../src/core/messages';
import { ProcessManager } from '../../../../src/core/process/process-manager';
import { fileTools } from '../../../../src/core/tools/file-tools';
import { processTools } from '../../../../src/core/tools/process-tools';
import { readFileTool } from '../../../../src/core/tools/read-file';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

const outDir = join(__dirname, '../../../../..', 'out');

/** The same failure with the tool's own errorKind removed: what the message text alone says. */
function textOnly(result: ToolResult): ToolResult {
  const { errorKind: _kind, ...rest } = result;
  return rest;
}

describe('error recovery: classifying real tool failures', function () {
  this.timeout(60_000);
  const registry = new ToolRegistry().register(readFileTool);
  for (const tool of [...fileTools(), ...processTools()]) registry.register(tool);
  let root: string;
  let processes: ProcessManager;

  const call = (name: string, args: Record<string, unknown>): ToolCall => ({ id: 'c1', name, arguments: JSON.stringify(args) });
  const execute = (c: ToolCall) => registry.execute(c, toolContext({ workspaceRoot: root, processes }));
  /** Runs a call that must fail and returns it with its class. */
  const failing = async (name: string, args: Record<string, unknown>) => {
    const c = call(name, args);
    const result = await execute(c);
    assert.equal(result.ok, false, `${name} was expected to fail:\n${result.output}`);
    return { call: c, result, cls: classifyToolFailure(result, c) };
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-recovery-'));
    processes = new ProcessManager({ tasksDir: join(root, '.tasks'), limits: { killGraceMs: 500, stopGraceMs: 300 } });
  });
  afterEach(async () => {
    await processes.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  it('permission: write_file into a read-only folder (a real EACCES, as an unprivileged user)', () => {
    chmodSync(root, 0o755);
    mkdirSync(join(root, 'locked'), { mode: 0o555 });
    chmodSync(join(root, 'locked'), 0o555);
    // Root ignores file modes, so the write runs in a child process as "nobody" when we are root.
    const script = `
      const { ToolRegistry } = require(${JSON.stringify(join(outDir, 'src/core/tools/registry'))});
      const { fileTools } = require(${JSON.stringify(join(outDir, 'src/core/tools/file-tools'))});
      const { toolContext } = require(${JSON.stringify(join(outDir, 'test/helpers/tool-context'))});
      const registry = new ToolRegistry();
      for (const tool of fileTools()) registry.register(tool);
      registry.execute({ id: 'w', name: 'write_file', arguments: JSON.stringify({ file_path: 'locked/new.txt', content: 'x' }) }, toolContext({ workspaceRoot: process.argv[1] }))
        .then((r) => process.stdout.write(JSON.stringify(r)));`;
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script, root], { cwd: '/', ...asNobody, encoding: 'utf8' })) as ToolResult;
    assert.equal(result.ok, false);
    assert.match(result.output, /EACCES/);
    const c = call('write_file', { file_path: 'locked/new.txt', content: 'x' });
    assert.equal(classifyToolFailure(result, c), 'permission');
    const reminder = recoveryReminder(c, result)!;
    assert.match(reminder, /^write_file locked\/new\.txt was refused: permission denied\./);
    assert.match(reminder, /EACCES: permission denied/);
  });

  it('permission: running a script that is not executable (the shell says "Permission denied")', async () => {
    writeFileSync(join(root, 'build.sh'), 'echo built\n', { mode: 0o644 });
    const f = await failing('run_command', { command: './build.sh' });
    assert.match(f.result.output, /Permission denied/);
    assert.equal(f.cls, 'permission');
  });

  it('not found: read_file of a missing file (errorKind), and the text alone says the same', async () => {
    const f = await failing('read_file', { file_path: 'src/missing.ts' });
    assert.equal(f.result.errorKind, 'not_found');
    assert.equal(f.cls, 'not_found');
    assert.equal(classifyToolFailure(textOnly(f.result), f.call), 'not_found');
    assert.match(recoveryReminder(f.call, f.result)!, /read_file src\/missing\.ts failed: not found\.[\s\S]*list_files or search/);
  });

  it('not found: ENOENT from a command (cat of a missing file)', async () => {
    const f = await failing('run_command', { command: 'cat missing.txt' });
    assert.match(f.result.output, /No such file or directory/);
    assert.equal(f.cls, 'not_found');
  });

  it('syntax: python3 and node syntax errors from run_command, with the telling lines in the reminder', async () => {
    for (const command of [`python3 -c 'def('`, `node -e '('`]) {
      const f = await failing('run_command', { command });
      assert.equal(f.result.errorKind, 'other', 'run_command only knows the exit code');
      assert.equal(f.cls, 'syntax', f.result.output);
      const reminder = recoveryReminder(f.call, f.result)!;
      assert.ok(reminder.startsWith(`run_command \`${command}\` hit a syntax error.`), reminder);
      assert.match(reminder, /SyntaxError/);
    }
  });

  it('timeout: a real sleep stopped by a short run_command timeout', async () => {
    const f = await failing('run_command', { command: 'sleep 5', timeout: 0.5 });
    assert.equal(f.cls, 'timeout');
    assert.equal(classifyToolFailure(textOnly(f.result), f.call), 'timeout');
    assert.match(recoveryReminder(f.call, f.result)!, /^run_command `sleep 5` timed out\.[\s\S]*background: true/);
  });

  it('edit mismatch: edit_file with old_content that is not in the file', async () => {
    writeFileSync(join(root, 'a.ts'), 'const a = 1;\n');
    assert.equal((await execute(call('read_file', { file_path: 'a.ts' }))).ok, true);
    const f = await failing('edit_file', { file_path: 'a.ts', old_content: 'const a = 2;', new_content: 'const a = 3;' });
    assert.equal(f.cls, 'edit_mismatch');
    assert.equal(classifyToolFailure(textOnly(f.result), f.call), 'edit_mismatch');
    assert.match(recoveryReminder(f.call, f.result)!, /^edit_file a\.ts did not apply[\s\S]*old_content was not found in a\.ts/);
  });

  it('rate limit: a command whose HTTP request is answered 429', async () => {
    const server: Server = createServer((_req, res) => res.writeHead(429, { 'retry-after': '30' }).end('slow down'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const script = `fetch('${url}').then((r) => { if (!r.ok) { console.error('request failed: HTTP', r.status, r.statusText); process.exit(1); } })`;
      const f = await failing('run_command', { command: `node -e "${script}"` });
      assert.match(f.result.output, /HTTP 429 Too Many Requests/);
      assert.equal(f.cls, 'rate_limit');
    } finally {
      server.close();
    }
  });

  it('docker: the daemon is not reachable; a failing docker command is a Docker problem whatever it says', () => {
    const daemon: ToolResult = {
      ok: false,
      output: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n\n[exit code 1 · 0.1 s, 1 line]',
      summary: '✗ exit 1',
      errorKind: 'other',
    };
    const ps = call('run_command', { command: 'docker ps' });
    assert.equal(classifyToolFailure(daemon, ps), 'docker');
    assert.match(recoveryReminder(ps, daemon)!, /^run_command `docker ps` failed in Docker\.\nCannot connect to the Docker daemon/);
    const build: ToolResult = { ok: false, output: 'failed to solve: process "/bin/sh -c make" did not complete successfully: exit code: 2', summary: '✗ exit 1', errorKind: 'other' };
    assert.equal(classifyToolFailure(build, call('run_command', { command: 'docker compose build' })), 'docker');
    assert.equal(classifyToolFailure(build, call('run_command', { command: 'make' })), 'generic');
  });

  it('generic: a failure no class describes gets the generic reminder', async () => {
    const f = await failing('run_command', { command: 'echo "the build broke" >&2; exit 3' });
    assert.equal(f.cls, 'generic');
    assert.match(recoveryReminder(f.call, f.result)!, /^Your last tool call failed \(run_command `echo[^\n]*`\):\nthe build broke/);
  });

  it("the tool's errorKind wins over words in the text", () => {
    const result: ToolResult = { ok: false, output: 'Error (timeout): the server answered "permission denied" before it hung', summary: '✗', errorKind: 'timeout' };
    assert.equal(classifyToolFailure(result), 'timeout');
    const rejected: ToolResult = { ok: false, output: 'Error (rejected): The user denied write_file.', summary: '✗', errorKind: 'rejected' };
    assert.equal(classifyToolFailure(rejected), 'permission');
  });

  it('the excerpt shows the lines around the telling one, capped', () => {
    const traceback = ['Traceback (most recent call last):', '  File "app.py", line 3', '    import os', '  File "lib.py", line 9', '    def (', '        ^', 'SyntaxError: invalid syntax', '', '[exit code 1]'].join('\n');
    const excerpt = errorExcerpt(traceback, 'syntax' as FailureClass);
    assert.match(excerpt, /^…\n {2}File "lib\.py", line 9\n {4}def \(\n {8}\^\nSyntaxError: invalid syntax/);
    assert.doesNotMatch(excerpt, /Traceback|app\.py/);
    assert.ok(errorExcerpt('x'.repeat(5000), 'generic').length <= 601);
  });
});
