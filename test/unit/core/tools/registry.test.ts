import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { MAX_DISCOVERED, ToolRegistry } from '../../../../src/core/tools/registry';
import { toolContext } from '../../../helpers/tool-context';

describe('ToolRegistry', () => {
  const registry = createBuiltinRegistry();
  const ctx = toolContext({ workspaceRoot: process.cwd() });

  it('derives the model-facing schema from zod, with the description from templates/', () => {
    const [schema] = registry.schemas();
    assert.equal(schema?.name, 'read_file');
    assert.match(schema!.description, /line numbers/);
    const params = schema!.parameters as { type: string; required: string[]; properties: Record<string, unknown> };
    assert.equal(params.type, 'object');
    assert.deepEqual(params.required, ['file_path']);
    assert.deepEqual(Object.keys(params.properties).sort(), ['file_path', 'max_lines', 'offset']);
    assert.equal('$schema' in params, false);
  });

  it('filters schemas by an allow-list', () => {
    assert.deepEqual(registry.schemas(new Set(['nothing'])), []);
  });

  it('turns malformed JSON arguments into an error the model can fix', async () => {
    const r = await registry.execute({ id: '1', name: 'read_file', arguments: '{"file_path": "a.ts"' }, ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /not valid JSON.*Send one JSON object/s);
  });

  it('names the missing or mistyped argument', async () => {
    const r = await registry.execute({ id: '1', name: 'read_file', arguments: '{"offset": "ten"}' }, ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /file_path/);
    assert.match(r.output, /offset/);
  });

  it('ignores extra properties the model adds', async () => {
    const r = await registry.execute({ id: '1', name: 'read_file', arguments: '{"file_path": "package.json", "why": "curious"}' }, ctx);
    assert.equal(r.ok, true, r.output);
  });

  it('answers an unknown tool with the list of real ones', async () => {
    const r = await registry.execute({ id: '1', name: 'read_files', arguments: '{}' }, ctx);
    assert.equal(r.errorKind, 'not_found');
    assert.match(r.output, /Unknown tool "read_files". Available tools: read_file/);
  });
});

describe('ToolRegistry in plan mode', () => {
  it('refuses a tool that writes, even if the model calls it directly', async () => {
    const { z } = await import('zod');
    const registry = createBuiltinRegistry();
    let ran = false;
    registry.register({ name: 'write_thing', category: 'file', readOnly: false, schema: z.object({}), run: async () => ((ran = true), { ok: true, output: '', summary: '' }) });
    const ctx = toolContext({ workspaceRoot: process.cwd(), mode: { mode: 'plan', autoApproveEdits: false } });
    const r = await registry.execute({ id: '1', name: 'write_thing', arguments: '{}' }, ctx);
    assert.equal(r.errorKind, 'permission');
    assert.match(r.output, /plan mode does not allow/);
    assert.equal(ran, false);
    assert.equal((await registry.execute({ id: '2', name: 'read_file', arguments: '{"file_path":"package.json"}' }, ctx)).ok, true);
  });
});

describe('ToolRegistry.refusal: before the approval step', () => {
  it('nobody is asked about a call that cannot run (plan mode, the Planner off its plan file); a plan file still asks at Semi-Auto', async () => {
    const root = mkdtempSync(join(tmpdir(), 'opendev-refusal-'));
    const registry = createBuiltinRegistry();
    const asked: string[] = [];
    const ui = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, requestApproval: async (req: { title: string }) => (asked.push(req.title), { action: 'allow' as const }) };
    const dispatch = async (args: Record<string, unknown>, overrides: Parameters<typeof toolContext>[0]) => {
      const [r] = await new ToolDispatcher(registry, approvalGate(registry, () => 'semi-auto')).dispatch([{ id: 'c', name: 'write_file', arguments: JSON.stringify(args) }], toolContext({ ...overrides, ui }));
      return r!;
    };
    const planMode = await dispatch({ file_path: 'a.txt', content: 'x' }, { workspaceRoot: root, mode: { mode: 'plan', autoApproveEdits: false } });
    assert.match(planMode.output, /plan mode does not allow/);
    const planner = { name: 'Planner', isSubagent: true, planFilesOnly: true };
    const source = await dispatch({ file_path: 'src/a.ts', content: 'x', create_dirs: true }, { workspaceRoot: root, agent: planner });
    assert.match(source.output, /^Error \(permission\): write_file cannot change `src\/a\.ts`: the Planner writes only its plan file/);
    assert.deepEqual(asked, [], 'nobody was asked about either');
    assert.equal(existsSync(join(root, 'src/a.ts')), false);
    const plan = await dispatch({ file_path: '.opendev/plans/a.md', content: '# Plan', create_dirs: true }, { workspaceRoot: root, agent: planner });
    assert.equal(plan.ok, true, plan.output);
    assert.equal(asked.length, 1, 'the plan file is an ordinary write: Semi-Auto asks');
    rmSync(root, { recursive: true, force: true });
  });
});

describe('ToolRegistry and an agent’s allowed tools', () => {
  it('refuses a tool outside the agent’s allow-list (e.g. reached through batch_tool)', async () => {
    const registry = createBuiltinRegistry();
    const ctx = toolContext({ workspaceRoot: process.cwd(), agent: { name: 'Code-Explorer', isSubagent: true, allowedTools: new Set(['read_file', 'task_complete']) } });
    const denied = await registry.execute({ id: '1', name: 'write_file', arguments: '{"file_path":"x.txt","content":"x"}' }, ctx);
    assert.equal(denied.errorKind, 'permission');
    assert.match(denied.output, /write_file is not available to the Code-Explorer agent/);
    assert.equal((await registry.execute({ id: '2', name: 'read_file', arguments: '{"file_path":"package.json"}' }, ctx)).ok, true);
  });
});

describe('ToolRegistry with deferred tools', () => {
  const deferredTool = (name: string) => ({ name, category: 'meta' as const, readOnly: true, deferred: true, description: `about ${name}`, parameters: { type: 'object' }, schema: z.object({}), run: async () => ({ ok: true, output: name, summary: name }) });

  it('leaves deferred tools out of the schemas until discovered, and keeps the most recently used ones when there are too many', () => {
    const registry = new ToolRegistry();
    for (let i = 0; i < MAX_DISCOVERED + 5; i++) registry.register(deferredTool(`t${i}`));
    assert.deepEqual(registry.schemas(), []);
    registry.discover(['t0', 't1']);
    assert.deepEqual(registry.schemas().map((s) => s.name), ['t0', 't1']);
    assert.deepEqual(registry.schemas()[0]!.parameters, { type: 'object' }, 'their own schema and description go out as they are');
    const before = registry.version;
    registry.discover(['t0']); // used again: most recent now
    assert.equal(registry.version, before, 'rediscovering changes no schema');
    registry.discover(Array.from({ length: MAX_DISCOVERED }, (_, i) => `t${i + 2}`));
    const names = registry.schemas().map((s) => s.name);
    assert.equal(names.length, MAX_DISCOVERED);
    assert.ok(!names.includes('t1'), 't1 was the least recently used and dropped out');
    assert.ok(!names.includes('t0'), 't0 dropped out too once 30 newer ones came');
  });

  it('a call by name resolves an unknown tool through the resolvers and discovers it; without one it stays unknown', async () => {
    const registry = new ToolRegistry();
    registry.addResolver(async (name) => {
      if (!name.startsWith('mcp__')) return false;
      registry.register(deferredTool(name));
      return true;
    });
    assert.equal((await registry.resolve('mcp__x__y'))?.name, 'mcp__x__y');
    assert.ok(registry.isDiscovered('mcp__x__y'));
    assert.deepEqual(registry.schemas().map((s) => s.name), ['mcp__x__y']);
    assert.equal(await registry.resolve('nothing_here'), undefined);
    const r = await registry.execute({ id: '1', name: 'nothing_here', arguments: '{}' }, toolContext({ workspaceRoot: process.cwd() }));
    assert.match(r.output, /Available tools: \./, 'deferred tools are not listed in the unknown-tool error');
  });
});
