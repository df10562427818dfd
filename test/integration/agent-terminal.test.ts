import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { SessionStore } from '../../src/core/session/session-store';
import { allToolResults, lastUserText, type RecordedRequest } from '../fixtures/fake-provider';
import { keystrokes, waitForScreen } from '../helpers/terminal-screen';
import { clearSettings, fakeProviderSuite, processRunning as running, trustFolderConfiguration, until, untrustFolderConfiguration, useSettings } from './support';

const SHIFT_TAB = '\x1b[Z';
const CTRL_C = '\x03';

const toolNames = (req: RecordedRequest): string[] => (req.body?.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

/**
 * "Open OpenDev Terminal" inside a real VS Code: a tab running the CLI's front end (the shared
 * terminal-ui REPL) on a pseudoterminal, with its own agent and session. Keystrokes go in through
 * the extension's test seam exactly as VS Code hands typed keys to the pseudoterminal; what the
 * tab shows comes back as plain text. The model is the fake provider behind the real openai SDK.
 */
describe('OpenDev Agent terminal tabs', function () {
  this.timeout(90_000);
  const suite = fakeProviderSuite({ approvalLevel: 'semi-auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  let folder: string;
  const opened: string[] = [];

  /** Opens a tab from the command, as the palette does, and waits for its prompt. */
  async function openTerminal(): Promise<string> {
    const id = await vscode.commands.executeCommand<string | undefined>('opendev.openTerminal');
    assert.ok(id, 'the command opened a terminal');
    opened.push(id);
    await waitScreen(id, /› $/);
    return id;
  }

  /** Types text key by key, as a terminal sends it (a burst of characters would be a paste). */
  function type(id: string, text: string): void {
    for (const key of keystrokes(text)) api.agentTerminals.input(id, key);
  }

  const waitScreen = (id: string, pattern: RegExp, timeoutMs = 60_000) => waitForScreen(() => api.agentTerminals.screen(id), pattern, timeoutMs);

  before(() => {
    api = suite.api;
    folder = suite.folder;
  });
  afterEach(async () => {
    for (const id of opened.splice(0)) {
      api.agentTerminals.terminal(id)?.dispose();
      await api.agentTerminals.closed(id);
    }
  });

  it('opens an "OpenDev Agent" tab from the command; a typed prompt streams the answer', async () => {
    const id = await openTerminal();
    assert.equal(api.agentTerminals.terminal(id)?.name, 'OpenDev Agent');
    assert.ok(vscode.window.terminals.includes(api.agentTerminals.terminal(id)!));
    assert.match(api.agentTerminals.screen(id), new RegExp(`^OpenDev · \\S+ \\(OpenAI\\) · ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
    assert.match(api.agentTerminals.screen(id), /Shift\+Tab switches plan mode/);

    fake.enqueue({ text: 'math.ts exports PI, add and subtract.', chunkDelayMs: 100 });
    type(id, 'what does math.ts export?\r');
    await waitScreen(id, /math\.ts exports PI, add and subtract\.\n+› $/);
    assert.equal(lastUserText(fake.requests[0]!), 'what does math.ts export?');
    assert.match(api.agentTerminals.screen(id), /› what does math\.ts export\?\n/, 'the typed line is echoed');
  });

  it('a command in semi-auto shows a numbered menu: 1 runs it, 3 denies it with a reason', async () => {
    const made = join(folder, 'terminal-made.txt');
    const denied = join(folder, 'terminal-denied.txt');
    try {
      const id = await openTerminal();
      fake.enqueue(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch terminal-made.txt && echo approved-run' } }] },
        { text: 'Created it.' },
      );
      type(id, 'make the file\r');
      await waitScreen(id, /command: touch terminal-made\.txt && echo approved-run\n\s+1\) allow\s+2\) always allow\s+3\) deny \[reason\]\s+4\) edit the command\n+choice \[1-4\] › $/);
      type(id, '1\r');
      // The command runs inline, as in the CLI: its line, its output, how it ended.
      await waitScreen(id, /\$ touch terminal-made\.txt && echo approved-run\napproved-run\n\[exit 0\]/);
      await waitScreen(id, /Created it\.\n+› $/);
      assert.equal(existsSync(made), true);
      assert.match(allToolResults(fake.requests[1]!)[0]!.content, /approved-run/);

      fake.reset();
      fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch terminal-denied.txt' } }] }, { text: 'OK, I will use the build script.' });
      type(id, 'make another\r');
      await waitScreen(id, /command: touch terminal-denied\.txt\n[\s\S]*choice \[1-4\] › $/);
      type(id, '3 use the build script instead\r');
      await waitScreen(id, /OK, I will use the build script\./);
      assert.equal(existsSync(denied), false, 'the denied command did not run');
      assert.match(allToolResults(fake.requests[1]!).at(-1)!.content, /use the build script instead/);
    } finally {
      rmSync(made, { force: true });
      rmSync(denied, { force: true });
    }
  });

  it('ask_user is a numbered menu answered with the keyboard', async () => {
    const id = await openTerminal();
    fake.enqueue(
      {
        toolCalls: [
          {
            name: 'ask_user',
            arguments: {
              questions: [
                {
                  header: 'Database',
                  question: 'Which database should the app use?',
                  options: [
                    { label: 'Postgres', description: 'A server database' },
                    { label: 'SQLite', description: 'A single file' },
                  ],
                  multiSelect: false,
                },
              ],
            },
          },
        ],
      },
      { text: 'SQLite it is.' },
    );
    type(id, 'set up a database\r');
    await waitScreen(id, /\? \[Database\] Which database should the app use\?\n\s+1\) Postgres — A server database\n\s+2\) SQLite — A single file\n\s+3\) Other[^\n]*\n+choice \[1-3\] › $/);
    type(id, '2\r');
    await waitScreen(id, /SQLite it is\./);
    assert.match(allToolResults(fake.requests[1]!)[0]!.content, /SQLite/);
  });

  it('Ctrl+C cancels an open menu first (the turn goes on), then stops a slow answer', async () => {
    const id = await openTerminal();
    fake.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch never-made.txt' } }] },
      { text: 'one two three four five six seven eight', chunkDelayMs: 600 },
    );
    type(id, 'do it slowly\r');
    await waitScreen(id, /choice \[1-4\] › $/);
    type(id, CTRL_C);
    await waitScreen(id, /\(cancelled\)/);
    await waitScreen(id, /one/);
    assert.match(allToolResults(fake.requests[1]!)[0]!.content, /cancelled by the user/);
    type(id, CTRL_C);
    await waitScreen(id, /\(stopped\)\n+› $/);
    assert.doesNotMatch(api.agentTerminals.screen(id), /eight/);
    assert.equal(existsSync(join(folder, 'never-made.txt')), false);
  });

  it('Shift+Tab switches to plan mode (shown at the prompt); the agent then gets read-only tools', async () => {
    const id = await openTerminal();
    type(id, SHIFT_TAB);
    await waitScreen(id, /plan mode: OpenDev explores and writes a plan[^\n]*\nplan › $/);
    assert.equal(api.agentTerminals.mode(id), 'plan');
    fake.enqueue({ text: 'Planning.' });
    type(id, 'plan a multiply function\r');
    await waitScreen(id, /Planning\.\n+plan › $/);
    assert.ok(!toolNames(fake.requests[0]!).includes('write_file'), `plan mode has no write_file: ${toolNames(fake.requests[0]!).join(', ')}`);
    assert.ok(toolNames(fake.requests[0]!).includes('read_file'));
    type(id, SHIFT_TAB);
    await waitScreen(id, /normal mode \(Shift\+Tab: plan mode\)\n› $/);
    assert.equal(api.agentTerminals.mode(id), 'normal');
  });

  it('a slash command answers without the model, from the same registry as the chat', async () => {
    const id = await openTerminal();
    type(id, '/models\r');
    await waitScreen(id, /Models:\n\s+action: .+\(OpenAI at http:\/\/127\.0\.0\.1[\s\S]*OpenDev: Select Model/);
    type(id, '/thinking\r');
    await waitScreen(id, /Thinking: off/);
    assert.equal(fake.requests.length, 0);
  });

  it('two terminals and the chat run at once on three different sessions, each saved', async () => {
    fake.setResponder((req) => ({ text: `echo: ${lastUserText(req)}`, chunkDelayMs: 50 }));
    const first = await openTerminal();
    const second = await openTerminal();
    assert.equal(api.agentTerminals.terminal(second)?.name, 'OpenDev Agent 2');
    type(first, 'I am the first\r');
    type(second, 'I am the second\r');
    api.newChat();
    const chatTurn = api.send('I am the chat');
    await waitScreen(first, /echo: I am the first\n+› $/);
    await waitScreen(second, /echo: I am the second\n+› $/);
    assert.equal((await chatTurn)?.status, 'completed');
    // Each agent sent only its own conversation.
    for (const req of fake.requests) assert.equal(req.body.messages.filter((m: { role: string }) => m.role === 'user').length, 1);

    await until(() => api.agentTerminals.sessionId(first) !== undefined && api.agentTerminals.sessionId(second) !== undefined, 'both sessions');
    const ids = [api.agentTerminals.sessionId(first)!, api.agentTerminals.sessionId(second)!, api.sessionId()!];
    assert.equal(new Set(ids).size, 3, `three sessions: ${ids.join(', ')}`);
    const store = new SessionStore();
    const saved = await store.load(ids[0]!, folder);
    assert.deepEqual(saved?.messages.map((m) => m.content), ['I am the first', 'echo: I am the first']);
    assert.deepEqual((await store.load(ids[1]!, folder))?.messages.map((m) => m.content), ['I am the second', 'echo: I am the second']);
    api.newChat();
  });

  it('closing the tab disposes its agent: SessionEnd runs and its background task is killed', async () => {
    const hookOut = join(tmpdir(), `opendev-session-end-${process.pid}-${Date.now()}.json`);
    const settingsDir = join(folder, '.opendev');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > '${hookOut}'` }] }] } }));
    await trustFolderConfiguration(); // a project hook runs only in a trusted folder
    let taskId: string | undefined;
    try {
      const id = await openTerminal(); // its agent reads the hooks now
      fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo pid=$$; exec sleep 123', background: true } }] }, { text: 'unused' });
      type(id, 'start a server\r');
      await waitScreen(id, /choice \[1-4\] › $/);
      type(id, '1\r');
      await waitScreen(id, /\$ echo pid=\$\$; exec sleep 123 +\[background task \S+\]/);
      const ours = () => api.terminal.taskIds().find((t) => /exec sleep 123[\s\S]*pid=\d+/.test(api.terminal.transcript(t)));
      await until(() => ours() !== undefined, 'the task to get a tab of its own and print its pid');
      const task = ours()!;
      taskId = task;
      const pid = Number(/pid=(\d+)/.exec(api.terminal.transcript(task))![1]);
      // run_command waits a while on a new task's first output; Ctrl+C ends the wait, not the task.
      type(id, CTRL_C);
      await waitScreen(id, /\(stopped\)\n+› $/);
      assert.equal(running(pid), true, 'the task survives Ctrl+C');

      const tab = api.agentTerminals.terminal(id)!;
      tab.dispose();
      await api.agentTerminals.closed(id);
      opened.splice(opened.indexOf(id), 1);
      assert.ok(!api.agentTerminals.ids().includes(id));
      await until(() => !running(pid), 'the background task to be killed');
      await until(() => existsSync(hookOut), 'the SessionEnd hook to run');
      assert.match(readFileSync(hookOut, 'utf8'), /"hook_event_name":\s*"SessionEnd"/);
      await until(() => !vscode.window.terminals.includes(tab), 'the tab to go');
      await until(() => /■ stopped/.test(api.terminal.transcript(task)), "the task's tab to show how it ended");
    } finally {
      // The task's tab stays to show how it ended; other suites look for terminals by name.
      const taskTab = taskId === undefined ? undefined : api.terminal.taskTerminal(taskId);
      taskTab?.dispose();
      if (taskTab) await until(() => !vscode.window.terminals.includes(taskTab), 'the task tab to close');
      rmSync(settingsDir, { recursive: true, force: true });
      rmSync(hookOut, { force: true });
      await untrustFolderConfiguration();
    }
  });

  it('a settings change reaches an open tab at its next message: the new model, the same conversation and session', async () => {
    const id = await openTerminal();
    fake.enqueue({ text: 'Noted: Friday.' });
    type(id, 'the release is on Friday\r');
    await waitScreen(id, /Noted: Friday\.\n+› $/);
    await until(() => api.agentTerminals.sessionId(id) !== undefined, 'the session');
    const session = api.agentTerminals.sessionId(id)!;
    try {
      await useSettings({ model: 'gpt-4.1-mini' });
      fake.enqueue({ text: 'On Friday.' });
      type(id, 'when is the release?\r');
      await waitScreen(id, /Settings changed: OpenDev now runs gpt-4\.1-mini \(OpenAI\); the conversation goes on\.\n[\s\S]*On Friday\.\n+› $/);
      assert.equal(fake.requests[1]!.body.model, 'gpt-4.1-mini');
      assert.match(JSON.stringify(fake.requests[1]!.body.messages), /the release is on Friday/, 'the rebuilt agent has the conversation');
      assert.equal(api.agentTerminals.sessionId(id), session, 'the same session goes on');
      await until(() => api.agentTerminals.sessionId(id) === session, 'the save');
      type(id, '/exit\r'); // the last save happens as the tab closes
      await api.agentTerminals.closed(id);
      opened.splice(opened.indexOf(id), 1);
      assert.equal((await new SessionStore().load(session, folder))?.messages.length, 4);
    } finally {
      await clearSettings(['model']);
    }
  });

  it('/clear in a tab starts a new session under the new agent’s id, which its hooks see', async () => {
    const hookDir = join(folder, '.hook-inputs');
    const settingsDir = join(folder, '.opendev');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(
      join(settingsDir, 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'd="$OPENDEV_PROJECT_DIR/.hook-inputs"; mkdir -p "$d"; cat > "$d/$(date +%s%N).json"' }] }] } }),
    );
    const hookSessionIds = () => readdirSync(hookDir).sort().map((f) => JSON.parse(readFileSync(join(hookDir, f), 'utf8')).session_id as string);
    await trustFolderConfiguration(); // a project hook runs only in a trusted folder
    try {
      const id = await openTerminal();
      fake.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
      type(id, 'first conversation\r');
      await waitScreen(id, /echo: first conversation\n+› $/);
      await until(() => api.agentTerminals.sessionId(id) !== undefined, 'the first session');
      const first = api.agentTerminals.sessionId(id)!;
      type(id, '/clear\r');
      await waitScreen(id, new RegExp(`New conversation\\. The previous conversation is saved as session ${first}\\.\\n+› $`));
      type(id, 'second conversation\r');
      await waitScreen(id, /echo: second conversation\n+› $/);
      await until(() => api.agentTerminals.sessionId(id) !== undefined && api.agentTerminals.sessionId(id) !== first, 'the second session');
      const second = api.agentTerminals.sessionId(id)!;
      assert.deepEqual(hookSessionIds(), [first, second], 'each conversation’s hooks saw its own session id');
      assert.equal(fake.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'user').length, 1, 'the model no longer sees the first conversation');
      type(id, '/exit\r');
      await api.agentTerminals.closed(id);
      opened.splice(opened.indexOf(id), 1);
      assert.deepEqual((await new SessionStore().load(second, folder))?.messages.map((m) => m.content), ['second conversation', 'echo: second conversation']);
    } finally {
      fake.setResponder(undefined);
      rmSync(settingsDir, { recursive: true, force: true });
      rmSync(hookDir, { recursive: true, force: true });
      await untrustFolderConfiguration();
    }
  });

  it('the status bar follows the tab in use (its mode and context), and the chat again once the chat is focused', async () => {
    await useSettings({ contextWindow: 40_000 });
    try {
      const id = await openTerminal(); // the tab is shown with the focus: the active terminal
      await until(() => api.statusBar().front === id, 'the status bar to follow the tab');
      type(id, SHIFT_TAB);
      await until(() => api.statusBar().text === '$(hubot) gpt-4.1 · plan', `the tab's plan mode in the status bar, not "${api.statusBar().text}"`);
      assert.equal(api.mode(), 'normal', 'the chat itself stays in normal mode');
      assert.match(api.statusBar().tooltip, /^OpenDev in the terminal "OpenDev Agent": click to show it$/m);

      fake.enqueue({ text: 'Planned.', usage: { promptTokens: 16_800, outputTokens: 12 } });
      type(id, 'plan something\r');
      await waitScreen(id, /Planned\.\n+plan › $/);
      await until(() => /^\$\(hubot\) gpt-4\.1 · plan · \d+%$/.test(api.statusBar().text), `the tab's context reading, not "${api.statusBar().text}"`);
      assert.match(api.statusBar().tooltip, /^Context: [\d,]+ of 40,000 tokens/m);

      // The user turns to the chat (its input takes the focus), then types in the tab again.
      api.fromView({ type: 'inputState', viewFocused: true, inputFocused: true, suggesting: false });
      await until(() => api.statusBar().front === 'chat', 'the status bar to follow the chat');
      assert.equal(api.statusBar().text, '$(hubot) gpt-4.1 · normal');
      assert.match(api.statusBar().tooltip, /^OpenDev: click to open the chat$/m);
      type(id, 'x');
      await until(() => api.statusBar().front === id, 'typing in the tab makes it the front end in use');
      type(id, '\x15'); // Ctrl+U: the line goes

      api.agentTerminals.terminal(id)!.dispose();
      await api.agentTerminals.closed(id);
      opened.splice(opened.indexOf(id), 1);
      await until(() => api.statusBar().front === 'chat', 'the chat once the tab is closed');
    } finally {
      await clearSettings(['contextWindow']);
    }
  });

  it('/exit closes the tab', async () => {
    const id = await openTerminal();
    const tab = api.agentTerminals.terminal(id)!;
    type(id, '/exit\r');
    await api.agentTerminals.closed(id);
    await until(() => !vscode.window.terminals.includes(tab), 'the tab to close');
    opened.splice(opened.indexOf(id), 1);
  });
});
