// A project's MCP stdio server from npm runs in the OS sandbox: it works inside the workspace and
// cannot write outside it; the user's own servers run as they configured them.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpHub } from '../../../../src/core/mcp/mcp-hub';
import type { McpServerEntry } from '../../../../src/core/mcp/mcp-types';
import { CommandSandbox } from '../../../../src/core/sandbox/command-sandbox';
import { stopSandboxRuntime } from '../../../../src/core/sandbox/sandbox-runtime';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../../src/core/config/sandbox-settings';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { entry, QUICK, serverConfigs } from '../../../helpers/mcp-servers';
import { toolContext } from '../../../helpers/tool-context';

describe('MCP stdio servers in the sandbox (real server-memory from npm)', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let hub: McpHub | undefined;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-sbx-mcp-'));
    ws = mkdtempSync(join(root, 'ws-'));
  });
  afterEach(() => hub?.dispose());
  after(() => stopSandboxRuntime());

  const start = (entries: McpServerEntry[]) => {
    const registry = new ToolRegistry();
    const sandbox = new CommandSandbox({ settings: DEFAULT_SANDBOX_SETTINGS, workspaceRoot: ws, home: join(root, 'home') });
    hub = new McpHub({ registry, workspaceRoot: ws, home: join(root, 'opendev'), timeouts: QUICK, load: () => ({ servers: entries, warnings: [] }), workspaceTrusted: () => true, sandbox });
    const call = async (name: string, args: Record<string, unknown>) => {
      await registry.resolve(name);
      return registry.execute({ id: name, name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: ws }));
    };
    return { call, sandbox };
  };
  const entities = { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] };

  it("a project's server works in the workspace and cannot write outside it", async () => {
    const inside = join(ws, 'memory.jsonl');
    const outside = join(root, 'outside.jsonl');
    const { call } = start([entry('inside', serverConfigs.memory(inside), true, 'mcp.json'), entry('outside', serverConfigs.memory(outside), true, 'mcp.json')]);
    const ok = await call('mcp__inside__create_entities', entities);
    assert.ok(ok.ok, ok.output);
    assert.match(readFileSync(inside, 'utf8'), /Ada/);
    const refused = await call('mcp__outside__create_entities', entities);
    assert.equal(refused.ok, false, refused.output);
    assert.match(refused.output, /read-only file system|EROFS/i);
    assert.ok(!existsSync(outside));
    assert.ok(hub!.list().every((s) => s.state !== 'failed' || s.name === 'outside'));
  });

  it("the user's own server is not sandboxed", async () => {
    const outside = join(root, 'user-server.jsonl');
    const { call } = start([entry('mine', serverConfigs.memory(outside), true, 'user')]);
    const ok = await call('mcp__mine__create_entities', entities);
    assert.ok(ok.ok, ok.output);
    assert.match(readFileSync(outside, 'utf8'), /Ada/);
  });
});
