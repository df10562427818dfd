import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addMcpServer, mcpConfigFiles, removeMcpServer, runMcpEdit, setMcpServerEnabled, type McpConfigFiles } from '../../../../src/core/mcp/mcp-config-edit';

const options = { command: '/mcp' };
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
};

describe('MCP configuration edits', () => {
  let root: string;
  let files: Required<McpConfigFiles>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-mcp-edit-'));
    files = mcpConfigFiles(join(root, 'home'), join(root, 'project')) as Required<McpConfigFiles>;
    mkdirSync(join(root, 'project'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  describe('add', () => {
    it('writes a stdio server into the user settings, keeping the other keys and the file permissions', async () => {
      write(files.user, { model: 'gpt-4.1', hooks: { Stop: [] }, mcp_servers: { old: { command: 'old-server' } } });
      chmodSync(files.user, 0o600);
      const outcome = await runMcpEdit(files, 'add', ['memory', '--command', 'npx', '-y', '@modelcontextprotocol/server-memory', '--env', 'MEMORY_FILE_PATH=/tmp/m.json'], options);
      assert.equal(outcome.ok, true, outcome.message);
      assert.match(outcome.message, /Added MCP server "memory" to the user settings/);
      assert.deepEqual(json(files.user), {
        model: 'gpt-4.1',
        hooks: { Stop: [] },
        mcp_servers: {
          old: { command: 'old-server' },
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/tmp/m.json' } },
        },
      });
      assert.equal(statSync(files.user).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(join(root, 'home')), ['settings.json'], 'no temp file is left behind');
    });

    it('writes an HTTP server with headers into the project settings with --project, creating the file', async () => {
      const outcome = await runMcpEdit(files, 'add', ['docs', '--url', 'https://example.com/mcp', '--header', 'Authorization: Bearer ${DOCS_TOKEN}', '--project'], options);
      assert.equal(outcome.ok, true, outcome.message);
      assert.deepEqual(json(files.project), { mcp_servers: { docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } } } });
      assert.match(outcome.message, /may be shared/, 'a secret in a committed file is pointed out');
    });

    it('creates a settings file readable by its owner only (it may hold --env secrets); an existing file keeps its mode', async () => {
      const added = await runMcpEdit(files, 'add', ['api', '--command', 'api-server', '--env', 'TOKEN=secret'], options);
      assert.equal(added.ok, true, added.message);
      assert.equal(statSync(files.user).mode & 0o777, 0o600, 'the new user settings file');
      assert.equal((await runMcpEdit(files, 'add', ['docs', '--url', 'https://example.com/mcp', '--project'], options)).ok, true);
      assert.equal(statSync(files.project).mode & 0o777, 0o600, 'the new project settings file');

      // A file the user made readable on purpose stays so, through add, disable and remove.
      chmodSync(files.user, 0o644);
      chmodSync(files.project, 0o640);
      assert.equal((await runMcpEdit(files, 'add', ['more', '--command', 'more-server', '--env', 'K=v'], options)).ok, true);
      assert.equal((await runMcpEdit(files, 'disable', ['docs'], options)).ok, true);
      assert.equal((await runMcpEdit(files, 'remove', ['api'], options)).ok, true);
      assert.deepEqual(Object.keys(json(files.user).mcp_servers), ['more']);
      assert.equal(json(files.project).mcp_servers.docs.enabled, false);
      assert.equal(statSync(files.user).mode & 0o777, 0o644);
      assert.equal(statSync(files.project).mode & 0o777, 0o640);
    });

    it('refuses a name already configured in that file, and says when a higher layer takes precedence', async () => {
      write(files.user, { mcp_servers: { memory: { command: 'a' } } });
      const again = await runMcpEdit(files, 'add', ['memory', '--command', 'b'], options);
      assert.equal(again.ok, false);
      assert.match(again.message, /already configured in .*\/mcp remove memory/);
      assert.equal(json(files.user).mcp_servers.memory.command, 'a');

      write(files.mcpJson, { mcpServers: { shared: { command: 'from-mcp-json' } } });
      const shadowed = await runMcpEdit(files, 'add', ['shared', '--command', 'mine'], options);
      assert.equal(shadowed.ok, true);
      assert.match(shadowed.message, /\.mcp\.json also defines "shared" and takes precedence/);
    });

    it('leaves a broken settings file exactly as it is and says what is wrong with it', async () => {
      const broken = '{ "model": "x", ';
      write(files.user, broken);
      const outcome = await addMcpServer(files, { name: 'memory', scope: 'user', config: { command: 'npx' } }, options);
      assert.equal(outcome.ok, false);
      assert.equal(outcome.usage, undefined, 'a broken file is a failure, not a usage error');
      assert.match(outcome.message, new RegExp(`${files.user.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be changed: .*JSON.*Fix the file first`));
      assert.equal(readFileSync(files.user, 'utf8'), broken);

      write(files.project, { mcp_servers: ['not', 'an', 'object'] });
      const before = readFileSync(files.project, 'utf8');
      const project = await addMcpServer(files, { name: 'memory', scope: 'project', config: { command: 'npx' } }, options);
      assert.match(project.message, /"mcp_servers" is not an object/);
      assert.equal(readFileSync(files.project, 'utf8'), before);
    });

    it('reports a write that fails and leaves nothing half-written', async () => {
      writeFileSync(join(root, 'project', '.opendev'), 'a file where the folder should be');
      const outcome = await addMcpServer(files, { name: 'memory', scope: 'project', config: { command: 'npx' } }, options);
      assert.equal(outcome.ok, false);
      assert.match(outcome.message, /Could not write .*settings\.json .*unchanged/);
      assert.equal(readFileSync(join(root, 'project', '.opendev'), 'utf8'), 'a file where the folder should be');
    });

    it('two changes at once both land (one writer per file)', async () => {
      const results = await Promise.all(['a', 'b', 'c'].map((name) => runMcpEdit(files, 'add', [name, '--command', `server-${name}`], options)));
      assert.ok(results.every((r) => r.ok));
      assert.deepEqual(Object.keys(json(files.user).mcp_servers).sort(), ['a', 'b', 'c']);
    });

    it('needs a project folder for --project', async () => {
      const outcome = await runMcpEdit(mcpConfigFiles(join(root, 'home')), 'add', ['x', '--command', 'y', '--project'], options);
      assert.equal(outcome.usage, true);
      assert.match(outcome.message, /needs a project folder/);
    });
  });

  describe('remove', () => {
    it('removes the entry that wins and says which definition applies now', async () => {
      write(files.user, { model: 'm', mcp_servers: { memory: { command: 'user-memory' } } });
      write(files.project, { mcp_servers: { memory: { command: 'project-memory' } } });
      const first = await removeMcpServer(files, 'memory', options);
      assert.equal(first.ok, true, first.message);
      assert.deepEqual(json(files.project), {}, 'the emptied map goes, the file stays valid');
      assert.match(first.message, /still defined in the user settings .* which now applies/);
      const second = await runMcpEdit(files, 'remove', ['memory'], options);
      assert.equal(second.ok, true);
      assert.deepEqual(json(files.user), { model: 'm' });
      const third = await runMcpEdit(files, 'remove', ['memory'], options);
      assert.equal(third.usage, true);
      assert.match(third.message, /No MCP server "memory" is configured/);
    });

    it('removes an override left without a server to switch', async () => {
      write(files.user, { mcp_servers: { memory: { command: 'npx' } } });
      write(files.project, { model: 'm', mcp_servers: { memory: { enabled: false } } });
      const outcome = await runMcpEdit(files, 'remove', ['memory'], options);
      assert.equal(outcome.ok, true, outcome.message);
      assert.deepEqual(json(files.user), {});
      assert.deepEqual(json(files.project), { model: 'm' });
      assert.deepEqual(outcome.written, [files.user, files.project]);
    });

    it('removes from the file named with --user even when the project defines it too', async () => {
      write(files.user, { mcp_servers: { memory: { command: 'user-memory' } } });
      write(files.project, { mcp_servers: { memory: { command: 'project-memory' } } });
      const outcome = await runMcpEdit(files, 'remove', ['memory', '--user'], options);
      assert.equal(outcome.ok, true, outcome.message);
      assert.deepEqual(json(files.user), {});
      assert.equal(json(files.project).mcp_servers.memory.command, 'project-memory');
    });

    it('never rewrites .mcp.json: a server defined there is refused with the way to turn it off', async () => {
      write(files.mcpJson, { mcpServers: { everything: { command: 'mcp-server-everything' } } });
      const before = readFileSync(files.mcpJson, 'utf8');
      const outcome = await runMcpEdit(files, 'remove', ['everything'], options);
      assert.equal(outcome.ok, false);
      assert.match(outcome.message, /\.mcp\.json, which OpenDev does not rewrite.*\/mcp disable everything/);
      assert.equal(readFileSync(files.mcpJson, 'utf8'), before);
    });
  });

  describe('enable and disable', () => {
    it('sets "enabled" in the settings file the server comes from', async () => {
      write(files.user, { mcp_servers: { memory: { command: 'npx', args: ['m'] } } });
      const off = await runMcpEdit(files, 'disable', ['memory'], options);
      assert.equal(off.ok, true, off.message);
      assert.deepEqual(json(files.user).mcp_servers.memory, { command: 'npx', args: ['m'], enabled: false });
      assert.match((await runMcpEdit(files, 'disable', ['memory'], options)).message, /already disabled/);
      const on = await setMcpServerEnabled(files, 'memory', true, options);
      assert.equal(on.ok, true);
      assert.equal(json(files.user).mcp_servers.memory.enabled, true);
    });

    it('turns a .mcp.json server off with a project override and on again by removing it; .mcp.json stays untouched', async () => {
      write(files.mcpJson, { mcpServers: { everything: { command: 'mcp-server-everything' } } });
      write(files.project, { model: 'project-model' });
      const before = readFileSync(files.mcpJson, 'utf8');
      const off = await runMcpEdit(files, 'disable', ['everything'], options);
      assert.equal(off.ok, true, off.message);
      assert.deepEqual(json(files.project), { model: 'project-model', mcp_servers: { everything: { enabled: false } } });
      assert.match(off.message, /\.mcp\.json is left as it is; the project settings override it/);
      const on = await runMcpEdit(files, 'enable', ['everything'], options);
      assert.equal(on.ok, true, on.message);
      assert.deepEqual(json(files.project), { model: 'project-model' });
      assert.equal(readFileSync(files.mcpJson, 'utf8'), before);
    });

    it('enables a server .mcp.json marks "disabled" (as Cline writes it) with a project override', async () => {
      write(files.mcpJson, { mcpServers: { fetch: { command: 'uvx', args: ['mcp-server-fetch'], disabled: true } } });
      const on = await runMcpEdit(files, 'enable', ['fetch'], options);
      assert.equal(on.ok, true, on.message);
      assert.deepEqual(json(files.project), { mcp_servers: { fetch: { enabled: true } } });
      assert.deepEqual(json(files.mcpJson).mcpServers.fetch.disabled, true);
    });

    it('enables a user server that a project override had turned off by removing the override', async () => {
      write(files.user, { mcp_servers: { memory: { command: 'npx' } } });
      write(files.project, { mcp_servers: { memory: { enabled: false } } });
      const on = await runMcpEdit(files, 'enable', ['memory'], options);
      assert.equal(on.ok, true, on.message);
      assert.deepEqual(json(files.project), {});
      assert.deepEqual(json(files.user).mcp_servers.memory, { command: 'npx' });
    });

    it('reports an unknown server, a bad name and a bad usage as usage errors', async () => {
      assert.equal((await runMcpEdit(files, 'enable', ['ghost'], options)).usage, true);
      assert.match((await runMcpEdit(files, 'disable', ['bad name!'], options)).message, /cannot name a server/);
      assert.match((await runMcpEdit(files, 'enable', [], options)).message, /Usage: \/mcp enable <name>/);
      assert.match((await runMcpEdit(files, 'disable', ['a', '--project'], options)).message, /Usage: \/mcp disable <name>/);
    });
  });
});
