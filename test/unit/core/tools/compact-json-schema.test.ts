import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { compactJsonSchema } from '../../../../src/core/tools/compact-json-schema';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';

const schema = z.object({
  name: z.string().min(1).max(12).describe('A name.'),
  count: z.number().int().min(1).optional().describe('How many.'),
  // Parameter names that are also JSON Schema keywords must survive the clean-up.
  maximum: z.number().int().max(10).describe('A parameter called maximum.'),
  minLength: z.string().describe('A parameter called minLength.'),
  extra: z.record(z.string(), z.unknown()).optional().describe('Free-form.'),
});

const echoTool: Tool<typeof schema> = {
  name: 'echo_args',
  category: 'meta',
  readOnly: true,
  schema,
  async run(args) {
    return { ok: true, output: JSON.stringify(args), summary: '✓ echoed' };
  },
};

describe('compactJsonSchema', () => {
  const registry = new ToolRegistry().register(echoTool);
  const params = registry.schemas()[0]!.parameters as { properties: Record<string, Record<string, unknown>>; $schema?: string };

  it('drops what tells the model nothing and keeps real limits', () => {
    assert.equal('$schema' in params, false);
    assert.deepEqual(params.properties.name, { type: 'string', maxLength: 12, description: 'A name.' });
    assert.deepEqual(params.properties.count, { description: 'How many.', type: 'integer', minimum: 1 });
    assert.equal(params.properties.maximum!.maximum, 10);
    assert.deepEqual(params.properties.extra, { description: 'Free-form.', type: 'object' });
  });

  it('keeps parameters whose names are schema keywords', () => {
    assert.deepEqual(Object.keys(params.properties).sort(), ['count', 'extra', 'maximum', 'minLength', 'name']);
    assert.equal(params.properties.minLength!.description, 'A parameter called minLength.');
  });

  it('does not loosen validation: an empty name is still refused', async () => {
    const r = await registry.execute(
      { id: '1', name: 'echo_args', arguments: JSON.stringify({ name: '', maximum: 1, minLength: 'x' }) },
      toolContext({ workspaceRoot: process.cwd() }),
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /name/);
  });

  it('leaves a schema without noise unchanged', () => {
    const plain = { type: 'object', properties: { a: { type: 'string', description: 'x' } }, required: ['a'] };
    assert.deepEqual(compactJsonSchema(plain), plain);
  });
});
