import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/extension';
import { FakeProvider } from '../fixtures/fake-provider';
import { activateOpenDev, clearSettings, until, useSettings } from './support';

/**
 * The "MCP Servers" view and /mcp in the real VS Code, on a real MCP server (the reference
 * `mcp-server-everything` from the repository's node_modules) named in the workspace's .mcp.json.
 */
describe('MCP servers view and /mcp in VS Code', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let api: OpenDevApi;
  let folder: string;
  const server = () => api.mcpServers.rows().then((rows) => rows.find((r) => r.name === 'everything'));
  const lastNotice = () => {
    const entry = api.transcript().at(-1);
    return entry?.kind === 'notice' ? entry.text : '';
  };

  before(async () => {
    await fake.start();
    api = await activateOpenDev();
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    // The extension runs from the repository (or a copy of it with the same node_modules).
    const repo = vscode.extensions.getExtension('opendev.opendev')!.extensionPath;
    const everything = join(repo, 'node_modules', '.bin', 'mcp-server-everything');
    assert.ok(existsSync(everything), `${everything} is installed (npm install)`);
    writeFileSync(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: everything } } }, null, 2));
    await useSettings({ provider: 'openai', baseUrl: fake.openaiBaseUrl, thinkingLevel: 'off' });
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
    api.newChat();
  });
  after(async () => {
    api.newChat(); // stops the session's servers
    rmSync(join(folder, '.mcp.json'), { force: true });
    rmSync(join(folder, '.opendev'), { recursive: true, force: true });
    await clearSettings(['provider', 'baseUrl', 'thinkingLevel']);
    await fake.stop();
  });

  it('lists the .mcp.json server, connects it (running, with its tools), disables it, and /mcp list in the chat agrees', async () => {
    const listed = await server();
    assert.deepEqual(listed && [listed.state, listed.description, listed.icon], ['stopped', 'stdio', 'circle-large-outline']);
    assert.match(listed!.tooltip, /From \.mcp\.json: .*\.mcp\.json/);

    await vscode.commands.executeCommand('opendev.mcp.connect', 'everything');
    const running = await server();
    assert.equal(running?.state, 'running', running?.tooltip);
    assert.equal(running?.icon, 'pass-filled');
    const tools = Number(/^stdio · (\d+) tools$/.exec(running!.description)?.[1]);
    assert.ok(tools > 5, `the tool count is shown (${running!.description})`);

    await api.send('/mcp list');
    assert.match(lastNotice(), new RegExp(`everything {2}running {2}stdio {6}\\.mcp\\.json {2}${tools}`));

    const mcpJson = readFileSync(join(folder, '.mcp.json'), 'utf8');
    await vscode.commands.executeCommand('opendev.mcp.disable', 'everything');
    const disabled = await server();
    assert.deepEqual(disabled && [disabled.state, disabled.icon], ['disabled', 'circle-slash']);
    assert.deepEqual(JSON.parse(readFileSync(join(folder, '.opendev', 'settings.json'), 'utf8')), { mcp_servers: { everything: { enabled: false } } });
    assert.equal(readFileSync(join(folder, '.mcp.json'), 'utf8'), mcpJson, '.mcp.json is left as the user wrote it');

    // The project settings changed, so the chat's next command runs on a session rebuilt from them.
    await api.send('/mcp list');
    assert.match(lastNotice(), /everything {2}disabled {2}stdio {6}\.mcp\.json {2}-/);

    await vscode.commands.executeCommand('opendev.mcp.enable', 'everything');
    await until(() => !existsSync(join(folder, '.opendev', 'settings.json')) || !readFileSync(join(folder, '.opendev', 'settings.json'), 'utf8').includes('everything'), 'the override removed');
    assert.equal((await server())?.state, 'stopped');
  });
});
