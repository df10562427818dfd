// search_tools against real servers (the generated-tools fixture, server-memory): it starts them,
// scores every deferred tool (name hit 2, description hit 1, keywords of ≥ 3 characters), and the
// matches' schemas join the next call.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { McpHub } from '../../../../src/core/mcp/mcp-hub';
import { createSearchToolsTool, scoreTool, searchKeywords } from '../../../../src/core/mcp/search-tools-tool';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { entry, QUICK, serverConfigs, servers, tempDir } from '../../../helpers/mcp-servers';
import { toolContext } from '../../../helpers/tool-context';

describe('search_tools', function () {
  this.timeout(60_000);

  it('keywords: lower case, at least 3 characters, no stop words, each once', () => {
    assert.deepEqual(searchKeywords('Read a FILE, read the file at /tmp/x.md'), ['read', 'file', 'tmp']);
    assert.deepEqual(searchKeywords('an ok go'), []);
  });

  it('scores 2 per keyword in the name and 1 per keyword in the description', () => {
    assert.equal(scoreTool(['forecast'], 'mcp__w__weather_forecast', 'Predicts tomorrow.'), 2);
    assert.equal(scoreTool(['forecast'], 'mcp__w__atmosphere_readings', 'Readings used to forecast rain.'), 1);
    assert.equal(scoreTool(['forecast', 'readings'], 'mcp__w__atmosphere_readings', 'Readings used to forecast rain.'), 4);
    assert.equal(scoreTool(['invoice'], 'mcp__w__sleep', 'Waits.'), 0);
  });

  it('costs little in every request: schema and description within 450 characters, every parameter described', () => {
    const registry = new ToolRegistry();
    registry.register(createSearchToolsTool({ startServers: async () => [], list: () => [] }, registry));
    const [schema] = registry.schemas();
    assert.ok(JSON.stringify(schema).length <= 450, `${JSON.stringify(schema).length} chars`);
    assert.notEqual(schema!.description, 'search_tools', 'its description comes from templates/tools/search_tools.md');
    const properties = (schema!.parameters as { properties: Record<string, { description?: string }> }).properties;
    assert.deepEqual(Object.keys(properties), ['query', 'detail']);
    for (const [name, p] of Object.entries(properties)) assert.ok(p.description?.trim(), `${name} is described`);
  });

  describe('on real servers', () => {
    let registry: ToolRegistry;
    let hub: McpHub;
    const search = async (args: Record<string, unknown>) => {
      const r = await registry.execute({ id: 's', name: 'search_tools', arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: tempDir('ws') }));
      assert.equal(r.ok, true, r.output);
      return r;
    };
    const listed = (output: string) => [...output.matchAll(/^- (mcp__\S+?)(?::|$)/gm)].map((m) => m[1]);

    beforeEach(() => {
      registry = new ToolRegistry();
      hub = new McpHub({
        registry,
        workspaceRoot: tempDir('ws'),
        home: tempDir('home'),
        timeouts: QUICK,
        load: servers(entry('acme', serverConfigs.fixture(40)), entry('memory', serverConfigs.memory(join(tempDir('mem'), 'm.jsonl'))), entry('off', serverConfigs.everything(), false)),
      });
    });
    afterEach(() => hub.dispose());

    it('starts the enabled servers, ranks a name hit above a description hit, and discovers the matches', async () => {
      assert.deepEqual(registry.deferredTools(), [], 'nothing started before the search');
      const r = await search({ query: 'forecast' });
      // weather_forecast: "forecast" in its name (2); atmosphere_readings: only in its description (1).
      // Equal weights would tie them, and the name order would put atmosphere_readings first.
      assert.deepEqual(listed(r.output), ['mcp__acme__weather_forecast', 'mcp__acme__atmosphere_readings']);
      assert.match(r.output, /^2 tools for "forecast", best first\. They are in your tool list now/);
      assert.match(r.output, /- mcp__acme__weather_forecast: Predicts tomorrow for a city\./);
      assert.deepEqual(hub.list().map((s) => `${s.name}:${s.state}`), ['acme:running', 'memory:running', 'off:disabled']);
      const schemas = registry.schemas().map((s) => s.name).filter((n) => n.startsWith('mcp__'));
      assert.deepEqual(schemas.sort(), ['mcp__acme__atmosphere_readings', 'mcp__acme__weather_forecast']);
      assert.ok(registry.deferredTools().length >= 40 + 9, 'every tool of both servers is known, only the matches are discovered');
    });

    it('detail: names lists names only; full adds the parameters; naming a server ranks its tools first', async () => {
      const names = await search({ query: 'delete entities relations', detail: 'names' });
      assert.deepEqual(listed(names.output).slice(0, 2).sort(), ['mcp__memory__delete_entities', 'mcp__memory__delete_relations']);
      assert.doesNotMatch(names.output, /knowledge graph/);

      const full = await search({ query: 'memory open nodes', detail: 'full' });
      assert.equal(listed(full.output)[0], 'mcp__memory__open_nodes');
      assert.match(full.output, /\n {2}parameters: \{"type":"object"/);
      assert.ok(listed(full.output).slice(0, 9).every((n) => n!.startsWith('mcp__memory__')), 'the server named in the query comes first');

      const capped = await search({ query: 'invoice customer ticket order' });
      assert.equal(listed(capped.output).length, 10);
      assert.match(capped.output, /\(\d+ more matched: narrow the query to see them\)/);
    });

    it('no match says so and lists the servers with their tool counts', async () => {
      const r = await search({ query: 'zebra quantum' });
      assert.match(r.output, /^No MCP tool matches "zebra quantum"/);
      assert.match(r.output, /- acme: 45 tools/);
      assert.match(r.output, /- memory: 9 tools/);
      assert.match(r.output, /- off: disabled/);
      assert.equal(registry.schemas().filter((s) => s.name.startsWith('mcp__')).length, 0);
    });
  });
});
