// What reaches the host's log besides provider calls, each from the real part that does it: hooks and
// undo through the real agent, MCP through the hub with a real stdio server, the sandbox's lines
// (status, a blocked write, an allowed host) with its runtime faked (bubblewrap's own behaviour has
// tests of its own in sandbox/).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSlashCommands } from '../../../src/core/commands/slash-commands';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/core/config/sandbox-settings';
import { lineLogger } from '../../../src/core/log-line';
import { McpHub } from '../../../src/core/mcp/mcp-hub';
import { CommandSandbox, type SandboxRuntimePort } from '../../../src/core/sandbox/command-sandbox';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { FakeProvider } from '../../fixtures/fake-provider';
import { agentOn, hookGroup, hookWorkspace, recordingUI } from '../../helpers/hook-workspace';
import { entry, QUICK, serverConfigs, tempDir } from '../../helpers/mcp-servers';
import { toolContext } from '../../helpers/tool-context';

function recording() {
  const lines: string[] = [];
  return { lines, logger: lineLogger((level, line) => lines.push(`[${level}] ${line}`)), text: () => lines.join('\n') };
}

describe('session events in the log', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  it('logs which hook ran with its decision and duration, each undo checkpoint and step, and the restore', async () => {
    const ws = hookWorkspace();
    ws.userSettings({ PreToolUse: hookGroup('echo checked >/dev/null', { matcher: 'write_file' }) });
    const log = recording();
    fake.setResponder(() => ({ text: 'done' }));
    fake.enqueue({ toolCalls: [{ name: 'write_file', arguments: { file_path: 'a.txt', content: 'A\n' } }] }, { text: 'written' });
    const agent = await agentOn(ws, fake, { host: { logger: log.logger }, undo: { budgetMs: 60_000 } });
    try {
      const result = await agent.runTurn('write a.txt', recordingUI());
      assert.equal(result.status, 'completed');
      const undo = await createSlashCommands().run('/undo', { agent, front: 'cli', workingDir: ws.workspace });
      assert.match(undo.output, /a\.txt/);
    } finally {
      await agent.dispose();
    }
    const text = log.text();
    assert.match(text, /^\[info\] hooks ran event=PreToolUse match=write_file hooks="echo checked >\/dev\/null" exitCodes=0 decision=continue ms=\d+$/m);
    assert.match(text, /^\[debug\] undo: checkpoint step=1 tool=write_file tree=[0-9a-f]{12}$/m);
    assert.match(text, /^\[info\] undo: step recorded step=1 changed=1 tools=write_file$/m);
    assert.match(text, /^\[info\] undo: restored steps=1 /m);
  });

  it('logs an MCP server starting, running and its tool calls (no arguments), and a server that fails', async () => {
    const log = recording();
    const registry = new ToolRegistry();
    const broken = entry('broken', { command: process.execPath, args: ['-e', "console.error('needs ACME_URL'); process.exit(1)"] });
    const hub = new McpHub({ registry, workspaceRoot: tempDir('ws'), home: tempDir('home'), timeouts: QUICK, load: () => ({ servers: [entry('memory', serverConfigs.memory(join(tempDir('m'), 'm.jsonl'))), broken], warnings: [] }), log: log.logger });
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        await registry.resolve(name);
        return registry.execute({ id: name, name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: tempDir('ws') }));
      };
      const r = await call('mcp__memory__create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['private note'] }] });
      assert.equal(r.ok, true, r.output);
      await call('mcp__broken__anything', {});
    } finally {
      await hub.dispose();
    }
    const text = log.text();
    assert.match(text, /^\[info\] mcp: server state server=memory state=starting transport=stdio/m);
    assert.match(text, /^\[info\] mcp: server state server=memory state=running transport=stdio .*pid=\d+/m);
    assert.match(text, /^\[info\] mcp: tool call server=memory tool=create_entities ms=\d+ status=ok$/m);
    assert.match(text, /^\[info\] mcp: server state server=broken state=failed .*error=".*needs ACME_URL/m);
    assert.match(text, /mcp: server state server=memory state=stopped/);
    assert.ok(!text.includes('private note'), 'tool arguments stay out of the log');
  });

  it('logs the sandbox status once, each blocked write and an allowed host', async () => {
    const log = recording();
    let available = false;
    const runtime: SandboxRuntimePort = {
      availability: async () => (available ? { available: true } : { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: 'apt-get install bubblewrap' }),
      wrap: async (command) => command,
      violationLines: () => [],
      release: () => undefined,
    };
    const sandbox = new CommandSandbox({ settings: { ...DEFAULT_SANDBOX_SETTINGS, enabled: true }, workspaceRoot: '/work/project', home: '/home/u', runtime, log: log.logger });
    await sandbox.status();
    await sandbox.status();
    available = true;
    const launch = await sandbox.wrap('touch /etc/opendev-canary', '/work/project');
    launch!.finish("touch: cannot touch '/etc/opendev-canary': Read-only file system\n");
    await sandbox.allowHost('registry.example.org', 'session');
    sandbox.dispose();
    assert.deepEqual(log.lines, [
      '[info] sandbox: status state=unavailable reason="bubblewrap (bwrap) is not installed"',
      '[info] sandbox: status state=active',
      `[warn] sandbox: blocked kind=write target=/etc/opendev-canary why="${log.lines[2]!.match(/why="([^"]*)"/)![1]}" command="touch /etc/opendev-canary"`,
      '[info] sandbox: host allowed host=registry.example.org scope=session',
    ]);
  });
});
