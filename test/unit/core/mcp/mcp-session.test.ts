// MCP through the real factory and the fake provider: a session with 3 real servers and 100+ MCP
// tools pays nothing for them up front, discovers them through search_tools or a direct call, and
// every MCP call goes through the PreToolUse hooks and the approval step like any other call. The
// folder is not trusted, so each project server asks before its first start (the user's hooks run).
import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../../../../src/core/agent/agent';
import type { ApprovalRequest } from '../../../../src/core/ui';
import { allToolResults, FakeProvider, type RecordedRequest } from '../../../fixtures/fake-provider';
import { harnessCallOf, scriptedHarness } from '../../../fixtures/harness-calls';
import { agentOn, hookGroup, hookWorkspace, logInput, recordingUI, systemOf, type HookWorkspace } from '../../../helpers/hook-workspace';
import { FIXTURE_FIXED_TOOLS, serverConfigs } from '../../../helpers/mcp-servers';

const ACME_TOOLS = 100;
const toolsOf = (req: RecordedRequest): string[] => (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

describe('MCP in a session (factory + fake provider + 3 real servers)', function () {
  this.timeout(90_000);
  const fake = new FakeProvider();
  let ws: HookWorkspace;
  let agent: Agent | undefined;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    ws = hookWorkspace();
    // The format other agents use, in the project: filesystem, memory and 100 generated tools.
    writeFileSync(
      join(ws.workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          files: serverConfigs.filesystem(ws.workspace),
          memory: { ...serverConfigs.memory(join(ws.home, 'memory.jsonl')), description: 'Knowledge-graph memory of the project' },
          acme: serverConfigs.fixture(ACME_TOOLS),
        },
      }),
    );
  });
  afterEach(async () => {
    await agent?.dispose();
    agent = undefined;
  });

  const actionRequests = () => fake.requests.filter((r) => harnessCallOf(r) === 'action');

  it('the first request carries no MCP schema, only search_tools and a line per server; found tools join the next request; a direct call works and joins too', async () => {
    ws.userSettings({ PreToolUse: hookGroup(logInput, { matcher: 'mcp__.*' }) });
    fake.setResponder(
      scriptedHarness(
        [
          { toolCalls: [{ id: 'find', name: 'search_tools', arguments: { query: 'weather forecast for a city' } }] },
          { toolCalls: [{ id: 'direct', name: 'mcp__memory__create_entities', arguments: { entities: [{ name: 'OpenDev', entityType: 'project', observations: ['uses MCP'] }] } }] },
          { toolCalls: [{ id: 'weather', name: 'mcp__acme__weather_forecast', arguments: { city: 'Lyon' } }] },
          { text: 'Done.' },
        ],
        'MCP tools are found with search_tools.',
      ),
    );
    const approvals: ApprovalRequest[] = [];
    agent = await agentOn(ws, fake, { approvalLevel: 'semi-auto', projectTrusted: false });
    assert.ok(agent.mcp, 'the agent exposes its MCP hub');
    assert.deepEqual(agent.mcp.list().map((s) => `${s.name}:${s.state}:${s.source}`), ['files:stopped:mcp.json', 'memory:stopped:mcp.json', 'acme:stopped:mcp.json']);

    const result = await agent.runTurn('What will the weather be in Lyon? Remember this project too.', recordingUI({ requestApproval: async (req) => (approvals.push(req), { action: 'allow' }) }));
    assert.equal(result.status, 'completed');
    assert.equal(result.text, 'Done.');

    const [first, second, third, fourth] = actionRequests();
    // 1. No MCP schema up front: search_tools alone stands for 128 tools; the prompt lists the servers.
    assert.deepEqual(toolsOf(first!).filter((n) => n.startsWith('mcp__')), []);
    assert.ok(toolsOf(first!).includes('search_tools'));
    const system = systemOf(first!);
    assert.match(system, /## MCP servers \(tools via search_tools\)\n- files: mcp-server-filesystem\n- memory: Knowledge-graph memory of the project\n- acme: generated-tools-server\.js/);
    const total = agent.mcp.list().reduce((n, s) => n + (s.toolCount ?? 0), 0);
    assert.ok(total >= 100 + ACME_TOOLS / 10, `all three servers started by the search: ${total} MCP tools`);
    assert.equal(total, 14 + 9 + ACME_TOOLS + FIXTURE_FIXED_TOOLS);

    // 2. After search_tools: the matches' schemas, and nothing else of the 128.
    const found = allToolResults(second!).find((r) => r.toolCallId === 'find')!.content;
    assert.match(found, /- mcp__acme__weather_forecast: Predicts tomorrow for a city\./);
    const secondMcp = toolsOf(second!).filter((n) => n.startsWith('mcp__'));
    assert.ok(secondMcp.includes('mcp__acme__weather_forecast'), secondMcp.join(', '));
    assert.ok(secondMcp.length <= 10);
    assert.ok(!secondMcp.includes('mcp__memory__create_entities'), 'not found by that search');
    const schema = second!.body.tools.find((t: { function: { name: string } }) => t.function.name === 'mcp__acme__weather_forecast').function;
    assert.deepEqual(schema.parameters.required, ['city'], "the server's input schema, as is");

    // 3. The direct call of a tool never searched for worked, and its schema joined the next request.
    assert.match(allToolResults(third!).find((r) => r.toolCallId === 'direct')!.content, /OpenDev/);
    assert.ok(toolsOf(third!).includes('mcp__memory__create_entities'));
    assert.match(allToolResults(fourth!).find((r) => r.toolCallId === 'weather')!.content, /Sunny in Lyon/);

    // The project's servers (.mcp.json) asked before their first start, through the same approval path.
    // Approval at semi-auto: asked for both MCP calls (weather_forecast is read-only-hinted: asked all the same), never for search_tools.
    assert.deepEqual(approvals.map((a) => a.toolName), ['MCP server files', 'MCP server memory', 'MCP server acme', 'mcp__memory__create_entities', 'mcp__acme__weather_forecast']);
    assert.match(approvals[0]!.title, /^Start MCP server files from .*\.mcp\.json: `\S*mcp-server-filesystem \S+`\?$/);
    // The PreToolUse hook with matcher mcp__.* saw both calls, with their arguments; search_tools did not match.
    const seen = ws.inputs().filter((i) => i.hook_event_name === 'PreToolUse');
    assert.deepEqual(seen.map((i) => i.tool_name), ['mcp__memory__create_entities', 'mcp__acme__weather_forecast']);
    assert.deepEqual(seen[1]!.tool_input, { city: 'Lyon' });
  });

  it('a denied approval or a PreToolUse hook that blocks stops the MCP call before the server sees it', async () => {
    ws.userSettings({ PreToolUse: hookGroup('cat >/dev/null; echo "no graph writes today" >&2; exit 2', { matcher: 'mcp__memory__create_.*' }) });
    fake.setResponder(
      scriptedHarness(
        [
          {
            toolCalls: [
              { id: 'blocked', name: 'mcp__memory__create_entities', arguments: { entities: [{ name: 'X', entityType: 't', observations: [] }] } },
              { id: 'denied', name: 'mcp__files__write_file', arguments: { path: join(ws.workspace, 'denied.txt'), content: 'x' } },
            ],
          },
          { text: 'Understood.' },
        ],
        'lesson',
      ),
    );
    agent = await agentOn(ws, fake, { approvalLevel: 'semi-auto', projectTrusted: false });
    const asked: string[] = [];
    // The project's servers may start; every call is denied.
    const answer = async (req: ApprovalRequest) => (req.toolName.startsWith('MCP server ') ? { action: 'allow' as const } : (asked.push(req.toolName), { action: 'deny' as const }));
    await agent.runTurn('write things', recordingUI({ requestApproval: answer }));
    const results = new Map(allToolResults(actionRequests()[1]!).map((r) => [r.toolCallId, r.content]));
    assert.match(results.get('blocked')!, /no graph writes today/);
    assert.match(results.get('denied')!, /Error \(rejected\)/);
    assert.deepEqual(asked, ['mcp__files__write_file'], 'the blocked call never reached the approval step');
    assert.equal(existsSync(join(ws.workspace, 'denied.txt')), false);
    assert.equal(existsSync(join(ws.home, 'memory.jsonl')), false, 'the memory server never wrote');
  });

  it('approval level auto skips the call approvals but not the question before a project server first starts', async () => {
    fake.setResponder(scriptedHarness([{ toolCalls: [{ id: 'read', name: 'mcp__memory__read_graph', arguments: {} }] }, { toolCalls: [{ id: 'again', name: 'mcp__memory__read_graph', arguments: {} }] }, { text: 'Empty.' }], 'lesson'));
    agent = await agentOn(ws, fake, { approvalLevel: 'auto', projectTrusted: false });
    const asked: string[] = [];
    await agent.runTurn('what is in the graph?', recordingUI({ requestApproval: async (req) => (asked.push(req.title), { action: 'allow' }) }));
    assert.deepEqual(asked.map((t) => t.replace(/ from .*/, '')), ['Start MCP server memory'], 'one question, for the server, none for the calls');
    const results = actionRequests().slice(1).flatMap((r) => allToolResults(r));
    assert.match(results.find((r) => r.toolCallId === 'read')!.content, /"entities"/);
    assert.match(results.find((r) => r.toolCallId === 'again')!.content, /"entities"/);
  });

  it('mcp: false turns MCP off: no hub, no search_tools, no server lines', async () => {
    fake.setResponder(scriptedHarness([{ text: 'Hi.' }], 'lesson'));
    agent = await agentOn(ws, fake, { mcp: false });
    assert.equal(agent.mcp, undefined);
    await agent.runTurn('hello', recordingUI());
    const first = actionRequests()[0]!;
    assert.ok(!toolsOf(first).includes('search_tools'));
    assert.doesNotMatch(systemOf(first), /MCP servers/);
  });
});
