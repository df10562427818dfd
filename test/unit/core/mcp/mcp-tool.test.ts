import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpCallError } from '../../../../src/core/mcp/mcp-call-error';
import type { McpServerTool } from '../../../../src/core/mcp/mcp-connection';
import { createMcpTool } from '../../../../src/core/mcp/mcp-tool';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ApprovalRequest } from '../../../../src/core/ui';
import { silentUI } from '../../../../src/core/ui';
import { tempDir } from '../../../helpers/mcp-servers';
import { toolContext } from '../../../helpers/tool-context';

const definition = (extra: Partial<McpServerTool> = {}): McpServerTool => ({
  name: 'read_graph',
  description: 'Read the entire knowledge graph',
  inputSchema: { type: 'object', properties: { depth: { type: 'number', description: 'How deep.' } }, required: ['depth'] },
  ...extra,
});

function tool(def: McpServerTool, call: (args: Record<string, unknown>) => Promise<CallToolResult> = async () => ({ content: [{ type: 'text', text: 'ok' }] })) {
  return createMcpTool({ server: 'memory', transport: 'stdio', definition: def, qualifiedName: `mcp__memory__${def.name}`, deferred: true, call: (args) => call(args) });
}

describe('MCP tools as Tools', () => {
  const ws = tempDir('tool-ws');

  it("send the server's input schema (cleaned), deferred, with the server's description", () => {
    const t = tool(definition());
    assert.equal(t.name, 'mcp__memory__read_graph');
    assert.equal(t.deferred, true);
    assert.deepEqual(t.parameters, definition().inputSchema);
    assert.equal(t.description, 'Read the entire knowledge graph');
    const bare = tool(definition({ inputSchema: { type: 'object' } }));
    assert.deepEqual(bare.parameters, { type: 'object', properties: {} });
    const long = tool(definition({ description: `${'Lists things. '.repeat(200)}` }));
    assert.ok(long.description!.length <= 1_024, String(long.description!.length));
    assert.match(long.description!, /Lists things\.…$/);
  });

  it('are read-only (plan mode, parallel runs) only when the server says readOnlyHint and not destructiveHint', () => {
    assert.equal(tool(definition({ annotations: { readOnlyHint: true } })).readOnly, true);
    assert.equal(tool(definition({ annotations: { readOnlyHint: true, destructiveHint: true } })).readOnly, false);
    assert.equal(tool(definition({ annotations: { destructiveHint: false } })).readOnly, false);
    assert.equal(tool(definition()).readOnly, false);
  });

  it('ask for approval at semi-auto even when read-only-hinted; auto and an "always allow" rule let them run', async () => {
    const registry = new ToolRegistry();
    registry.register(tool(definition({ annotations: { readOnlyHint: true } })));
    const asked: ApprovalRequest[] = [];
    const ui = { ...silentUI, requestApproval: async (req: ApprovalRequest) => (asked.push(req), { action: 'always' as const }) };
    let level: ApprovalLevel = 'semi-auto';
    const gate = approvalGate(registry, () => level);
    const call = { id: '1', name: 'mcp__memory__read_graph', arguments: '{"depth":1}' };
    const ctx = toolContext({ workspaceRoot: ws, ui });
    assert.equal((await gate.before!(call, ctx)).proceed, true);
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0]!.toolName, 'mcp__memory__read_graph');
    assert.equal((await gate.before!(call, ctx)).proceed, true);
    assert.equal(asked.length, 1, '"Always allow" holds for the tool');

    const fresh = approvalGate(registry, () => level);
    level = 'auto';
    assert.equal((await fresh.before!(call, ctx)).proceed, true);
    assert.equal(asked.length, 1, 'auto does not ask');
    level = 'semi-auto';
    const denied = await approvalGate(registry, () => level).before!(call, toolContext({ workspaceRoot: ws }));
    assert.equal(denied.proceed, false, 'nobody to ask: refused');
  });

  it('read-only-hinted MCP calls may run in parallel, but their approvals are asked one at a time', async () => {
    const registry = new ToolRegistry();
    registry.register(tool(definition({ annotations: { readOnlyHint: true } })));
    let open = 0;
    let most = 0;
    const ui = {
      ...silentUI,
      requestApproval: async () => {
        most = Math.max(most, ++open);
        await new Promise((r) => setTimeout(r, 30));
        open--;
        return { action: 'allow' as const };
      },
    };
    const gate = approvalGate(registry, () => 'semi-auto');
    const ctx = toolContext({ workspaceRoot: ws, ui });
    const calls = [1, 2, 3].map((n) => gate.before!({ id: String(n), name: 'mcp__memory__read_graph', arguments: `{"depth":${n}}` }, ctx));
    assert.deepEqual((await Promise.all(calls)).map((r) => r.proceed), [true, true, true]);
    assert.equal(most, 1, 'a terminal can answer one question at a time');
  });

  it('reject arguments that are not a JSON object with a clear error, before the server sees them', async () => {
    const registry = new ToolRegistry();
    let calls = 0;
    registry.register(tool(definition(), async () => (calls++, { content: [] })));
    const r = await registry.execute({ id: '1', name: 'mcp__memory__read_graph', arguments: '["a"]' }, toolContext({ workspaceRoot: ws }));
    assert.equal(r.ok, false);
    assert.match(r.output, /MCP tools take one JSON object of named arguments/);
    assert.equal(calls, 0);
    const ok = await registry.execute({ id: '2', name: 'mcp__memory__read_graph', arguments: '{"depth":2}' }, toolContext({ workspaceRoot: ws }));
    assert.equal(ok.ok, true);
    assert.equal(calls, 1);
  });

  it('turn call failures into typed errors the model can act on', async () => {
    const registry = new ToolRegistry();
    const failures: McpCallError[] = [
      new McpCallError('timeout', 'no answer within 120 s'),
      new McpCallError('unavailable', 'the command was not found'),
      new McpCallError('crashed', 'the connection failed'),
    ];
    registry.register(tool(definition(), async () => {
      throw failures.shift();
    }));
    const run = () => registry.execute({ id: '1', name: 'mcp__memory__read_graph', arguments: '{}' }, toolContext({ workspaceRoot: ws }));
    const timeout = await run();
    assert.equal(timeout.errorKind, 'timeout');
    assert.match(timeout.output, /mcp__memory__read_graph did not finish: no answer within 120 s\. .*retry only if the call is safe to repeat/);
    const unavailable = await run();
    assert.match(unavailable.output, /MCP server "memory" is not available: the command was not found\. .*\/mcp test memory/);
    const crashed = await run();
    assert.match(crashed.output, /MCP server "memory" stopped during mcp__memory__read_graph \(the connection failed\); it is being restarted/);
  });
});
