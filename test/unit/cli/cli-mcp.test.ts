// MCP through the real CLI (`dist/cli.js -p` in a child process, against the fake provider), with
// the project's servers in `.mcp.json`, the format Claude Code and Cursor use.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider, type RecordedRequest } from '../../fixtures/fake-provider';
import { harnessCallOf, scriptedHarness } from '../../fixtures/harness-calls';
import { serverConfigs } from '../../helpers/mcp-servers';
import { newHome, opendev } from './cli-harness';

const toolsOf = (req: RecordedRequest): string[] => (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

describe('opendev CLI with MCP servers', function () {
  this.timeout(90_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: string;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home });
  const actions = () => fake.requests.filter((r) => harnessCallOf(r) === 'action');

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = mkdtempSync(join(tmpdir(), 'opendev-cli-mcp-'));
    writeFileSync(join(ws, 'notes.txt'), 'The launch is on Tuesday.\n');
    writeFileSync(
      join(ws, '.mcp.json'),
      JSON.stringify({ mcpServers: { files: serverConfigs.filesystem(ws), memory: serverConfigs.memory(join(home, 'memory.jsonl')), acme: serverConfigs.fixture(100) } }),
    );
  });

  it('-p --approval auto: finds a tool with search_tools and calls it; the first request had no MCP schema', async () => {
    fake.setResponder(
      scriptedHarness(
        [
          { toolCalls: [{ id: 'find', name: 'search_tools', arguments: { query: 'read text file', server: 'files' } }] },
          { toolCalls: [{ id: 'read', name: 'mcp__files__read_text_file', arguments: { path: join(ws, 'notes.txt') } }] },
          { text: 'The launch is on Tuesday.' },
        ],
        'lesson',
      ),
    );
    const r = await opendev(['-p', 'When is the launch? Use the files server.', '-C', ws, '--approval', 'auto'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'The launch is on Tuesday.\n');
    const [first, second, third] = actions();
    assert.deepEqual(toolsOf(first!).filter((n) => n.startsWith('mcp__')), []);
    assert.ok(toolsOf(first!).includes('search_tools'));
    assert.match(allToolResults(second!).find((c) => c.toolCallId === 'find')!.content, /- mcp__files__read_text_file:/);
    assert.ok(toolsOf(second!).includes('mcp__files__read_text_file'));
    assert.equal(allToolResults(third!).find((c) => c.toolCallId === 'read')!.content, 'The launch is on Tuesday.\n');
  });

  it('-p at semi-auto: an MCP call needs approval nobody can give, so it is denied and the model is told', async () => {
    fake.setResponder(
      scriptedHarness(
        [{ toolCalls: [{ id: 'write', name: 'mcp__memory__create_entities', arguments: { entities: [{ name: 'A', entityType: 'b', observations: [] }] } }] }, { text: 'I could not save it.' }],
        'lesson',
      ),
    );
    const r = await opendev(['-p', 'remember A', '-C', ws], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /non-interactive run: approval denied \(use --approval auto to allow\)/);
    assert.match(allToolResults(actions()[1]!).find((c) => c.toolCallId === 'write')!.content, /Error \(rejected\): The user denied mcp__memory__create_entities: non-interactive run/);
    assert.equal(existsSync(join(home, 'memory.jsonl')), false, 'the server never wrote');
  });

  it('a broken .mcp.json is a warning on stderr, and the run goes on without MCP', async () => {
    writeFileSync(join(ws, '.mcp.json'), '{ "mcpServers": ');
    fake.setResponder(scriptedHarness([{ text: 'Hello.' }], 'lesson'));
    const r = await opendev(['-p', 'hi', '-C', ws], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Hello.\n');
    assert.match(r.stderr, /\.mcp\.json cannot be used \(.*\); its MCP servers are ignored\./);
    assert.ok(!toolsOf(actions()[0]!).includes('search_tools'));
  });
});
