import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { resolveOpendevHome } from '../../src/core/config/opendev-home';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { allToolResults, FakeProvider, type RecordedRequest } from '../fixtures/fake-provider';
import { keystrokes, waitForScreen } from '../helpers/terminal-screen';
import { activateOpenDev, clearSettings, fakeProviderSuite, processRunning, until, useSettings } from './support';

/** The extension host's child processes running server-everything (the process table: a terminal tab's hub is not exposed). */
function everythingChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('mcp-server-everything');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number)
    .filter(processRunning);
}

/**
 * The "MCP Servers" view and /mcp in the real VS Code, on a real MCP server (the reference
 * `mcp-server-everything` from the repository's node_modules) named in the workspace's .mcp.json.
 */
describe('MCP servers view and /mcp in VS Code', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let api: OpenDevApi;
  let folder: string;
  let everything: string;
  const server = (name = 'everything') => api.mcpServers.rows().then((rows) => rows.find((r) => r.name === name));
  const lastMessage = () => api.mcpServers.messages().at(-1) ?? '';
  const writeMcpJson = (servers: Record<string, unknown>) => writeFileSync(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));
  /** Enter in the open quick input, as the user presses it. */
  const enter = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  const addStep = (title: string) => until(() => api.mcpServers.addServerStep()?.title === title, `the "${title}" step`);
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
    everything = join(repo, 'node_modules', '.bin', 'mcp-server-everything');
    assert.ok(existsSync(everything), `${everything} is installed (npm install)`);
    writeMcpJson({ everything: { command: everything } });
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
    // A server the project defines is not started by expanding its row (VS Code restores expanded rows by itself).
    assert.match(listed!.tooltip, /Defined by the project: asks before it first starts/);
    assert.deepEqual(await api.mcpServers.children('everything'), ['Defined by the project: not started until you allow it. Connect starts it for this session; /mcp trust allows it for good.']);
    assert.equal((await server())?.state, 'stopped');

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

  it("Test starts the server and tells its health, Disconnect stops its process, Refresh shows a new server at once, New Chat stops the session's servers", async () => {
    await vscode.commands.executeCommand('opendev.mcp.test', 'everything');
    assert.match(lastMessage(), /^OpenDev: MCP server "everything" is healthy: \d+ tools, answered in \d+ ms\.$/);
    const tested = await server();
    assert.equal(tested?.state, 'running', 'Test is consent for the session and leaves it running');
    const firstPid = tested!.pid!;
    assert.ok(processRunning(firstPid), `the server's process ${firstPid} runs`);

    await vscode.commands.executeCommand('opendev.mcp.disconnect', 'everything');
    const disconnected = await server();
    assert.deepEqual(disconnected && [disconnected.state, disconnected.icon, disconnected.pid], ['stopped', 'circle-large-outline', undefined]);
    await until(() => !processRunning(firstPid), 'the disconnected server to exit');

    // A second server in .mcp.json: the session knows it once Refresh re-reads the files.
    await vscode.commands.executeCommand('opendev.mcp.connect', 'everything');
    const pid = (await server())!.pid!;
    writeMcpJson({ everything: { command: everything }, second: { command: everything } });
    try {
      assert.equal(await server('second'), undefined, 'not known before the refresh');
      await vscode.commands.executeCommand('opendev.mcp.refresh');
      assert.deepEqual((await api.mcpServers.rows()).map((r) => [r.name, r.state]), [['everything', 'running'], ['second', 'stopped']]);
      assert.equal((await server())!.pid, pid, 'an unchanged server keeps running through a refresh');
    } finally {
      writeMcpJson({ everything: { command: everything } });
      await vscode.commands.executeCommand('opendev.mcp.refresh');
    }

    api.newChat();
    await until(() => !processRunning(pid), 'the server process to exit after New Chat');
    assert.equal((await server())?.state, 'stopped');
  });

  it('Add asks name, command line and place in quick inputs and writes the user settings; Remove asks for confirmation and takes it out', async () => {
    const settings = join(resolveOpendevHome(), 'settings.json');
    const existed = existsSync(settings);
    const memory = join(everything, '..', 'mcp-server-memory');
    const adding = vscode.commands.executeCommand('opendev.mcp.add');
    try {
      await addStep('Add MCP Server (1/3)');
      api.mcpServers.fillAddServerStep('my server');
      await enter();
      await until(() => /letters, digits/.test(api.mcpServers.addServerStep()?.validationMessage ?? ''), 'the name refused');
      assert.equal(api.mcpServers.addServerStep()?.title, 'Add MCP Server (1/3)', 'Enter does not pass a bad name');
      api.mcpServers.fillAddServerStep('notes');
      await enter();

      await addStep('Add MCP Server (2/3)');
      api.mcpServers.fillAddServerStep(`${memory} --label "two words"`);
      await enter();

      await addStep('Add MCP Server (3/3)');
      assert.deepEqual(api.mcpServers.addServerStep()?.items, ['User settings', 'This project']);
      await enter(); // the first place: the user settings
      await adding;
    } finally {
      if (api.mcpServers.addServerStep()) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
    try {
      assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')).mcp_servers, { notes: { command: memory, args: ['--label', 'two words'] } });
      if (!existed) assert.equal(statSync(settings).mode & 0o777, 0o600, "a settings file OpenDev creates is the user's alone");
      assert.match(lastMessage(), /^OpenDev: Added MCP server "notes" to the user settings \(.*settings\.json\)\.$/);
      const row = await server('notes');
      assert.equal(row?.state, 'stopped');
      assert.ok(row!.tooltip.includes(`From user: ${settings}`), row!.tooltip);

      // Remove asks in a modal dialog; the test answers it as the user would (the one stand-in here).
      const questions: string[] = [];
      const window = vscode.window as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
      const real = window.showWarningMessage;
      window.showWarningMessage = async (message: unknown, options: unknown, ...items: unknown[]) => {
        questions.push(`${String(message)} ${JSON.stringify(options)} ${items.join('|')}`);
        return 'Remove';
      };
      try {
        await vscode.commands.executeCommand('opendev.mcp.remove', 'notes');
      } finally {
        window.showWarningMessage = real;
      }
      assert.deepEqual(questions, [`Remove the MCP server "notes" from ${settings}? {"modal":true} Remove`]);
      assert.equal(JSON.parse(readFileSync(settings, 'utf8')).mcp_servers, undefined, 'the entry is gone (and the emptied map with it)');
      assert.match(lastMessage(), /^Removed MCP server "notes" from the user settings/);
      assert.deepEqual((await api.mcpServers.rows()).map((r) => r.name), ['everything']);
    } finally {
      if (!existed) rmSync(settings, { force: true });
    }
  });

  it('/mcp in the OpenDev Agent terminal lists the .mcp.json server and tests it; closing the tab stops the server', async () => {
    assert.deepEqual(everythingChildren(), [], 'no server runs before');
    const id = await vscode.commands.executeCommand<string | undefined>('opendev.openTerminal');
    assert.ok(id);
    const screen = () => api.agentTerminals.screen(id);
    let running: number[] = [];
    try {
      await waitForScreen(screen, /› $/);
      for (const key of keystrokes('/mcp list\r')) api.agentTerminals.input(id, key);
      await waitForScreen(screen, /everything {2}stopped {2}stdio {6}\.mcp\.json {2}-/);
      for (const key of keystrokes('/mcp test everything\r')) api.agentTerminals.input(id, key);
      await waitForScreen(screen, /MCP server "everything" is healthy: \d+ tools, answered in \d+ ms\./);
      for (const key of keystrokes('/mcp list\r')) api.agentTerminals.input(id, key);
      await waitForScreen(screen, /everything {2}running {2}stdio {6}\.mcp\.json {2}\d+/);
      running = everythingChildren();
    } finally {
      api.agentTerminals.terminal(id)?.dispose();
      await api.agentTerminals.closed(id);
    }
    assert.equal(running.length, 1, `the tab's server ran (${running.join(', ')})`);
    await until(() => !running.some(processRunning), "the tab's server to exit with the tab");
  });
});

/**
 * A server the workspace's .mcp.json names, used by the model in the chat: the first search asks
 * whether it may start (a card, like any approval), the call asks its own approval, and the echo
 * reaches the model; the first request carried no MCP schema.
 */
describe('MCP in the chat: a project server asks before it starts, then its tool is found and called', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite();
  const mcpJson = () => join(suite.folder, '.mcp.json');
  const toolsOf = (req: RecordedRequest): string[] => (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
  const pendingCard = (toolName: string) => {
    const card = suite.api.transcript().find((e) => e.kind === 'approval' && e.state === 'pending' && e.request.toolName === toolName);
    return card?.kind === 'approval' ? card : undefined;
  };
  /** Waits for the pending card of `toolName` and answers it as the chat view would. */
  const answerCard = async (toolName: string, action: 'allow' | 'deny') => {
    await until(() => pendingCard(toolName) !== undefined, `the approval card for ${toolName}`, 60_000);
    const card = pendingCard(toolName)!;
    assert.deepEqual(suite.api.answer({ type: 'answerApproval', id: card.id, decision: { action } }), { ok: true });
    return card;
  };

  before(() => {
    const repo = vscode.extensions.getExtension('opendev.opendev')!.extensionPath;
    const everything = join(repo, 'node_modules', '.bin', 'mcp-server-everything');
    assert.ok(existsSync(everything), `${everything} is installed (npm install)`);
    writeFileSync(mcpJson(), JSON.stringify({ mcpServers: { everything: { command: everything } } }, null, 2));
  });
  after(() => {
    suite.api.newChat(); // stops the session's servers
    rmSync(mcpJson(), { force: true });
  });

  it('search_tools "echo" asks to start the server, mcp__everything__echo asks its approval, and the echo reaches the model', async () => {
    const { fake, api } = suite;
    fake.enqueue(
      { toolCalls: [{ id: 'find', name: 'search_tools', arguments: { query: 'echo' } }] },
      { toolCalls: [{ id: 'echo', name: 'mcp__everything__echo', arguments: { message: 'hello from VS Code' } }] },
      { text: 'The server echoed it.' },
    );
    const turn = api.send('echo "hello from VS Code" with the MCP server');

    const trust = await answerCard('MCP server everything', 'allow');
    assert.match(trust.request.title, /^Start MCP server everything from .*\.mcp\.json: `.*mcp-server-everything`\?$/);
    assert.equal(fake.requests.length, 1, 'nothing went back to the model while the card waited');
    await answerCard('mcp__everything__echo', 'allow');
    assert.equal((await turn)?.status, 'completed');

    const [first, second, third] = fake.requests;
    assert.deepEqual(toolsOf(first!).filter((n) => n.startsWith('mcp__')), [], 'no MCP schema in the first request');
    assert.ok(toolsOf(first!).includes('search_tools'));
    assert.match(allToolResults(second!).find((r) => r.toolCallId === 'find')!.content, /- mcp__everything__echo/);
    assert.ok(toolsOf(second!).includes('mcp__everything__echo'), 'the found tool joined the next request');
    assert.equal(allToolResults(third!).find((r) => r.toolCallId === 'echo')!.content, 'Echo: hello from VS Code');
    const answer = api.transcript().at(-1);
    assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'The server echoed it.');
    assert.equal((await api.mcpServers.rows()).find((r) => r.name === 'everything')?.state, 'running');

    // Asked once per session: the next search in this chat starts nothing new and asks nothing.
    fake.enqueue({ toolCalls: [{ id: 'again', name: 'search_tools', arguments: { query: 'add numbers' } }] }, { text: 'Found it.' });
    assert.equal((await api.send('find a tool that adds numbers'))?.status, 'completed');
    const cards = api.transcript().filter((e) => e.kind === 'approval' && e.request.toolName === 'MCP server everything');
    assert.equal(cards.length, 1);
  });
});
