// One MCP server on the official SDK, against real servers: the npm reference servers and the
// generated-tools fixture (test/fixtures/mcp), which can crash on demand.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpCallError } from '../../../../src/core/mcp/mcp-call-error';
import { McpConnection, type McpConnectionOptions } from '../../../../src/core/mcp/mcp-connection';
import type { McpServerConfig } from '../../../../src/core/mcp/mcp-types';
import { QUICK, serverConfigs, tempDir } from '../../../helpers/mcp-servers';

const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((c) => c.text ?? '').join('\n');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

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
    await until('the restart', () => c.restarts === 1 && c.state === 'running');
    const again = Number(textOf(await c.callTool('whoami', {})));
    assert.notEqual(again, pid);
    assert.equal(c.restarts, 1);
    assert.equal(c.error, undefined);
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
    await until('the failed state', () => c.state === 'failed', 30_000);
    assert.equal(c.restarts, 2);
    assert.match(c.error!, /crashed 3 times in a row and was not restarted again/);
    await assert.rejects(c.callTool('whoami', {}), (err: McpCallError) => err.failure === 'unavailable' && /crashed 3 times/.test(err.message));
  });

  it('a call past its timeout fails as `timeout`, and an aborted one as `interrupted`, quickly; the server stays usable', async () => {
    const c = connection(serverConfigs.fixture(3), { timeouts: { ...QUICK, callMs: 300 } });
    await assert.rejects(c.callTool('sleep', { ms: 5_000 }), (err: McpCallError) => err.failure === 'timeout');
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(c.callTool('sleep', { ms: 250 }, controller.signal), (err: McpCallError) => err.failure === 'interrupted');
    assert.ok(Date.now() - started < 250);
    assert.match(textOf(await c.callTool('sleep', { ms: 1 })), /slept 1 ms/);
  });

  it('close() stops the child process; a later call starts a new one', async () => {
    const c = connection(serverConfigs.fixture(3));
    await c.ensureRunning();
    const pid = c.pid!;
    assert.ok(alive(pid));
    await c.close();
    assert.equal(c.state, 'stopped');
    await until('the child to exit', () => !alive(pid));
    const again = Number(textOf(await c.callTool('whoami', {})));
    assert.notEqual(again, pid);
    assert.equal(c.restarts, 0, 'a stop is not a crash');
  });
});
