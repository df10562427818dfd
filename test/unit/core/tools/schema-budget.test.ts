import * as assert from 'node:assert/strict';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { EDITOR_ONLY_TOOLS, editorHostPorts } from '../../../helpers/editor-ports';

/**
 * Every request carries every tool schema, so their size is paid on each turn. 12,000 chars
 * (≈3,000 tokens) for today's built-ins keeps a first "hello" under 8,000 tokens once the later
 * tools (LSP, web, vision, PDF, MCP, skills) arrive. Trim wording before raising this.
 */
const MAX_BUILTIN_SCHEMA_CHARS = 12_000;
/**
 * The editor host (VS Code) adds the symbol tools and notebook_edit (3,472 chars today): the CLI's
 * budget plus exactly that. The whole first "hello" with every tool is measured by
 * `npm run bench -- context` (target < 8,000 tokens).
 */
const EDITOR_TOOLS_SCHEMA_CHARS = 3_500;

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
  // The CLI's tools; the editor host's set below adds the tools that run on its ports.
  const cliSchemas = createBuiltinRegistry().schemas();
  const schemas = createBuiltinRegistry(editorHostPorts()).schemas();

  it(`serialises the CLI's built-in tool schemas in at most ${MAX_BUILTIN_SCHEMA_CHARS} chars`, () => {
    const total = JSON.stringify(cliSchemas).length;
    const perTool = cliSchemas.map((s) => `${s.name} ${JSON.stringify(s).length}`).join(', ');
    assert.ok(total <= MAX_BUILTIN_SCHEMA_CHARS, `tool schemas take ${total} chars (budget ${MAX_BUILTIN_SCHEMA_CHARS}): ${perTool}`);
    assert.deepEqual(cliSchemas.filter((s) => (EDITOR_ONLY_TOOLS as readonly string[]).includes(s.name)), [], 'the CLI has no editor, so no editor tools');
  });

  it(`the editor's own tools (symbols, notebook_edit) add at most ${EDITOR_TOOLS_SCHEMA_CHARS} chars`, () => {
    const editorOnly = schemas.filter((s) => (EDITOR_ONLY_TOOLS as readonly string[]).includes(s.name));
    assert.deepEqual(editorOnly.map((s) => s.name).sort(), [...EDITOR_ONLY_TOOLS].sort());
    const total = JSON.stringify(editorOnly).length;
    const perTool = editorOnly.map((s) => `${s.name} ${JSON.stringify(s).length}`).join(', ');
    assert.ok(total <= EDITOR_TOOLS_SCHEMA_CHARS, `editor tool schemas take ${total} chars (budget ${EDITOR_TOOLS_SCHEMA_CHARS}): ${perTool}`);
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
