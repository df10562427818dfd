import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newHome, opendev, repo } from './cli-harness';

const memoryServer = join(repo, 'node_modules/.bin/mcp-server-memory');
const everythingServer = join(repo, 'node_modules/.bin/mcp-server-everything');

/** `opendev mcp …` through the built dist/cli.js: no API key in the environment, a private home and project. */
describe('opendev mcp', function () {
  this.timeout(120_000);
  let home: string;
  let project: string;
  const run = (...args: string[]) => opendev(['mcp', ...args], { OPENDEV_HOME: home }, { cwd: project });
  const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;

  beforeEach(() => {
    home = newHome();
    project = mkdtempSync(join(tmpdir(), 'opendev-mcp-project-'));
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: everythingServer } } }, null, 2));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  it('adds a server to the user settings and lists it beside the .mcp.json one, without an API key', async () => {
    const added = await run('add', 'memory', '--command', memoryServer, '--env', `MEMORY_FILE_PATH=${join(home, 'memory.json')}`);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, `Added MCP server "memory" to the user settings (${join(home, 'settings.json')}).\n`);
    assert.deepEqual(json(join(home, 'settings.json')), { mcp_servers: { memory: { command: memoryServer, env: { MEMORY_FILE_PATH: join(home, 'memory.json') } } } });
    assert.equal(statSync(join(home, 'settings.json')).mode & 0o777, 0o600, 'created readable by the user only: it holds the --env values');

    const list = await run('list');
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(list.stdout.split('\n').slice(0, 4), [
      'MCP servers (2):',
      '  NAME        STATE    TRANSPORT  SOURCE     TOOLS  LAST ERROR',
      '  memory      stopped  stdio      user       -',
      '  everything  stopped  stdio      .mcp.json  -',
    ]);
  });

  it('disables a .mcp.json server with an override in the project settings, and enables it again', async () => {
    const before = readFileSync(join(project, '.mcp.json'), 'utf8');
    const off = await run('disable', 'everything');
    assert.equal(off.code, 0, off.stderr);
    assert.deepEqual(json(join(project, '.opendev', 'settings.json')), { mcp_servers: { everything: { enabled: false } } });
    assert.match((await run('list')).stdout, /everything {2}disabled {2}stdio {6}\.mcp\.json/);
    const on = await run('enable', 'everything', '-C', project);
    assert.equal(on.code, 0, on.stderr);
    assert.deepEqual(json(join(project, '.opendev', 'settings.json')), {});
    assert.equal(readFileSync(join(project, '.mcp.json'), 'utf8'), before, '.mcp.json is never rewritten');
  });

  it('list --test starts each enabled server and reports its tools and time, exiting 1 when one fails', async () => {
    assert.equal((await run('add', 'memory', '--command', memoryServer, '--env', `MEMORY_FILE_PATH=${join(home, 'memory.json')}`)).code, 0);
    const healthy = await run('list', '--test');
    assert.equal(healthy.code, 0, healthy.stderr + healthy.stdout);
    assert.match(healthy.stdout, /memory {6}running {2}stdio {6}user {7}\d+/);
    assert.match(healthy.stdout, /MCP server "memory" is healthy: \d+ tools, answered in \d+ ms\./);
    assert.match(healthy.stdout, /MCP server "everything" is healthy: \d+ tools/);

    assert.equal((await run('add', 'broken', '--command', join(project, 'no-such-server'), '--project')).code, 0);
    const failing = await run('list', '--test');
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /broken {6}failed {3}stdio {6}project {4}- {6}.*not found/);
    assert.match(failing.stdout, /MCP server "broken" failed its check after \d+ ms: .*ENOENT/);
  });

  it('exits 2 on bad usage or an unknown server, 1 on a settings file it must not overwrite', async () => {
    const unknownCommand = await run('frobnicate');
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /unknown command "frobnicate"/);
    const unknownServer = await run('enable', 'ghost');
    assert.equal(unknownServer.code, 2);
    assert.match(unknownServer.stderr, /No MCP server "ghost" is configured\. opendev mcp list shows/);
    const badAdd = await run('add', 'x', '--url', 'not a url');
    assert.equal(badAdd.code, 2);
    assert.match(badAdd.stderr, /Usage: opendev mcp add <name>/);

    writeFileSync(join(home, 'settings.json'), '{ "model": ');
    const broken = await run('add', 'memory', '--command', memoryServer);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /settings\.json cannot be changed: .*Fix the file first/);
    assert.equal(readFileSync(join(home, 'settings.json'), 'utf8'), '{ "model": ');
  });

  it('trust and untrust: remembered in OPENDEV_HOME/mcp-trust.json for this project, never in it; list says which project servers ask first', async () => {
    const notYet = /^Defined by the project, not allowed yet: everything\. Each asks before its first start; opendev mcp trust <name> allows one for good\.$/m;
    assert.match((await run('list')).stdout, notYet);
    const trusted = await run('trust', 'everything');
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(
      trusted.stdout,
      `MCP server "everything" from ${join(project, '.mcp.json')} is trusted in ${realpathSync(project)}: \`${everythingServer}\` starts without asking until its definition changes. opendev mcp untrust everything takes it back.\n`,
    );
    assert.deepEqual(json(join(home, 'mcp-trust.json')).trusted.map((r: Record<string, string>) => [r.workspace, r.server, r.definition]), [[realpathSync(project), 'everything', everythingServer]]);
    assert.deepEqual(readdirSync(project), ['.mcp.json'], 'nothing is written in the project');
    assert.doesNotMatch((await run('list')).stdout, /not allowed yet/);

    const untrusted = await run('untrust', 'everything');
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(untrusted.stdout, /^MCP server "everything" is no longer trusted in .*: it asks before its next start\.\n$/);
    assert.deepEqual(json(join(home, 'mcp-trust.json')).trusted, []);
    assert.match((await run('list')).stdout, notYet);

    assert.equal((await run('add', 'memory', '--command', memoryServer)).code, 0);
    assert.match((await run('trust', 'memory')).stdout, /^MCP server "memory" is defined in your own settings \(.*settings\.json\): it never asks before starting\.\n$/);
    const ghost = await run('trust', 'ghost');
    assert.equal(ghost.code, 2);
    assert.match(ghost.stderr, /No MCP server "ghost" is configured \(configured: memory, everything\)/);

    writeFileSync(join(home, 'mcp-trust.json'), '{ "trusted": ');
    const broken = await run('trust', 'everything');
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /mcp-trust\.json cannot be used \(.*\); fix or delete it\. OpenDev leaves it as it is\./);
    assert.equal(readFileSync(join(home, 'mcp-trust.json'), 'utf8'), '{ "trusted": ');
  });

  it('/mcp in a session (-p) reaches the session\'s servers', async () => {
    const env = { OPENDEV_HOME: home, OPENAI_API_KEY: 'unused', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const connected = await opendev(['-p', '/mcp connect everything'], env, { cwd: project });
    assert.equal(connected.code, 0, connected.stderr);
    assert.match(connected.stdout, /^MCP server "everything" is running with \d+ tools\.\n$/);
  });

  it('has its own help, and opendev --help points to it', async () => {
    const help = await run('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /opendev mcp list \[--test\]/);
    assert.match(help.stdout, /opendev mcp disable <name>/);
    assert.match(help.stdout, /opendev mcp trust <name> +let a server the project defines start without asking/);
    assert.match((await opendev(['--help'], { OPENDEV_HOME: home })).stdout, /opendev mcp <command>/);
  });
});
