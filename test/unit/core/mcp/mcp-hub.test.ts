// A session's MCP servers against real servers: lazy start, deferred registration, the resolver
// for direct calls, disable and reload, results with images, Streamable HTTP and SSE, dispose.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpHub, type McpHubOptions } from '../../../../src/core/mcp/mcp-hub';
import type { McpServerEntry } from '../../../../src/core/mcp/mcp-types';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { entry, freePort, QUICK, repo, serverConfigs, tempDir } from '../../../helpers/mcp-servers';
import { toolContext } from '../../../helpers/tool-context';
import { running, until } from '../../../helpers/wait';

describe('McpHub (real servers)', function () {
  this.timeout(60_000);
  let registry: ToolRegistry;
  let configured: McpServerEntry[];
  let hub: McpHub;
  let scratch: string;
  const make = (entries: McpServerEntry[], extra: Partial<McpHubOptions> = {}) => {
    configured = entries;
    registry = new ToolRegistry();
    scratch = tempDir('scratch');
    hub = new McpHub({ registry, workspaceRoot: tempDir('ws'), home: tempDir('home'), scratchDir: scratch, timeouts: QUICK, load: () => ({ servers: configured, warnings: [] }), ...extra });
    return hub;
  };
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    await registry.resolve(name); // what the dispatcher does before approval and hooks
    return registry.execute({ id: name, name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: tempDir('ws') }));
  };
  afterEach(() => hub?.dispose());

  it('starts nothing with the session; a direct call starts only that server, registers its tools deferred, and discovers the one called', async () => {
    make([entry('memory', serverConfigs.memory(join(tempDir('m'), 'm.jsonl'))), entry('acme', serverConfigs.fixture(20))]);
    assert.deepEqual(hub.list().map((s) => s.state), ['stopped', 'stopped']);
    assert.deepEqual(registry.names(), ['search_tools'], 'only search_tools until a server starts');
    const changes: string[] = [];
    hub.onDidChange(() => changes.push(hub.list().map((s) => s.state).join(',')));

    const r = await call('mcp__memory__create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
    assert.equal(r.ok, true, r.output);
    const read = await call('mcp__memory__read_graph');
    assert.match(read.output, /wrote the first program/);

    assert.deepEqual(hub.list().map((s) => `${s.name}:${s.state}:${s.toolCount ?? '-'}`), ['memory:running:9', 'acme:stopped:-']);
    assert.ok(changes.includes('starting,stopped') && changes.includes('running,stopped'), changes.join(' | '));
    const mcpTools = registry.deferredTools().map((t) => t.name);
    assert.equal(mcpTools.length, 9);
    const inSchemas = registry.schemas().map((s) => s.name).filter((n) => n.startsWith('mcp__')).sort();
    assert.deepEqual(inSchemas, ['mcp__memory__create_entities', 'mcp__memory__read_graph'], 'called tools are discovered, the others stay deferred');
  });

  it('a direct call of a tool the server does not have, or of a server that cannot start, gets a typed error naming the cause', async () => {
    make([entry('acme', serverConfigs.fixture(2)), entry('broken', { command: process.execPath, args: ['-e', "console.error('needs ACME_URL'); process.exit(1)"] })]);
    const unknown = await call('mcp__acme__no_such_tool');
    assert.equal(unknown.errorKind, 'not_found');
    assert.match(unknown.output, /MCP server "acme" has no tool named mcp__acme__no_such_tool\. Its tools: .*mcp__acme__weather_forecast.*Use search_tools/);
    assert.equal(registry.get('mcp__acme__no_such_tool'), undefined, 'the stand-in is gone after answering');

    const broken = await call('mcp__broken__anything');
    assert.equal(broken.ok, false);
    assert.match(broken.output, /MCP server "broken" is not available: .*needs ACME_URL.*\/mcp test broken/s);
    assert.equal(hub.list()[1]!.state, 'failed');
    assert.match(hub.list()[1]!.error!, /needs ACME_URL/);

    const notMcp = await call('mcp__unconfigured__x');
    assert.match(notMcp.output, /Unknown tool "mcp__unconfigured__x"/);
  });

  it('a disabled server offers nothing and is never started; the hub reloads it when it is enabled', async () => {
    const memoryFile = join(tempDir('m'), 'm.jsonl');
    make([entry('memory', serverConfigs.memory(memoryFile), false)]);
    assert.deepEqual(hub.list().map((s) => `${s.name}:${s.state}:${s.enabled}`), ['memory:disabled:false']);
    assert.equal(registry.get('search_tools'), undefined, 'no enabled server: no search_tools');
    const r = await call('mcp__memory__read_graph');
    assert.match(r.output, /MCP server "memory" is disabled, so mcp__memory__read_graph cannot be called\. Do not retry; .*\/mcp enable memory/);
    await assert.rejects(hub.connect('memory'), /disabled/);
    await assert.rejects(hub.tools('memory'), /disabled/);
    assert.equal(registry.deferredTools().length, 0);
    assert.equal(existsSync(memoryFile), false, 'the server never ran');
    assert.equal(hub.list()[0]!.state, 'disabled');

    configured = [entry('memory', serverConfigs.memory(memoryFile), true)];
    await hub.reload();
    assert.ok(registry.get('search_tools'), 'search_tools appears with the first enabled server');
    assert.equal(hub.list()[0]!.state, 'stopped');
    const tools = await hub.tools('memory');
    assert.ok(tools.some((t) => t.qualifiedName === 'mcp__memory__read_graph' && t.server === 'memory' && t.name === 'read_graph'));
  });

  it('reload stops a server that was disabled or removed and takes its tools away; new servers appear stopped', async () => {
    make([entry('acme', serverConfigs.fixture(3))]);
    const status = await hub.connect('acme');
    assert.equal(status.state, 'running');
    assert.equal(status.toolCount, 8);
    const pid = Number((await call('mcp__acme__whoami')).output);
    configured = [entry('acme', serverConfigs.fixture(3), false), entry('memory', serverConfigs.memory(join(tempDir('m'), 'm.jsonl')))];
    await hub.reload();
    await until(() => !running(pid), 'the disabled server to exit');
    assert.deepEqual(hub.list().map((s) => `${s.name}:${s.state}`), ['acme:disabled', 'memory:stopped']);
    assert.equal(registry.deferredTools().length, 0);
    assert.equal(registry.get('mcp__acme__whoami'), undefined);
  });

  it('test() connects, lists and pings, or says what failed; disconnect() stops the server', async () => {
    make([entry('acme', serverConfigs.fixture(3)), entry('missing', { command: join(tempDir('x'), 'nope') })]);
    const ok = await hub.test('acme');
    assert.equal(ok.ok, true);
    assert.equal(ok.toolCount, 8);
    const bad = await hub.test('missing');
    assert.equal(bad.ok, false);
    assert.match(bad.error!, /the command was not found/);
    await assert.rejects(hub.connect('nobody'), /No MCP server is named "nobody" \(configured: acme, missing\)/);
    await hub.disconnect('acme');
    assert.equal(hub.list()[0]!.state, 'stopped');
  });

  it('everything: echo, and an image-returning tool whose image lands in the scratch folder', async () => {
    make([entry('everything', serverConfigs.everything())]);
    const echo = await call('mcp__everything__echo', { message: 'hello MCP' });
    assert.equal(echo.output, 'Echo: hello MCP');
    const image = await call('mcp__everything__get-tiny-image');
    assert.equal(image.ok, true);
    assert.match(image.output, /^Here's the image you requested:\n\[Image \(image\/png, [\d.]+ KB\) saved to /);
    const path = /saved to (\S+\.png)\./.exec(image.output)![1]!;
    assert.ok(path.startsWith(join(scratch, 'mcp')), path);
    assert.deepEqual(readFileSync(path).subarray(1, 4).toString(), 'PNG');
    assert.match(image.summary, /\(\+1 image\)/);
    const bad = await call('mcp__everything__echo', {});
    assert.equal(bad.ok, false, 'the server validates the arguments and says what is wrong');
    assert.match(bad.output, /message/);
  });

  for (const mode of ['streamableHttp', 'sse'] as const) {
    it(`reaches an HTTP server (server-everything ${mode} on 127.0.0.1)`, async () => {
      const port = await freePort();
      const server = await startHttpEverything(mode, port);
      try {
        const url = mode === 'sse' ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;
        make([entry('remote', mode === 'sse' ? { type: 'sse', url } : { type: 'http', url })]);
        assert.equal(hub.list()[0]!.transport, mode === 'sse' ? 'sse' : 'http');
        const echo = await call('mcp__remote__echo', { message: 'over HTTP' });
        assert.equal(echo.output, 'Echo: over HTTP');
        assert.equal(registry.get('mcp__remote__echo')!.category, 'web');
        const sum = await call('mcp__remote__get-sum', { a: 2, b: 3 });
        assert.match(sum.output, /5/);
      } finally {
        server.kill();
      }
    });
  }

  it('everything (npm): its child process killed, the next call works on a restarted one; the status counts the restart', async () => {
    make([entry('everything', serverConfigs.everything())]);
    const first = await call('mcp__everything__echo', { message: 'before' });
    assert.equal(first.output, 'Echo: before');
    const [before] = hub.list();
    assert.equal(before?.state, 'running');
    assert.ok(before?.pid && running(before.pid), 'the status names the running child');
    process.kill(before.pid, 'SIGKILL');
    await until(() => hub.list()[0]?.restarts === 1 && hub.list()[0]?.state === 'running', 'the restart');
    const after = await call('mcp__everything__echo', { message: 'after' });
    assert.equal(after.ok, true, after.output);
    assert.equal(after.output, 'Echo: after');
    const [status] = hub.list();
    assert.equal(status?.restarts, 1);
    assert.ok(status?.pid && status.pid !== before.pid && running(status.pid), 'a new child');
    assert.equal(running(before.pid), false);
  });

  it('dispose() stops every server', async () => {
    make([entry('a', serverConfigs.fixture(1)), entry('b', serverConfigs.fixture(1))]);
    const pids = [Number((await call('mcp__a__whoami')).output), Number((await call('mcp__b__whoami')).output)];
    assert.ok(pids.every(running));
    await hub.dispose();
    await until(() => !pids.some(running), 'both servers to exit');
  });
});

/** server-everything in an HTTP mode on `port`, resolved once it listens. */
function startHttpEverything(mode: 'streamableHttp' | 'sse', port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repo, 'node_modules', '.bin', 'mcp-server-everything'), [mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (d: Buffer) => {
      output += d.toString();
      if (/listening on port|running on port/i.test(output)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${output}`)));
    setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${output}`)), 20_000).unref();
  });
}
