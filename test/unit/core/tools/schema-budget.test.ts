import * as assert from 'node:assert/strict';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';

/**
 * Every request carries every tool schema, so their size is paid on each turn. 12,000 chars
 * (≈3,000 tokens) for today's built-ins keeps a first "hello" under 8,000 tokens once the later
 * tools (LSP, web, vision, PDF, MCP, skills) arrive. Trim wording before raising this.
 */
const MAX_BUILTIN_SCHEMA_CHARS = 12_000;

interface JsonSchemaNode {
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
}

/** `tool.param` / `tool.param.nested` paths of every property without a description. */
function undescribedProperties(prefix: string, node: JsonSchemaNode): string[] {
  const missing: string[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = `${prefix}.${name}`;
    if (!child.description?.trim()) missing.push(path);
    missing.push(...undescribedProperties(path, child));
  }
  if (node.items) missing.push(...undescribedProperties(prefix, node.items));
  return missing;
}

describe('built-in tool schema budget', () => {
  const schemas = createBuiltinRegistry().schemas();

  it(`serialises all built-in tool schemas in at most ${MAX_BUILTIN_SCHEMA_CHARS} chars`, () => {
    const total = JSON.stringify(schemas).length;
    const perTool = schemas.map((s) => `${s.name} ${JSON.stringify(s).length}`).join(', ');
    assert.ok(total <= MAX_BUILTIN_SCHEMA_CHARS, `tool schemas take ${total} chars (budget ${MAX_BUILTIN_SCHEMA_CHARS}): ${perTool}`);
  });

  it('gives every tool a description from templates/tools/', () => {
    assert.ok(schemas.length >= 19, `expected the built-in tools, got ${schemas.length}`);
    for (const schema of schemas) {
      // The registry falls back to the bare name when templates/tools/<name>.md is missing.
      assert.notEqual(schema.description.trim(), schema.name, `${schema.name} has no template description`);
      assert.ok(schema.description.trim().length > 0, `${schema.name} has an empty description`);
    }
  });

  it('describes every parameter, nested ones included', () => {
    const missing = schemas.flatMap((s) => undescribedProperties(s.name, s.parameters as JsonSchemaNode));
    assert.deepEqual(missing, []);
  });
});
