// One MCP server on the official SDK, against real servers: the npm reference servers and the
// generated-tools fixture (test/fixtures/mcp), which can crash on demand.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpCallError } from '../../../../src/core/mcp/mcp-call-error';
import { McpConnection, type McpConnectionOptions } from '../../../../src/core/mcp/mcp-connection';
import type { McpServerConfig } from '../../../../src/core/mcp/mcp-types';
import { QUICK, serverConfigs, tempDir } from '../../../helpers/mcp-servers';
import { running, until } from '../../../helpers/wait';

const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((c) => c.text ?? '').join('\n');

describe('McpConnection (real stdio servers)', function () {
  this.timeout(60_000);
  const open: McpConnection[] = [];
  const connection = (config: McpServerConfig, extra: Partial<McpConnectionOptions> = {}) => {
    const c = new McpConnection({ name: 'test', config, cwd: tempDir('cwd'), timeouts: QUICK, ...extra });
    open.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it('starts only when first used, lists every tool and calls one (filesystem reads a file)', async () => {
    const dir = tempDir('fs');
    writeFileSync(join(dir, 'notes.txt'), 'alpha\nbeta\n');
    const states: string[] = [];
    const c = connection(serverConfigs.filesystem(dir), { onStateChange: () => states.push(c.state) });
    assert.equal(c.state, 'stopped');
    assert.equal(c.tools, undefined);
    const result = await c.callTool('read_text_file', { path: join(dir, 'notes.txt') });
    assert.equal(c.state, 'running');
    assert.deepEqual(states, ['starting', 'running']);
    assert.ok(c.tools!.some((t) => t.name === 'read_text_file') && c.tools!.length >= 10, c.tools!.map((t) => t.name).join(','));
    assert.equal(textOf(result), 'alpha\nbeta\n');
  });

  it('memory: an entity created in one call is read back in the next (the same process keeps its state in MEMORY_FILE_PATH)', async () => {
    const file = join(tempDir('memory'), 'memory.jsonl');
    const c = connection(serverConfigs.memory(file));
    await c.callTool('create_entities', { entities: [{ name: 'OpenDev', entityType: 'project', observations: ['speaks MCP'] }] });
    const graph = textOf(await c.callTool('read_graph', {}));
    assert.match(graph, /OpenDev/);
    assert.match(graph, /speaks MCP/);
  });

  it('a server that cannot start is `failed` with the reason and the end of its stderr', async () => {
    const noisy = connection({ command: process.execPath, args: ['-e', "console.error('config missing: set ACME_TOKEN'); process.exit(2)"] });
    await assert.rejects(noisy.ensureRunning(), (err: McpCallError) => err.failure === 'unavailable');
    assert.equal(noisy.state, 'failed');
    assert.match(noisy.error!, /config missing: set ACME_TOKEN/);

    const missing = connection({ command: join(tempDir('none'), 'no-such-server') });
    await assert.rejects(missing.ensureRunning(), /not found/);
    assert.equal(missing.state, 'failed');
    assert.match(missing.error!, /the command was not found/);
    // A failed server is not retried behind the user's back; an explicit connect tries again.
    await assert.rejects(missing.callTool('x', {}), (err: McpCallError) => err.failure === 'unavailable');
    await assert.rejects(missing.connect(), /not found/);
    assert.equal(missing.state, 'failed');
  });

  it('a killed server is restarted (with backoff) and the next call works; restarts are counted', async () => {
    const c = connection(serverConfigs.fixture(3));
    const pid = Number(textOf(await c.callTool('whoami', {})));
    assert.equal(c.pid, pid);
    process.kill(pid, 'SIGKILL');
    await until(() => c.restarts === 1 && c.state === 'running', 'the restart');
    const again = Number(textOf(await c.callTool('whoami', {})));
    assert.notEqual(again, pid);
    assert.equal(c.restarts, 1);
    assert.equal(c.error, undefined);
  });

  it('restarts back off by doubling from the default 0.5 s (a recorded schedule), and after the budget the server is `failed`', async () => {
    // server-everything behind a guard: once the marker exists every start fails at once.
    const dir = tempDir('backoff');
    const marker = join(dir, 'broken');
    const guarded: McpServerConfig = { command: '/bin/sh', args: ['-c', `test -e "$1" && { echo "broken on purpose" >&2; exit 3; }; exec "$2"`, 'sh', marker, (serverConfigs.everything() as { command: string }).command] };
    const waits: number[] = [];
    const c = connection(guarded, { timeouts: { startMs: 20_000 }, backoffWait: async (ms) => void waits.push(ms) });
    await c.ensureRunning();
    writeFileSync(marker, '');
    process.kill(c.pid!, 'SIGKILL');
    await until(() => c.state === 'failed', 'the failed state');
    assert.deepEqual(waits, [500, 1_000, 2_000, 4_000, 8_000]);
    assert.equal(c.restarts, 0, 'no restart worked');
    assert.match(c.error!, /crashed 6 times in a row .*broken on purpose/s);

    // An explicit connect starts afresh; with the server repaired the next crash restarts after 0.5 s again.
    rmSync(marker);
    await c.connect();
    waits.length = 0;
    const pid = c.pid!;
    process.kill(pid, 'SIGKILL');
    await until(() => c.state === 'running' && c.restarts === 1, 'the restart');
    assert.deepEqual(waits, [500]);
    assert.match(textOf(await c.callTool('echo', { message: 'back' })), /Echo: back/);
  });

  it('a restart waiting out its backoff is cut short by close(): nothing starts afterwards', async () => {
    let waited = 0;
    const c = connection(serverConfigs.everything(), { timeouts: { startMs: 20_000 }, backoffWait: () => ((waited += 1), new Promise<void>(() => undefined)) });
    await c.ensureRunning();
    const pid = c.pid!;
    process.kill(pid, 'SIGKILL');
    await until(() => waited === 1, 'the backoff');
    assert.equal(c.state, 'restarting');
    await c.close();
    assert.equal(c.state, 'stopped');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(c.state, 'stopped', 'no restart after the close');
    assert.equal(c.pid, undefined);
  });

  it('a call during which the server dies fails as `crashed`; the server comes back for the next one', async () => {
    const c = connection(serverConfigs.fixture(3));
    await assert.rejects(c.callTool('crash', {}), (err: McpCallError) => err.failure === 'crashed');
    assert.match(textOf(await c.callTool('weather_forecast', { city: 'Oslo' })), /Sunny in Oslo/);
    assert.equal(c.restarts, 1);
  });

  it('a server that keeps crashing is restarted at most maxRestarts times, then `failed` with the reason', async () => {
    const c = connection(serverConfigs.fixture(3, '--die-after-ms', '2500'), { timeouts: { ...QUICK, maxRestarts: 2 } });
    await c.ensureRunning();
    await until(() => c.state === 'failed', 'the failed state');
    assert.equal(c.restarts, 2);
    assert.match(c.error!, /crashed 3 times in a row and was not restarted again/);
    await assert.rejects(c.callTool('whoami', {}), (err: McpCallError) => err.failure === 'unavailable' && /crashed 3 times/.test(err.message));
  });

  it('a call past its timeout fails as `timeout`, and an aborted one as `interrupted`, quickly; the server stays usable', async () => {
    const c = connection(serverConfigs.fixture(3), { timeouts: { ...QUICK, callMs: 300 } });
    await assert.rejects(c.callTool('sleep', { ms: 5_000 }), (err: McpCallError) => err.failure === 'timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    // A call that waited for the server would succeed after a minute (past the test's limit).
    await assert.rejects(c.callTool('sleep', { ms: 60_000 }, controller.signal), (err: McpCallError) => err.failure === 'interrupted');
    assert.match(textOf(await c.callTool('sleep', { ms: 1 })), /slept 1 ms/);
  });

  it('close() stops the child process; a later call starts a new one', async () => {
    const c = connection(serverConfigs.fixture(3));
    await c.ensureRunning();
    const pid = c.pid!;
    assert.ok(running(pid));
    await c.close();
    assert.equal(c.state, 'stopped');
    await until(() => !running(pid), 'the child to exit');
    const again = Number(textOf(await c.callTool('whoami', {})));
    assert.notEqual(again, pid);
    assert.equal(c.restarts, 0, 'a stop is not a crash');
  });
});
