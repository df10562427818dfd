// `opendev acp` with a client that offers its file system and terminal (as Zed does), over a real
// stdio pipe to `node dist/cli.js acp`, against the fake provider on 127.0.0.1: the agent reads the
// editor's unsaved buffer and writes through the editor; a command runs in the editor's terminal;
// the model is chosen among the provider's models; the saved sessions are listed.
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allToolResults, FakeProvider, toolResults } from '../../fixtures/fake-provider';
import { newHome, workspace } from '../cli/cli-harness';
import { startAcpClient, updatesOf, type AcpClient } from './acp-client';
import { AcpEditor } from './acp-editor';

const KEY = 'sk-acp-capabilities-key-never-shown';

describe('opendev acp with the client\'s file system and terminal', function () {
  const fake = new FakeProvider();
  let home: string;
  let dir: string;
  let editor: AcpEditor;
  let acp: AcpClient;
  const start = (env: Record<string, string> = {}, args: string[] = []) =>
    (acp = startAcpClient({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_SANDBOX: '0', ...env }, ['--thinking', 'off', ...args], editor));
  const initialize = () =>
    acp.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
  const newSession = async (cwd = dir) => acp.connection.agent.request('session/new', { cwd, mcpServers: [] });
  const prompt = (sessionId: string, text: string) => acp.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  const fresh = () => {
    const folder = mkdtempSync(join(tmpdir(), 'opendev-acp-caps-'));
    cpSync(workspace, folder, { recursive: true });
    return folder;
  };

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    home = newHome();
    dir = fresh();
    editor = new AcpEditor();
    start();
    await initialize();
  });
  afterEach(async () => {
    await acp.close();
    const everything = JSON.stringify(acp.updates) + JSON.stringify(acp.permissions) + JSON.stringify(editor.calls) + acp.stderr();
    assert.equal(everything.includes(KEY), false, 'the API key never reaches the client or the log');
  });

  it('initialize advertises session/list', async () => {
    const init = await initialize();
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.list, {});
  });

  it('read_file reads the editor\'s unsaved buffer; edit_file applies to it and writes through the editor, after the approval', async () => {
    const math = join(dir, 'math.ts');
    const onDisk = readFileSync(math, 'utf8');
    editor.buffers.set(math, onDisk.replace('return a - b;', 'return a - b; // unsaved in the editor'));
    const sessionId = (await newSession()).sessionId;
    fake.enqueue(
      { toolCalls: [{ id: 'read-1', name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { toolCalls: [{ id: 'edit-1', name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'return a - b; // unsaved in the editor', new_content: 'return a - b; // saved by the agent' } }] },
      { text: 'Done.' },
    );
    assert.equal((await prompt(sessionId, 'annotate subtract')).stopReason, 'end_turn');

    assert.match(toolResults(fake.requests[1]!)[0]!.content, /unsaved in the editor/, 'the model read the buffer, not the disk');
    assert.equal(acp.permissions[0]?.toolCall.toolCallId, 'edit-1', 'the edit still asks');
    const asked = acp.permissions[0]!.toolCall.content?.find((c) => c.type === 'diff');
    assert.ok(asked?.type === 'diff' && asked.oldText?.includes('unsaved in the editor'), 'the diff asked about is against the buffer');
    const writes = editor.calls.filter((c) => c.method === 'fs/write_text_file');
    assert.equal(writes.length, 1, 'the edit was written through the editor');
    assert.equal(writes[0]!.params.path, math);
    assert.equal(writes[0]!.params.content, onDisk.replace('return a - b;', 'return a - b; // saved by the agent'));
    assert.equal(writes[0]!.params.sessionId, sessionId);
    assert.ok(updatesOf(acp, sessionId, 'tool_call_update').some((u) => u.toolCallId === 'edit-1' && u.status === 'completed'));
    // Undo's checkpoint caught the change the editor saved: the step is in the operation log (written by the end of the session).
    await acp.close();
    const steps = operationLog(home).filter((r) => r.type === 'step' && r.session === sessionId);
    assert.deepEqual(steps.flatMap((r) => r.changed as unknown[]), [{ path: 'math.ts', change: 'modified' }]);
  });

  it('write_file creates the new file through the editor', async () => {
    const sessionId = (await newSession()).sessionId;
    fake.enqueue({ toolCalls: [{ id: 'write-1', name: 'write_file', arguments: { file_path: 'notes/new.md', content: '# New\n', create_dirs: true } }] }, { text: 'Created.' });
    assert.equal((await prompt(sessionId, 'make notes')).stopReason, 'end_turn');
    assert.deepEqual(
      editor.calls.filter((c) => c.method === 'fs/write_text_file').map((c) => [c.params.path, c.params.content]),
      [[join(dir, 'notes/new.md'), '# New\n']],
    );
    assert.equal(readFileSync(join(dir, 'notes/new.md'), 'utf8'), '# New\n');
    assert.ok(updatesOf(acp, sessionId, 'tool_call_update').some((u) => u.toolCallId === 'write-1' && u.status === 'completed'));
  });

  it('run_command runs in the editor\'s terminal (create, wait, output, release); the tool call shows the terminal and the output reaches the model', async () => {
    const sessionId = (await newSession()).sessionId;
    fake.enqueue({ toolCalls: [{ id: 'cmd-1', name: 'run_command', arguments: { command: 'echo terminal-marker-$((40+2)) && echo to-stderr >&2' } }] }, { text: 'Ran it.' });
    assert.equal((await prompt(sessionId, 'run it')).stopReason, 'end_turn');
    assert.deepEqual(editor.methods('terminal/'), ['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    const create = editor.calls[0]!.params;
    assert.equal(create.sessionId, sessionId);
    assert.equal(create.cwd, dir);
    assert.ok((create.args as string[]).includes('echo terminal-marker-$((40+2)) && echo to-stderr >&2'));
    const shown = updatesOf(acp, sessionId, 'tool_call_update').filter((u) => u.toolCallId === 'cmd-1').flatMap((u) => u.content ?? []);
    assert.ok(shown.some((c) => c.type === 'terminal' && c.terminalId === 'term-1'), `the tool call carries the terminal: ${JSON.stringify(shown)}`);
    const result = toolResults(fake.requests[1]!)[0]!.content;
    assert.match(result, /terminal-marker-42/);
    assert.match(result, /to-stderr/);
    assert.match(result, /exit code 0/);
  });

  it('the editor\'s terminal gets the secret variables of the editor\'s environment empty', async () => {
    await acp.close();
    editor.env = { ...process.env, OPENAI_API_KEY: KEY, DEPLOY_TOKEN: 'deploy-token-marker' };
    start({ DEPLOY_TOKEN: 'deploy-token-marker' });
    await initialize();
    const sessionId = (await newSession()).sessionId;
    fake.enqueue({ toolCalls: [{ id: 'cmd-5', name: 'run_command', arguments: { command: 'echo "key=[$OPENAI_API_KEY] token=[$DEPLOY_TOKEN] path-set=[${PATH:+yes}]"' } }] }, { text: 'Ran it.' });
    await prompt(sessionId, 'run it');
    assert.deepEqual(editor.methods('terminal/create'), ['terminal/create']);
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /key=\[\] token=\[\] path-set=\[yes\]/);
    assert.equal(JSON.stringify(fake.requests).includes('deploy-token-marker'), false);
  });

  it('a command that fails in the editor\'s terminal reports its exit code', async () => {
    const sessionId = (await newSession()).sessionId;
    fake.enqueue({ toolCalls: [{ id: 'cmd-2', name: 'run_command', arguments: { command: 'echo failing-marker; exit 3' } }] }, { text: 'It failed.' }, { text: 'It failed, as asked.' });
    await prompt(sessionId, 'run it');
    assert.match(allToolResults(fake.requests[1]!)[0]!.content, /failing-marker[\s\S]*exit code 3/);
    assert.ok(updatesOf(acp, sessionId, 'tool_call_update').some((u) => u.toolCallId === 'cmd-2' && u.status === 'failed'));
  });

  it('session/cancel while a command runs in the editor\'s terminal: it is killed and released, the prompt answers cancelled', async () => {
    const sessionId = (await newSession()).sessionId;
    fake.enqueue({ toolCalls: [{ id: 'cmd-3', name: 'run_command', arguments: { command: 'echo started; sleep 600' } }] }, { text: 'never' });
    const pending = prompt(sessionId, 'run the long one');
    await editor.called('terminal/wait_for_exit');
    await acp.connection.agent.notify('session/cancel', { sessionId });
    assert.equal((await pending).stopReason, 'cancelled');
    assert.deepEqual(editor.methods('terminal/'), ['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/output', 'terminal/release']);
  });

  it('with the OS sandbox on, a command stays in our own sandboxed process, not the editor\'s terminal', async () => {
    await acp.close();
    start({ OPENDEV_SANDBOX: '1' });
    await initialize();
    const sessionId = (await newSession()).sessionId;
    fake.enqueue({ toolCalls: [{ id: 'cmd-4', name: 'run_command', arguments: { command: 'echo sandboxed-marker' } }] }, { text: 'Ran it.' });
    assert.equal((await prompt(sessionId, 'run it')).stopReason, 'end_turn');
    assert.deepEqual(editor.methods('terminal/'), [], 'the editor\'s terminal was not used');
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /sandboxed-marker/);
  });

  it('models: the provider\'s models are offered as the "model" option; choosing one switches the model the next turn uses', async () => {
    const created = await newSession();
    const option = created.configOptions?.find((o) => o.id === 'model');
    assert.ok(option && option.type === 'select', 'a model selector');
    assert.equal(option.category, 'model');
    assert.equal(option.currentValue, 'gpt-4.1');
    const values = option.options.flatMap((o) => ('value' in o ? [o.value] : []));
    assert.ok(values.includes('gpt-4.1') && values.includes('gpt-4o-mini'), `the OpenAI models: ${values.join(', ')}`);

    fake.enqueue({ text: 'First.' }, { text: 'Second.' });
    await prompt(created.sessionId, 'first');
    const changed = await acp.connection.agent.request('session/set_config_option', { sessionId: created.sessionId, configId: 'model', value: 'gpt-4o-mini' });
    const after = changed.configOptions.find((o) => o.id === 'model');
    assert.equal(after?.currentValue, 'gpt-4o-mini');
    assert.equal(updatesOf(acp, created.sessionId, 'config_option_update').at(-1)?.configOptions[0]?.currentValue, 'gpt-4o-mini');
    await prompt(created.sessionId, 'second');
    assert.equal(fake.requests[0]!.body.model, 'gpt-4.1');
    assert.equal(fake.requests[1]!.body.model, 'gpt-4o-mini');
    assert.ok(JSON.stringify(fake.requests[1]!.body.messages).includes('first'), 'the conversation carried over to the new model');

    await assert.rejects(acp.connection.agent.request('session/set_config_option', { sessionId: created.sessionId, configId: 'model', value: 'no-such-model' }));
    await assert.rejects(acp.connection.agent.request('session/set_config_option', { sessionId: created.sessionId, configId: 'colour', value: 'red' }));
  });

  it('session/list: the saved sessions of the folder, not of another folder', async () => {
    const here = (await newSession()).sessionId;
    fake.enqueue({ text: 'Hello.' }, { text: 'Elsewhere.' });
    await prompt(here, 'say hello');
    const other = fresh();
    const there = (await newSession(other)).sessionId;
    await prompt(there, 'somewhere else');

    const listed = await acp.connection.agent.request('session/list', { cwd: dir });
    assert.deepEqual(listed.sessions.map((s) => s.sessionId), [here]);
    assert.equal(listed.sessions[0]!.cwd, dir);
    assert.match(listed.sessions[0]!.title ?? '', /say hello/);
    assert.ok(listed.sessions[0]!.updatedAt);
    assert.deepEqual((await acp.connection.agent.request('session/list', { cwd: other })).sessions.map((s) => s.sessionId), [there]);
  });
});

/** Every record of the operation logs under an OpenDev home (one per project). */
function operationLog(home: string): Array<Record<string, unknown>> {
  const files = (readdirSync(join(home, 'projects'), { recursive: true }) as string[]).filter((f) => f.endsWith('operations.jsonl'));
  return files.flatMap((f) => readFileSync(join(home, 'projects', f), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
}
