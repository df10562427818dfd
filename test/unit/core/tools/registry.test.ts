import * as assert from 'node:assert/strict';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
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
