// What the provider gets of an MCP tool's inputSchema: the real servers' clean schemas pass
// unchanged (but for `$schema`), nasty ones come out as a plain object schema whose refs all lead
// somewhere, and one too large becomes a loose schema whose full text search_tools shows.
import * as assert from 'node:assert/strict';
import { McpConnection } from '../../../../src/core/mcp/mcp-connection';
import { MAX_SCHEMA_CHARS, modelSchema, sanitizeSchema } from '../../../../src/core/mcp/mcp-schema';
import { McpToolCatalog } from '../../../../src/core/mcp/mcp-tool-catalog';
import { createSearchToolsTool } from '../../../../src/core/mcp/search-tools-tool';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { QUICK, serverConfigs, tempDir } from '../../../helpers/mcp-servers';
import { toolContext } from '../../../helpers/tool-context';

type Schema = Record<string, unknown>;

/** Every `$ref` in the schema, with whether it leads somewhere inside it. */
function refsOf(schema: Schema): Array<{ ref: string; resolves: boolean }> {
  const found: Array<{ ref: string; resolves: boolean }> = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        let target: unknown = schema;
        for (const part of value.slice(2).split('/').filter(Boolean)) target = (target as Schema | undefined)?.[part];
        found.push({ ref: value, resolves: value === '#' || target !== undefined });
      } else visit(value);
    }
  };
  visit(schema);
  return found;
}

const withoutSchemaKey = ({ $schema: _schema, ...rest }: Schema) => rest;

describe('MCP input schemas as the provider gets them', function () {
  this.timeout(60_000);

  for (const server of ['everything', 'memory', 'filesystem'] as const) {
    it(`${server}: every real schema passes unchanged but for its $schema key`, async () => {
      const config = server === 'everything' ? serverConfigs.everything() : server === 'memory' ? serverConfigs.memory(`${tempDir('m')}/m.jsonl`) : serverConfigs.filesystem(tempDir('fs'));
      const connection = new McpConnection({ name: server, config, cwd: tempDir('cwd'), timeouts: QUICK });
      try {
        await connection.ensureRunning();
        const tools = connection.tools!;
        assert.ok(tools.length >= 9, tools.map((t) => t.name).join());
        assert.ok(tools.every((t) => '$schema' in t.inputSchema), 'the servers do send $schema');
        for (const tool of tools) {
          const sent = modelSchema(tool.inputSchema);
          assert.deepEqual(sent.parameters, withoutSchemaKey(tool.inputSchema), tool.name);
          assert.equal(JSON.stringify(sent.parameters), JSON.stringify(withoutSchemaKey(tool.inputSchema)), `${tool.name}: key order kept`);
          assert.equal(sent.full, undefined);
        }
      } finally {
        await connection.close();
      }
    });
  }

  it('drops $schema, $id, anchors and comments everywhere, but keeps properties that happen to have those names', () => {
    const clean = sanitizeSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/tool.json',
      $comment: 'generated',
      type: 'object',
      properties: {
        $id: { type: 'string', description: 'The record id.' },
        nested: { $id: 'inner', $anchor: 'x', type: 'object', properties: { $schema: { type: 'string' } } },
      },
    });
    assert.deepEqual(clean, {
      type: 'object',
      properties: { $id: { type: 'string', description: 'The record id.' }, nested: { type: 'object', properties: { $schema: { type: 'string' } } } },
    });
  });

  it('makes any root a plain object schema with properties', () => {
    assert.deepEqual(sanitizeSchema(undefined), { type: 'object', properties: {} });
    assert.deepEqual(sanitizeSchema({}), { type: 'object', properties: {} });
    assert.deepEqual(sanitizeSchema({ type: ['object', 'null'], properties: [] }), { type: 'object', properties: {} });
    assert.deepEqual(sanitizeSchema({ type: 'object', properties: { a: true, b: false, c: { type: 'string' } }, required: ['c', 7] }), {
      type: 'object',
      properties: { a: {}, c: { type: 'string' } },
      required: ['c'],
    });
    // A root union (some servers generate one from a discriminated type): its variants' properties
    // are offered, and what every variant requires stays required.
    assert.deepEqual(
      sanitizeSchema({
        anyOf: [
          { type: 'object', properties: { kind: { const: 'file' }, path: { type: 'string' } }, required: ['kind', 'path'] },
          { type: 'object', properties: { kind: { const: 'url' }, url: { type: 'string' } }, required: ['kind', 'url'] },
        ],
      }),
      { type: 'object', properties: { kind: { const: 'file' }, path: { type: 'string' }, url: { type: 'string' } }, required: ['kind'] },
    );
    assert.deepEqual(
      sanitizeSchema({ allOf: [{ properties: { a: { type: 'number' } }, required: ['a'] }, { properties: { b: { type: 'number' } }, required: ['b'] }], not: { required: ['c'] } }),
      { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    );
  });

  it('inlines refs into $defs and definitions, and drops definitions nobody needs any more', () => {
    const clean = sanitizeSchema({
      type: 'object',
      properties: { from: { $ref: '#/$defs/Point', description: 'Start.' }, to: { $ref: '#/definitions/Point' }, path: { type: 'array', items: { $ref: '#/$defs/Point' } } },
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] }, Unused: { type: 'string' } },
      definitions: { Point: { $ref: '#/$defs/Point' } },
    });
    const point = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] };
    assert.deepEqual(clean, { type: 'object', properties: { from: { ...point, description: 'Start.' }, to: point, path: { type: 'array', items: point } } });
  });

  it('keeps a recursive ref as a ref, with exactly the definitions it needs, so every ref leads somewhere', () => {
    const clean = sanitizeSchema({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' }, self: { $ref: '#' } },
      required: ['tree'],
      $defs: {
        Node: { type: 'object', properties: { label: { $ref: '#/$defs/Label' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } },
        Label: { type: 'string', maxLength: 40 },
        Orphan: { type: 'number' },
      },
    });
    const node = { type: 'object', properties: { label: { type: 'string', maxLength: 40 }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } };
    assert.deepEqual(clean, { type: 'object', properties: { tree: node, self: { $ref: '#' } }, required: ['tree'], $defs: { Node: node } });
    assert.ok(refsOf(clean).every((r) => r.resolves), JSON.stringify(refsOf(clean)));
  });

  it('turns refs the provider cannot follow (dangling, remote, into a missing definition) into "any value", keeping their description', () => {
    const clean = sanitizeSchema({
      type: 'object',
      properties: {
        gone: { $ref: '#/$defs/Missing', description: 'Was a Missing.' },
        remote: { $ref: 'https://example.com/schemas/address.json' },
        odd: { $ref: '#/properties/gone/nowhere' },
      },
    });
    assert.deepEqual(clean, { type: 'object', properties: { gone: { description: 'Was a Missing.' }, remote: {}, odd: {} } });
  });

  it('a web of definitions that would explode when inlined keeps refs past a budget, all of them valid', () => {
    // Each level refers to the next twice: inlining everything would take 2^30 copies (it would not
    // return at all), so an answer within the test's time is already the budget at work.
    const defs: Schema = { L30: { type: 'string' } };
    for (let i = 0; i < 30; i++) defs[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/L${i + 1}` }, b: { $ref: `#/$defs/L${i + 1}` } } };
    const sent = modelSchema({ type: 'object', properties: { root: { $ref: '#/$defs/L0' } }, $defs: defs });
    const clean = sent.full ?? sent.parameters;
    assert.ok(refsOf(clean).every((r) => r.resolves));
    assert.ok(JSON.stringify(sent.parameters).length <= MAX_SCHEMA_CHARS);
  });

  it(`a schema over ${MAX_SCHEMA_CHARS.toLocaleString('en-US')} characters is sent as a loose object schema that names its parameters and says where the full one is`, () => {
    const huge = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for. '.repeat(300) },
        filters: { type: 'object', properties: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`field_${i}`, { type: 'string', description: `Filter ${i}.` }])) },
        limit: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      },
      required: ['query'],
    };
    const sent = modelSchema(huge);
    const size = JSON.stringify(sent.full).length;
    assert.ok(size > MAX_SCHEMA_CHARS);
    assert.deepEqual(sent.full, withoutSchemaKey(huge));
    assert.deepEqual(sent.parameters, {
      type: 'object',
      description: `The full parameter schema (${size.toLocaleString('en-US')} characters) is too large to send with every request: call search_tools with this tool's name and detail "full" to read it. The server checks the arguments.`,
      properties: { query: { type: 'string' }, filters: { type: 'object' }, limit: {} },
      required: ['query'],
      additionalProperties: true,
    });
    // Thousands of parameters: not even their names fit.
    const wide = modelSchema({ type: 'object', properties: Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`parameter_${i}`, { type: 'string' }])) });
    assert.deepEqual(wide.parameters.properties, {});
    assert.ok(JSON.stringify(wide.parameters).length < 1_000);
  });

  it('search_tools detail "full" shows the full schema of a tool sent loose; the registry sends the loose one', async () => {
    const registry = new ToolRegistry();
    const catalog = new McpToolCatalog({ registry });
    const properties = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`column_${i}`, { type: 'string', description: `Column number ${i} of the report.` }]));
    catalog.sync({
      server: 'reports',
      transport: 'stdio',
      tools: [
        { name: 'build_report', description: 'Builds a report.', inputSchema: { type: 'object', properties } },
        { name: 'list_reports', description: 'Lists reports.', inputSchema: { type: 'object', properties: { folder: { type: 'string' } } } },
      ],
      call: async () => ({ content: [] }),
    });
    const search = createSearchToolsTool({ startServers: async () => [], list: () => [], toolInfo: (name) => catalog.info(name) }, registry);
    const result = await search.run({ query: 'build report', detail: 'full' }, toolContext({ workspaceRoot: tempDir('ws') }));
    assert.match(result.output, /- mcp__reports__build_report: Builds a report\.\n {2}parameters: \{"type":"object","properties":\{"column_0":\{"type":"string","description":"Column number 0 of the report\."\}/);
    assert.ok(result.output.includes('"column_119"'));
    const sent = registry.get('mcp__reports__build_report')!.parameters as Schema;
    assert.match(String(sent.description), /too large to send with every request/);
    assert.equal(registry.get('mcp__reports__list_reports')!.parameters!.description, undefined);
  });
});
