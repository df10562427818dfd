// Consent before a server the project defines first starts: asked once through the front end's
// approval path, Allow for the session, Always remembered in OPENDEV_HOME/mcp-trust.json (per
// workspace and exact definition), Deny not asked again; the user's own servers never ask; with
// nobody to ask the server stays stopped and the user is told how to allow it.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_CONFIG_SOURCES, unchangedSince } from '../../../../src/core/trust/project-files';
import { McpHub, type McpHubOptions } from '../../../../src/core/mcp/mcp-hub';
import type { McpServerEntry } from '../../../../src/core/mcp/mcp-types';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ApprovalDecision, ApprovalRequest, UICallback } from '../../../../src/core/ui';
import { entry, QUICK, serverConfigs, tempDir } from '../../../helpers/mcp-servers';
import { toolContext } from '../../../helpers/tool-context';

/** A front end that answers every question with `answer` and records questions and notices. */
function answering(answer: ApprovalDecision['action']) {
  const asked: ApprovalRequest[] = [];
  const notices: string[] = [];
  const ui: UICallback = {
    onTextDelta() {},
    onToolStart() {},
    onToolEnd() {},
    onNotice: (text) => void notices.push(text),
    requestApproval: async (request) => (asked.push(request), { action: answer } as ApprovalDecision),
  };
  return { ui, asked, notices };
}

describe('MCP trust: a project-defined server asks before its first start', function () {
  this.timeout(60_000);
  let home: string;
  let workspace: string;
  const hubs: McpHub[] = [];
  const project = (args = 2) => entry('acme', serverConfigs.fixture(args), true, 'mcp.json');
  const trustFile = () => join(home, 'mcp-trust.json');

  /** A session: its registry and hub over `servers`; `search` and `call` as the model would. */
  const session = (servers: McpServerEntry[], extra: Partial<McpHubOptions> = {}) => {
    const registry = new ToolRegistry();
    const hub = new McpHub({ registry, workspaceRoot: workspace, home, timeouts: QUICK, load: () => ({ servers, warnings: [] }), ...extra });
    hubs.push(hub);
    const run = async (name: string, args: Record<string, unknown>) => {
      await registry.resolve(name); // what the dispatcher does before approval and hooks
      return registry.execute({ id: name, name, arguments: JSON.stringify(args) }, toolContext({ workspaceRoot: workspace }));
    };
    return { hub, registry, search: (query: string) => run('search_tools', { query }), call: (name: string, args: Record<string, unknown> = {}) => run(name, args) };
  };
  const state = (hub: McpHub) => hub.list().map((s) => `${s.name}:${s.state}:${s.trust ?? '-'}`);

  beforeEach(() => {
    home = tempDir('home');
    workspace = tempDir('ws');
  });
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.dispose()));
  });

  it('a trusted folder counts as consent, only while its MCP files are what was trusted', async () => {
    writeFileSync(join(workspace, '.mcp.json'), '{"mcpServers":{}}');
    const front = answering('deny');
    const { hub, search } = session([project()], { ui: front.ui, workspaceTrusted: unchangedSince(workspace, MCP_CONFIG_SOURCES) });
    assert.deepEqual(state(hub), ['acme:stopped:trusted']);
    // The file changes after the folder was trusted (a pull; a Refresh re-reads it): its servers ask again.
    writeFileSync(join(workspace, '.mcp.json'), '{"mcpServers":{"acme":{}}}');
    assert.deepEqual(state(hub), ['acme:stopped:ask']);
    await search('forecast');
    assert.equal(front.asked.length, 1);
  });

  it('asks once, with the file and the command line; Allow starts it for this session only', async () => {
    const front = answering('allow');
    const { hub, search } = session([project()], { ui: front.ui });
    assert.deepEqual(state(hub), ['acme:stopped:ask']);

    const found = await search('weather forecast');
    assert.match(found.output, /- mcp__acme__weather_forecast/);
    assert.equal(front.asked.length, 1);
    const [question] = front.asked;
    assert.equal(question!.toolName, 'MCP server acme');
    assert.match(question!.title, /^Start MCP server acme from \(test\): `\S+node \S+generated-tools-server\.js 2`\?$/);
    assert.deepEqual(JSON.parse(question!.args).args.slice(-1), ['2']);
    assert.deepEqual(state(hub), ['acme:running:allowed']);

    await search('forecast');
    assert.equal(front.asked.length, 1, 'asked once per session');
    assert.equal(existsSync(trustFile()), false, 'Allow is not remembered');

    const next = answering('deny');
    const again = session([project()], { ui: next.ui });
    await again.search('forecast');
    assert.equal(next.asked.length, 1, 'a new session asks again');
  });

  it('Always is remembered in OPENDEV_HOME/mcp-trust.json: a new session starts it unasked, a changed command asks again', async () => {
    const front = answering('always');
    await session([project()], { ui: front.ui }).search('forecast');
    assert.equal(front.asked.length, 1);
    const saved = JSON.parse(readFileSync(trustFile(), 'utf8'));
    assert.equal(saved.version, 1);
    assert.deepEqual(
      saved.trusted.map((r: Record<string, string>) => [r.workspace, r.server, /^[0-9a-f]{64}$/.test(r.hash!)]),
      [[realpathSync(workspace), 'acme', true]],
    );
    assert.match(saved.trusted[0].definition, /generated-tools-server\.js 2$/);
    assert.equal(existsSync(join(workspace, 'mcp-trust.json')) || existsSync(join(workspace, '.opendev')), false, 'nothing is written in the project');
    assert.equal(statSync(trustFile()).mode & 0o777, 0o600, 'created readable by the user only');

    const later = answering('deny');
    const trusted = session([project()], { ui: later.ui });
    assert.deepEqual(state(trusted.hub), ['acme:stopped:trusted']);
    const direct = await trusted.call('mcp__acme__weather_forecast', { city: 'Lyon' });
    assert.match(direct.output, /Sunny in Lyon/);
    assert.equal(later.asked.length, 0, 'a remembered server starts without asking');

    const changed = session([project(3)], { ui: later.ui });
    assert.deepEqual(state(changed.hub), ['acme:stopped:ask']);
    await changed.search('forecast');
    assert.equal(later.asked.length, 1, 'another command line is another question');

    const elsewhere = answering('deny');
    const otherWorkspace = new McpHub({ registry: new ToolRegistry(), workspaceRoot: tempDir('other'), home, timeouts: QUICK, load: () => ({ servers: [project()], warnings: [] }), ui: elsewhere.ui });
    hubs.push(otherWorkspace);
    assert.deepEqual(state(otherWorkspace), ['acme:stopped:ask'], 'trust is per workspace');
  });

  it('Deny: not started, search_tools and a direct call say the user declined, and nothing asks again; Connect still starts it', async () => {
    const front = answering('deny');
    const { hub, search, call } = session([project(), entry('memory', serverConfigs.memory(join(tempDir('m'), 'm.jsonl')))], { ui: front.ui });
    const found = await search('forecast entities');
    assert.match(found.output, /Not started, so not searched \(servers the project defines run only with the user's consent\): acme \(the user declined to start it in this session\)\. Do not retry; .*\/mcp trust <name>/);
    assert.doesNotMatch(found.output, /mcp__acme__/);
    assert.match(found.output, /mcp__memory__/, "the user's own server was searched");

    const direct = await call('mcp__acme__weather_forecast', { city: 'Lyon' });
    assert.equal(direct.ok, false);
    assert.match(direct.output, /MCP server "acme" was not started: the project defines it \(\(test\)\), and the user declined to start it in this session\. Do not retry mcp__acme__weather_forecast; .*\/mcp trust acme .*opendev mcp trust acme/);
    assert.equal(front.asked.length, 1, 'one question, one answer for the session');
    assert.deepEqual(state(hub), ['acme:stopped:declined', 'memory:running:-']);

    const connected = await hub.connect('acme');
    assert.equal(connected.state, 'running', 'an explicit connect is the user asking for it');
    assert.equal(connected.trust, 'allowed');
    assert.equal(front.asked.length, 1);
  });

  it("the user's own servers never ask", async () => {
    const front = answering('deny');
    const { hub, search } = session([entry('acme', serverConfigs.fixture(2))], { ui: front.ui });
    await search('forecast');
    assert.deepEqual(state(hub), ['acme:running:-']);
    assert.equal(front.asked.length, 0);
  });

  it('with nobody to ask (opendev -p) it is not started, the user is told once how to allow it, and `trust` then lets it start', async () => {
    const front = answering('allow'); // an unattended run's front end must never be asked
    const { hub, search } = session([project()], { ui: front.ui, unattended: true });
    const first = await search('forecast');
    assert.match(first.output, /acme \(nobody could allow it here \(a non-interactive run\)\)/);
    await search('weather');
    assert.equal(front.asked.length, 0);
    assert.equal(front.notices.length, 1, 'told once');
    assert.match(front.notices[0]!, /MCP server "acme" \(\(test\)\) was not started: servers a project defines start only with your consent.*Allow it with `opendev mcp trust acme` in /);

    const trusted = await hub.setTrust('acme', true);
    assert.equal(trusted.ok, true);
    assert.match(trusted.message, /MCP server "acme" from \(test\) is trusted in .*: `.*generated-tools-server\.js 2` starts without asking until its definition changes\./);
    assert.match((await search('forecast')).output, /- mcp__acme__weather_forecast/);
    assert.deepEqual(state(hub), ['acme:running:trusted']);
  });

  it('untrust forgets it (the file is made private again, 0600): the next session asks again', async () => {
    const { hub } = session([project()]);
    await hub.setTrust('acme', true);
    assert.deepEqual(state(hub), ['acme:stopped:trusted']);
    chmodSync(trustFile(), 0o644); // an older, open file: the next write closes it (OPENDEV_HOME is private)
    const forgot = await hub.setTrust('acme', false);
    assert.match(forgot.message, /MCP server "acme" is no longer trusted in .*: it asks before its next start\./);
    assert.deepEqual(JSON.parse(readFileSync(trustFile(), 'utf8')).trusted, []);
    assert.equal(statSync(trustFile()).mode & 0o777, 0o600);
    const front = answering('deny');
    await session([project()], { ui: front.ui }).search('forecast');
    assert.equal(front.asked.length, 1);
  });

  it('a broken trust file is reported, trusts nothing and is never overwritten', async () => {
    writeFileSync(trustFile(), '{ "version": 1, "trusted": [ { "workspace": 1 } ] }');
    const before = readFileSync(trustFile(), 'utf8');
    const front = answering('always');
    const { hub, search } = session([project()], { ui: front.ui });
    const refused = await hub.setTrust('acme', true);
    assert.equal(refused.ok, false);
    assert.match(refused.message, /mcp-trust\.json cannot be used \(trusted\.0\.workspace: .*\); fix or delete it\. OpenDev leaves it as it is\./);

    await search('forecast');
    assert.equal(front.asked.length, 1, 'nothing is trusted: it asks');
    assert.deepEqual(state(hub), ['acme:running:allowed']);
    assert.ok(front.notices.some((n) => /mcp-trust\.json cannot be used .*project MCP servers ask as if nothing were trusted/.test(n)), front.notices.join('\n'));
    assert.ok(front.notices.some((n) => /MCP server "acme" is allowed for this session only: .*cannot be used/.test(n)), front.notices.join('\n'));
    assert.equal(readFileSync(trustFile(), 'utf8'), before, 'left as it was');
  });
});
