// MCP through the real CLI (`dist/cli.js -p` in a child process, against the fake provider), with
// the project's servers in `.mcp.json`, the format Claude Code and Cursor use.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider, type RecordedRequest } from '../../fixtures/fake-provider';
import { harnessCallOf, scriptedHarness } from '../../fixtures/harness-calls';
import { serverConfigs } from '../../helpers/mcp-servers';
import { running } from '../../helpers/wait';
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

  it('-p --approval auto: a project server is not started unasked (stderr says how to allow it); after `opendev mcp trust` search_tools finds its tool and the call works', async () => {
    fake.setResponder(scriptedHarness([{ toolCalls: [{ id: 'find', name: 'search_tools', arguments: { query: 'read text file' } }] }, { text: 'The files server is not allowed here.' }], 'lesson'));
    const refused = await opendev(['-p', 'When is the launch? Use the files server.', '-C', ws, '--approval', 'auto'], env());
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stderr, /MCP server "files" \(.*\.mcp\.json\) was not started: servers a project defines start only with your consent.*Allow it with `opendev mcp trust files`/);
    const notSearched = allToolResults(actions()[1]!).find((c) => c.toolCallId === 'find')!.content;
    assert.match(notSearched, /Not started, so not searched \(servers the project defines run only with the user's consent\): files \(nobody could allow it here \(a non-interactive run\)\)/);
    assert.doesNotMatch(notSearched, /mcp__files__/);

    const trust = await opendev(['mcp', 'trust', 'files', '-C', ws], { OPENDEV_HOME: home });
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /^MCP server "files" from .*\.mcp\.json is trusted in .*: `.*mcp-server-filesystem .*` starts without asking until its definition changes\. opendev mcp untrust files takes it back\.\n$/);
    assert.equal(existsSync(join(home, 'mcp-trust.json')), true, "remembered in the user's OpenDev home");

    fake.reset();
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
    assert.doesNotMatch(r.stderr, /"files" .*was not started/);
    const [first, second, third] = actions();
    assert.deepEqual(toolsOf(first!).filter((n) => n.startsWith('mcp__')), []);
    assert.ok(toolsOf(first!).includes('search_tools'));
    assert.match(allToolResults(second!).find((c) => c.toolCallId === 'find')!.content, /- mcp__files__read_text_file:/);
    assert.ok(toolsOf(second!).includes('mcp__files__read_text_file'));
    assert.equal(allToolResults(third!).find((c) => c.toolCallId === 'read')!.content, 'The launch is on Tuesday.\n');
  });

  it('-p at semi-auto: an MCP call needs approval nobody can give, so it is denied and the model is told', async () => {
    assert.equal((await opendev(['mcp', 'trust', 'memory', '-C', ws], { OPENDEV_HOME: home })).code, 0, 'the server may start: the call is under test');
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

  it('-p with a trusted server: the server runs for the call and no server process is left once the run has exited', async () => {
    assert.equal((await opendev(['mcp', 'trust', 'acme', '-C', ws], { OPENDEV_HOME: home })).code, 0);
    fake.setResponder(scriptedHarness([{ toolCalls: [{ id: 'who', name: 'mcp__acme__whoami', arguments: {} }] }, { text: 'Done.' }], 'lesson'));
    const r = await opendev(['-p', 'which process serves acme?', '-C', ws, '--approval', 'auto'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Done.\n');
    const pid = Number(allToolResults(actions()[1]!).find((c) => c.toolCallId === 'who')!.content);
    assert.ok(Number.isInteger(pid) && pid > 0, `the server answered with its pid (${pid})`);
    assert.equal(running(pid), false, `the server process ${pid} ended with the run`);
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
