import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMcpConfig } from '../../../../src/core/mcp/mcp-config';
import { tempDir } from '../../../helpers/mcp-servers';

describe('MCP configuration (settings.json mcp_servers, .mcp.json mcpServers)', () => {
  let home: string;
  let workspace: string;
  const write = (file: string, value: unknown) => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const userFile = () => join(home, 'settings.json');
  const mcpJson = () => join(workspace, '.mcp.json');
  const projectFile = () => join(workspace, '.opendev', 'settings.json');
  const load = (env: NodeJS.ProcessEnv = {}) => loadMcpConfig({ home, workspaceRoot: workspace, env });

  beforeEach(() => {
    home = tempDir('home');
    workspace = tempDir('ws');
  });

  it('reads the three layers; for one name project settings win over .mcp.json over the user', () => {
    write(userFile(), { model: 'x', mcp_servers: { shared: { command: 'user-cmd' }, mine: { command: 'mine', args: ['-v'] } } });
    write(mcpJson(), { mcpServers: { shared: { command: 'mcpjson-cmd' }, remote: { type: 'http', url: 'https://example.com/mcp', headers: { A: 'b' } } } });
    write(projectFile(), { mcp_servers: { shared: { command: 'project-cmd', env: { K: 'v' } } } });
    const { servers, warnings } = load();
    assert.deepEqual(warnings, []);
    const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(byName).sort(), ['mine', 'remote', 'shared']);
    assert.equal((byName.shared!.config as { command: string }).command, 'project-cmd');
    assert.equal(byName.shared!.source, 'project');
    assert.equal(byName.shared!.file, projectFile());
    assert.equal(byName.remote!.source, 'mcp.json');
    assert.deepEqual(byName.remote!.config, { type: 'http', url: 'https://example.com/mcp', headers: { A: 'b' } });
    assert.equal(byName.mine!.source, 'user');
    assert.ok(servers.every((s) => s.enabled));
  });

  it('an entry of only { "enabled": false } in a higher layer disables a server defined lower, and true enables it again', () => {
    write(userFile(), { mcp_servers: { memory: { command: 'mem' }, off: { command: 'x', enabled: false } } });
    write(mcpJson(), { mcpServers: { memory: { enabled: false } } });
    write(projectFile(), { mcp_servers: { off: { enabled: true } } });
    const { servers, warnings } = load();
    assert.deepEqual(warnings, []);
    const memory = servers.find((s) => s.name === 'memory')!;
    assert.equal(memory.enabled, false);
    assert.equal((memory.config as { command: string }).command, 'mem', 'the lower definition is kept');
    assert.equal(memory.source, 'user');
    assert.equal(memory.toggledIn, mcpJson());
    assert.equal(servers.find((s) => s.name === 'off')!.enabled, true);
  });

  it('expands ${VAR} and ${VAR:-default} in command, args, env, url and headers from the environment; an unset one is a warning', () => {
    write(mcpJson(), {
      mcpServers: {
        gh: { command: '${TOOLS}/gh-mcp', args: ['--token', '${GH_TOKEN}', '--mode=${MODE:-ro}'], env: { TOKEN: '${GH_TOKEN}', LEFT: 'as is' } },
        api: { type: 'http', url: '${API_BASE}/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } },
      },
    });
    const { servers, warnings } = load({ TOOLS: '/opt/tools', GH_TOKEN: 'ghp_1', API_BASE: 'https://api.example.com' });
    const gh = servers.find((s) => s.name === 'gh')!.config as { command: string; args: string[]; env: Record<string, string> };
    assert.equal(gh.command, '/opt/tools/gh-mcp');
    assert.deepEqual(gh.args, ['--token', 'ghp_1', '--mode=ro']);
    assert.deepEqual(gh.env, { TOKEN: 'ghp_1', LEFT: 'as is' });
    const api = servers.find((s) => s.name === 'api')!.config as { url: string; headers: Record<string, string> };
    assert.equal(api.url, 'https://api.example.com/mcp', 'the URL validates as what it expands to');
    assert.deepEqual(api.headers, { Authorization: 'Bearer ' });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /\.mcp\.json: MCP server "api": \$\{API_KEY\} is not set in the environment/);
  });

  it('a bad entry is a warning naming the file and the server; the other servers still load', () => {
    write(mcpJson(), {
      mcpServers: {
        good: { command: 'ok' },
        'bad name!': { command: 'x' },
        nothing: { args: ['a'] },
        badurl: { type: 'http', url: 'not a url' },
        array: ['x'],
        lonely: { enabled: false },
      },
    });
    const { servers, warnings } = load();
    assert.deepEqual(servers.map((s) => s.name), ['good']);
    const text = warnings.join('\n');
    assert.match(text, /\.mcp\.json: MCP server "bad name!" is ignored: a server name may only use letters, digits/);
    assert.match(text, /MCP server "nothing" is ignored: it needs "command" \(a program to run\) or "url"/);
    assert.match(text, /MCP server "badurl" is ignored: url: /);
    assert.match(text, /MCP server "array" is ignored: its entry must be a JSON object/);
    assert.match(text, /MCP server "lonely" is ignored: it only sets "enabled", and no lower settings file defines this server/);
    assert.equal(warnings.length, 5);
  });

  it('a broken file is one warning and costs only its own servers; a missing file is nothing', () => {
    write(userFile(), { mcp_servers: { mine: { command: 'mine' } } });
    write(mcpJson(), '{ "mcpServers": { "a": ');
    write(projectFile(), { mcp_servers: ['not', 'an', 'object'] });
    const { servers, warnings } = load();
    assert.deepEqual(servers.map((s) => s.name), ['mine']);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /\.mcp\.json cannot be used \(.*\); its MCP servers are ignored\./);
    assert.match(warnings[1]!, /\.opendev\/settings\.json cannot be used \(its "mcp_servers" is not an object/);

    const empty = loadMcpConfig({ home: tempDir('nohome'), workspaceRoot: tempDir('nows'), env: {} });
    assert.deepEqual(empty, { servers: [], warnings: [] });
  });

  it("accepts Cline's { disabled: true } and SSE servers", () => {
    write(mcpJson(), { mcpServers: { old: { command: 'x', disabled: true }, events: { type: 'sse', url: 'http://127.0.0.1:9/sse' } } });
    const { servers, warnings } = load();
    assert.deepEqual(warnings, []);
    assert.equal(servers.find((s) => s.name === 'old')!.enabled, false);
    assert.equal((servers.find((s) => s.name === 'events')!.config as { type: string }).type, 'sse');
  });
});
