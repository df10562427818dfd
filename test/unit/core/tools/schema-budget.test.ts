import * as assert from 'node:assert/strict';
import { createBuiltinRegistry } from '../../../../src/core/tools/builtin-tools';
import { EDITOR_ONLY_TOOLS, editorHostPorts } from '../../../helpers/editor-ports';

/**
 * Every request carries every tool schema, so their size is paid on each turn. 12,000 chars
 * (≈3,000 tokens) for the workspace and harness tools, plus 3,600 for the tools that reach out
 * (web, vision, PDF; 3,465 today), keep a first "hello" under 8,000 tokens. invoke_skill and
 * search_tools are measured by their own tests. Trim wording before raising these.
 */
const MAX_BUILTIN_SCHEMA_CHARS = 12_000;
const REACH_OUT_TOOLS = ['fetch_url', 'web_search', 'capture_web_screenshot', 'analyze_image', 'capture_screenshot', 'read_pdf'] as const;
const REACH_OUT_SCHEMA_CHARS = 3_600;
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

  const isReachOut = (name: string) => (REACH_OUT_TOOLS as readonly string[]).includes(name);

  it(`serialises the CLI's workspace and harness tool schemas in at most ${MAX_BUILTIN_SCHEMA_CHARS} chars`, () => {
    const core = cliSchemas.filter((s) => !isReachOut(s.name));
    const total = JSON.stringify(core).length;
    const perTool = core.map((s) => `${s.name} ${JSON.stringify(s).length}`).join(', ');
    assert.ok(total <= MAX_BUILTIN_SCHEMA_CHARS, `tool schemas take ${total} chars (budget ${MAX_BUILTIN_SCHEMA_CHARS}): ${perTool}`);
    assert.deepEqual(cliSchemas.filter((s) => (EDITOR_ONLY_TOOLS as readonly string[]).includes(s.name)), [], 'the CLI has no editor, so no editor tools');
  });

  it(`the web, vision and PDF tools add at most ${REACH_OUT_SCHEMA_CHARS} chars`, () => {
    const reachOut = cliSchemas.filter((s) => isReachOut(s.name));
    assert.deepEqual(reachOut.map((s) => s.name).sort(), [...REACH_OUT_TOOLS].sort(), 'the CLI offers all of them');
    const total = JSON.stringify(reachOut).length;
    const perTool = reachOut.map((s) => `${s.name} ${JSON.stringify(s).length}`).join(', ');
    assert.ok(total <= REACH_OUT_SCHEMA_CHARS, `reach-out tool schemas take ${total} chars (budget ${REACH_OUT_SCHEMA_CHARS}): ${perTool}`);
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
