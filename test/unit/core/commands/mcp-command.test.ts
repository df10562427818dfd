import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SlashCommandRegistry, createSlashCommands, type CommandAgent, type CommandContext } from '../../../../src/core/commands/slash-commands';
import { mcpCommand } from '../../../../src/core/commands/mcp-command';
import { McpHub } from '../../../../src/core/mcp/mcp-hub';
import type { McpHubApi, McpServerStatus, McpToolInfo } from '../../../../src/core/mcp/mcp-types';
import { ToolRegistry } from '../../../../src/core/tools/registry';

/** A hub that answers from a table, for the command's own behaviour (the real hub has its own tests below). */
class TableHub implements McpHubApi {
  reloads = 0;
  readonly calls: string[] = [];
  constructor(
    public servers: McpServerStatus[],
    private readonly toolTable: Record<string, McpToolInfo[]> = {},
  ) {}
  list() {
    return this.servers.map((s) => ({ ...s }));
  }
  async connect(name: string) {
    this.calls.push(`connect ${name}`);
    const s = this.servers.find((x) => x.name === name)!;
    if (name === 'broken') Object.assign(s, { state: 'failed', error: 'spawn nope ENOENT' });
    else Object.assign(s, { state: 'running', toolCount: this.toolTable[name]?.length ?? 0 });
    return { ...s };
  }
  async disconnect(name: string) {
    this.calls.push(`disconnect ${name}`);
    Object.assign(this.servers.find((x) => x.name === name)!, { state: 'stopped' });
  }
  async tools(name: string) {
    if (name === 'broken') throw new Error('spawn nope ENOENT');
    return this.toolTable[name] ?? [];
  }
  async test(name: string) {
    return name === 'broken' ? { ok: false, ms: 12.4, toolCount: 0, error: 'spawn nope ENOENT' } : { ok: true, ms: 41.6, toolCount: this.toolTable[name]?.length ?? 0 };
  }
  async setTrust(name: string, trusted: boolean) {
    this.calls.push(`${trusted ? 'trust' : 'untrust'} ${name}`);
    return { ok: true, message: `${name}: ${trusted ? 'trusted' : 'untrusted'}` };
  }
  async reload() {
    this.reloads++;
  }
  onDidChange() {
    return () => undefined;
  }
  async dispose() {}
}

const status = (name: string, extra: Partial<McpServerStatus> = {}): McpServerStatus => ({
  name,
  state: 'stopped',
  transport: 'stdio',
  source: 'user',
  file: '/home/u/.opendev/settings.json',
  enabled: true,
  restarts: 0,
  ...extra,
});
const tool = (server: string, name: string, description: string): McpToolInfo => ({ qualifiedName: `mcp__${server}__${name}`, server, name, description });

describe('/mcp', () => {
  let root: string;
  let hub: TableHub;
  let commands: SlashCommandRegistry;
  let agent: CommandAgent;
  let ctx: CommandContext;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-mcp-cmd-'));
    mkdirSync(join(root, 'project'));
    hub = new TableHub(
      [
        status('everything', { state: 'running', source: 'mcp.json', toolCount: 2 }),
        status('memory'),
        status('broken', { state: 'failed', transport: 'http', source: 'project', error: 'connect ECONNREFUSED 127.0.0.1:9\n    at TCPConnectWrap' }),
        status('off', { state: 'disabled', enabled: false }),
      ],
      { everything: [tool('everything', 'echo', 'Echoes back the input.\nSecond line.'), tool('everything', 'add', 'Adds two numbers')] },
    );
    commands = new SlashCommandRegistry().register(mcpCommand({ home: () => join(root, 'home') }));
    agent = { running: false, mcp: hub } as unknown as CommandAgent;
    ctx = { agent, front: 'cli', workingDir: join(root, 'project') };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lists the servers as a table: name, state, transport, source, tools, last error (one line)', async () => {
    const result = await commands.run('/mcp list', ctx);
    assert.equal(result.error, undefined);
    const lines = result.output.split('\n');
    assert.equal(lines[0], 'MCP servers (4):');
    assert.equal(lines[1], '  NAME        STATE     TRANSPORT  SOURCE     TOOLS  LAST ERROR');
    assert.equal(lines[2], '  everything  running   stdio      .mcp.json  2');
    assert.equal(lines[3], '  memory      stopped   stdio      user       -');
    assert.equal(lines[4], '  broken      failed    http       project    -      connect ECONNREFUSED 127.0.0.1:9 at TCPConnectWrap');
    assert.equal(lines[5], '  off         disabled  stdio      user       -');
    assert.deepEqual((await commands.run('/mcp', ctx)).output, result.output, 'plain /mcp lists too');
  });

  it('names a settings file whose servers are ignored below the table', async () => {
    mkdirSync(join(root, 'project', '.opendev'));
    writeFileSync(join(root, 'project', '.opendev', 'settings.json'), '{ "mcp_servers": ');
    const result = await commands.run('/mcp list', ctx);
    assert.match(result.output.split('\n').at(-1)!, /^Warning: .*\.opendev\/settings\.json cannot be used \(.*\); its MCP servers are ignored\.$/);
  });

  it('lists a server\'s tools with one-line descriptions, and tests its health', async () => {
    const tools = await commands.run('/mcp tools everything', ctx);
    assert.equal(tools.output, ['MCP server "everything": 2 tools (the agent calls them mcp__everything__<tool>):', '  echo  Echoes back the input. Second line.', '  add   Adds two numbers'].join('\n'));
    assert.equal((await commands.run('/mcp test everything', ctx)).output, 'MCP server "everything" is healthy: 2 tools, answered in 42 ms.');
    const failed = await commands.run('/mcp test broken', ctx);
    assert.equal(failed.error, 'unavailable');
    assert.equal(failed.output, 'MCP server "broken" failed its check after 12 ms: spawn nope ENOENT');
    const thrown = await commands.run('/mcp tools broken', ctx);
    assert.deepEqual(thrown, { output: 'MCP server "broken": spawn nope ENOENT', error: 'unavailable' }, 'a failure is a message, never a throw');
  });

  it('connects and disconnects a server', async () => {
    assert.equal((await commands.run('/mcp connect memory', ctx)).output, 'MCP server "memory" is running with 0 tools.');
    const failed = await commands.run('/mcp connect broken', ctx);
    assert.deepEqual(failed, { output: 'MCP server "broken" did not start (failed): spawn nope ENOENT', error: 'unavailable' });
    assert.match((await commands.run('/mcp disconnect memory', ctx)).output, /"memory" is stopped; it starts again when the agent needs/);
    assert.deepEqual(hub.calls, ['connect memory', 'connect broken', 'disconnect memory']);
  });

  it('answers a wrong subcommand, a missing or unknown name and a disabled server with a usage error', async () => {
    const unknown = await commands.run('/mcp frobnicate', ctx);
    assert.equal(unknown.error, 'usage');
    assert.match(unknown.output, /Unknown subcommand "frobnicate"[\s\S]*\/mcp tools <name>/);
    assert.equal((await commands.run('/mcp tools', ctx)).error, 'usage');
    assert.deepEqual(await commands.run('/mcp tools ghost', ctx), { output: 'No MCP server "ghost". Configured: everything, memory, broken, off.', error: 'usage' });
    assert.deepEqual(await commands.run('/mcp connect off', ctx), { output: 'MCP server "off" is disabled; /mcp enable off first.', error: 'usage' });
    assert.deepEqual(hub.calls, []);
  });

  it('writes the configuration for add, enable, disable and remove, then reloads the hub', async () => {
    const added = await commands.run('/mcp add notes --command "node" "server one.js" --env NOTES_DIR=/tmp/notes', ctx);
    assert.equal(added.error, undefined, added.output);
    const userFile = join(root, 'home', 'settings.json');
    assert.deepEqual(JSON.parse(readFileSync(userFile, 'utf8')), { mcp_servers: { notes: { command: 'node', args: ['server one.js'], env: { NOTES_DIR: '/tmp/notes' } } } });
    assert.equal(hub.reloads, 1);

    writeFileSync(join(root, 'project', '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: 'mcp-server-everything' } } }));
    assert.equal((await commands.run('/mcp disable everything', ctx)).error, undefined);
    assert.deepEqual(JSON.parse(readFileSync(join(root, 'project', '.opendev', 'settings.json'), 'utf8')), { mcp_servers: { everything: { enabled: false } } });
    assert.equal(hub.reloads, 2);

    assert.match((await commands.run('/mcp remove notes', ctx)).output, /Removed MCP server "notes"/);
    assert.equal(hub.reloads, 3);
    const noChange = await commands.run('/mcp disable everything', ctx);
    assert.match(noChange.output, /already disabled/);
    assert.equal(hub.reloads, 3, 'nothing written, nothing reloaded');
    const bad = await commands.run('/mcp add x --url ftp://h', ctx);
    assert.equal(bad.error, 'usage');
    assert.match(bad.output, /Usage: \/mcp add <name>/);
  });

  it('refuses changes while the agent works, but lists', async () => {
    const busy = { ...ctx, agent: { running: true, mcp: hub } as unknown as CommandAgent };
    assert.equal((await commands.run('/mcp list', busy)).error, undefined);
    const refused = await commands.run('/mcp disable memory', busy);
    assert.equal(refused.error, 'usage');
    assert.match(refused.output, /Wait for the agent to finish/);
  });

  it('says clearly when there is no hub, and still writes the configuration for the next session', async () => {
    const bare = { ...ctx, agent: { running: false } as unknown as CommandAgent };
    assert.deepEqual(await commands.run('/mcp list', bare), {
      output: 'MCP servers are not available here: they belong to a project session (open a folder, or run opendev in the project).',
      error: 'unavailable',
    });
    const added = await commands.run('/mcp add notes --command node', bare);
    assert.match(added.output, /Added MCP server "notes"[\s\S]*takes effect in the next session/);
  });

  it('is a built-in command, completed by subcommand', async () => {
    const builtins = createSlashCommands();
    assert.notEqual(builtins.get('mcp')?.available, false);
    assert.deepEqual(builtins.complete('/mcp d'), ['/mcp disconnect', '/mcp disable']);
    assert.deepEqual(builtins.complete('/mcp u'), ['/mcp untrust']);
  });
});

describe('/mcp with the real hub and real MCP servers', function () {
  this.timeout(120_000);
  const repo = join(__dirname, '../../../../..');
  const bin = (name: string) => join(repo, 'node_modules/.bin', name);
  let root: string;
  let home: string;
  let project: string;
  let hub: McpHub;
  let commands: SlashCommandRegistry;
  let ctx: CommandContext;
  const run = (line: string) => commands.run(line, ctx);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-mcp-real-'));
    home = join(root, 'home');
    project = join(root, 'project');
    mkdirSync(home);
    mkdirSync(project);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcp_servers: { memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: join(root, 'memory.json') } } } }));
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: bin('mcp-server-everything') } } }));
    hub = new McpHub({ registry: new ToolRegistry(), home, workspaceRoot: project });
    commands = new SlashCommandRegistry().register(mcpCommand({ home: () => home }));
    ctx = { agent: { running: false, mcp: hub } as unknown as CommandAgent, front: 'vscode', workingDir: project };
  });
  afterEach(async () => {
    await hub.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('connects, lists tools, tests and disconnects real servers', async () => {
    assert.match((await run('/mcp list')).output, /memory {6}stopped {2}stdio {6}user {7}-\n {2}everything {2}stopped {2}stdio {6}\.mcp\.json {2}-/);
    const connected = await run('/mcp connect everything');
    assert.equal(connected.error, undefined, connected.output);
    assert.match(connected.output, /^MCP server "everything" is running with \d+ tools\.$/);
    const count = hub.list().find((s) => s.name === 'everything')!.toolCount!;
    assert.ok(count > 5, `everything offers its tools (${count})`);
    assert.match((await run('/mcp list')).output, new RegExp(`everything {2}running {2}stdio {6}\\.mcp\\.json {2}${count}`));

    const tools = await run('/mcp tools memory');
    assert.match(tools.output, /^MCP server "memory": \d+ tools \(the agent calls them mcp__memory__<tool>\):/);
    assert.match(tools.output, /\n {2}create_entities +\S/);
    const test = await run('/mcp test memory');
    assert.match(test.output, /^MCP server "memory" is healthy: \d+ tools, answered in \d+ ms\.$/);

    await run('/mcp disconnect everything');
    assert.equal(hub.list().find((s) => s.name === 'everything')!.state, 'stopped');
  });

  it('disable, enable, add and remove change the running hub at once', async () => {
    await run('/mcp connect everything');
    const off = await run('/mcp disable everything');
    assert.equal(off.error, undefined, off.output);
    assert.equal(hub.list().find((s) => s.name === 'everything')!.state, 'disabled');
    assert.match((await run('/mcp list')).output, /everything {2}disabled/);
    assert.equal((await run('/mcp tools everything')).error, 'usage', 'a disabled server offers nothing');
    await run('/mcp enable everything');
    assert.equal(hub.list().find((s) => s.name === 'everything')!.state, 'stopped');

    const added = await run(`/mcp add second-memory --command "${bin('mcp-server-memory')}" --env MEMORY_FILE_PATH=${join(root, 'second.json')} --project`);
    assert.equal(added.error, undefined, added.output);
    assert.deepEqual(hub.list().map((s) => s.name), ['memory', 'everything', 'second-memory']);
    assert.match((await run('/mcp connect second-memory')).output, /is running with \d+ tools/);
    await run('/mcp remove second-memory');
    assert.deepEqual(hub.list().map((s) => s.name), ['memory', 'everything']);
  });

  it('trusts and untrusts a server the project defines; the list names the ones that ask first', async () => {
    const trustOf = () => hub.list().find((s) => s.name === 'everything')!.trust;
    assert.match((await run('/mcp list')).output, /\nDefined by the project, not allowed yet: everything\. Each asks before its first start; \/mcp trust <name> allows one for good\.\n/);
    assert.equal(trustOf(), 'ask');
    const trusted = await run('/mcp trust everything');
    assert.equal(trusted.error, undefined, trusted.output);
    assert.match(trusted.output, /^MCP server "everything" from .*\.mcp\.json is trusted in .*: `.*mcp-server-everything` starts without asking until its definition changes\. \/mcp untrust everything takes it back\.$/);
    assert.equal(trustOf(), 'trusted');
    assert.doesNotMatch((await run('/mcp list')).output, /not allowed yet/);
    assert.match((await run('/mcp untrust everything')).output, /^MCP server "everything" is no longer trusted in .*: it asks before its next start\.$/);
    assert.equal(trustOf(), 'ask');
    assert.match((await run('/mcp trust memory')).output, /"memory" is defined in your own settings .*never asks/);
    assert.equal((await run('/mcp trust')).error, 'usage');
    assert.equal(hub.list().find((s) => s.name === 'everything')!.state, 'stopped', 'trusting starts nothing');
  });

  it('reports a server that cannot start as a message', async () => {
    await run('/mcp add ghost --command /nonexistent/mcp-server');
    const test = await run('/mcp test ghost');
    assert.equal(test.error, 'unavailable');
    assert.match(test.output, /^MCP server "ghost" failed its check after \d+ ms: .*ENOENT/);
    const connect = await run('/mcp connect ghost');
    assert.equal(connect.error, 'unavailable');
    assert.match(connect.output, /did not start \(failed\): .*not found/);
    assert.match((await run('/mcp list')).output, /ghost +failed +stdio +user +- +.*not found/);
  });
});
